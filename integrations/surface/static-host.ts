import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { encodePath, otherSpellingsOf, sitePathOf } from '../../src/http/site-paths.ts';
import { unservedFiles, type SurfaceManifest } from '../../src/http/surface-manifest.ts';
import { compileSurfaceRules, type HeaderMap } from '../../src/http/surface-rules.ts';
import { listFiles } from './dist-files.ts';

// dist/_headers and dist/_redirects (the Netlify and Cloudflare Pages formats) from the rules
// manifest, so a static host serving dist/ sends the headers and redirects the Node server sends.
// What those formats cannot say is in the README ("Machine-readable surface").
//
// On those hosts every `_headers` rule whose path matches applies, and a header two matching
// rules name gets both values joined by a comma: so each header of each path comes from exactly
// one rule here, and the file is checked against the manifest's answers before it is written.

const generated = '# Written by the build from _surface.json; the Node server applies the same rules.';

/** `files`: every file of `distDir` by relative path, when the caller has them listed already. */
export async function writeStaticHostFiles(distDir: string, manifest: SurfaceManifest, files: Iterable<string> = listFiles(distDir)): Promise<void> {
  const paths = servedPaths(files, manifest);
  writeTextFile(join(distDir, '_headers'), renderHeadersFile(manifest, paths));
  writeTextFile(join(distDir, '_redirects'), [renderRedirectsFile(manifest, paths)]);
}

/** Site paths of the files the server serves from dist/ (not the 404 bodies, precompressed siblings or the host files), sorted. */
function servedPaths(files: Iterable<string>, manifest: SurfaceManifest): string[] {
  const all = new Set(files);
  const hidden = new Set([...unservedFiles, manifest.notFound.html, manifest.notFound.markdown]);
  return [...all]
    .filter((file) => !hidden.has(file) && !(/\.(br|gz)$/.test(file) && all.has(file.slice(0, -3))))
    .map(sitePathOf)
    .sort();
}

/** Writes text given in pieces a megabyte at a time: `_headers` is 6 MB at 10,000 pages, which whole took three copies of it. */
function writeTextFile(path: string, pieces: Iterable<string>): void {
  const fd = openSync(path, 'w');
  try {
    let chunk = '';
    const flush = () => {
      const bytes = Buffer.from(chunk);
      for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written);
      chunk = '';
    };
    for (const piece of pieces) {
      chunk += piece;
      if (chunk.length >= 2 ** 20) flush();
    }
    flush();
  } finally {
    closeSync(fd);
  }
}

/** A site path as a host rule names it: percent-encoded, and `*` spelled out so it is no splat. */
const hostPath = (path: string) => encodePath(path).replaceAll('*', '%2A');

/**
 * A manifest pattern in a host's terms: `**` and `*` become one splat, which matches across
 * segments, so it stands for the pattern only where the files it matches all want its value.
 */
function hostPattern(pattern: string): string | undefined {
  const splat = pattern
    .replaceAll('/**/', '/*')
    .replace(/\/\*\*$/, '/*')
    .replace(/\*+/g, '*');
  return splat.split('*').length <= 2 ? splat : undefined; // Cloudflare takes one splat per rule
}

/** The paths a host rule matches: its one splat, if any, matches anything (across segments). */
function hostMatcher(pattern: string): (path: string) => boolean {
  const star = pattern.indexOf('*');
  if (star === -1) return (path) => path === pattern;
  const [head, tail] = [pattern.slice(0, star), pattern.slice(star + 1)];
  if (tail.includes('*')) throw new Error(`a host rule with more than one splat: ${pattern}`);
  // Host paths are percent-encoded, so no line break stops a splat.
  return (path) => path.length >= head.length + tail.length && path.startsWith(head) && path.endsWith(tail);
}

/** What the server sends for a path that a host rule can carry: the manifest's headers, and the content type it assigns. */
function headersOf(manifest: SurfaceManifest): (path: string) => HeaderMap {
  const rules = compileSurfaceRules(manifest);
  return (path) => {
    const contentType = rules.typeOf(path);
    return { ...rules.headersOf(path), ...(contentType ? { 'content-type': contentType } : {}) };
  };
}

// Paths are numbered in their sorted order (tens of thousands at 10,000 pages), and the header
// names each has been given are bits, one number per path.

/** The file's text, in pieces. */
function renderHeadersFile(manifest: SurfaceManifest, paths: readonly string[]): Iterable<string> {
  const headersFor = headersOf(manifest);
  const wanted = paths.map(headersFor);
  const hosted = paths.map(hostPath);
  const bits = new Map<string, number>();
  const bitOf = (name: string) => bits.get(name) ?? bits.set(name, 1 << bits.size).get(name)!;
  const written = new Uint32Array(paths.length);
  const blocks = new Map<string, HeaderMap>();
  const write = (pattern: string, name: string, value: string, covered: readonly number[]) => {
    (blocks.get(pattern) ?? blocks.set(pattern, {}).get(pattern)!)[name] = value;
    const bit = bitOf(name);
    for (const path of covered) written[path]! |= bit;
  };
  const wants = (name: string, value: string) => {
    const bit = bitOf(name);
    return (path: number) => wanted[path]![name] === value && !(written[path]! & bit);
  };

  // The manifest's patterns, where every file a host would match wants that value; else whole
  // top-level folders and files that all want it.
  const numbered = paths.map((_, path) => path);
  const byTopLevel = Map.groupBy(numbered, (path) => {
    const slash = paths[path]!.indexOf('/', 1);
    return slash > 0 ? `${hostPath(paths[path]!.slice(0, slash))}/*` : hosted[path]!;
  });
  const patterned = [...manifest.headers, ...manifest.types.map(({ pattern, contentType }) => ({ pattern, headers: { 'content-type': contentType } }))];
  for (const rule of patterned) {
    const pattern = hostPattern(rule.pattern);
    const test = pattern ? hostMatcher(pattern) : undefined;
    const matched = test ? numbered.filter((path) => test(hosted[path]!)) : [];
    for (const [name, value] of Object.entries(rule.headers)) {
      if (pattern && matched.length > 0 && matched.every(wants(name, value))) write(pattern, name, value, matched);
      else for (const [group, under] of byTopLevel) if (under.every(wants(name, value))) write(group, name, value, under);
    }
  }
  // What no pattern carries (a page's CSP, a twin's Link): a rule for the path itself.
  for (const path of numbered) {
    for (const [name, value] of Object.entries(wanted[path]!)) if (!(written[path]! & bitOf(name))) write(hosted[path]!, name, value, [path]);
  }

  checkHeaderBlocks(blocks, paths, wanted, hosted);
  return headersFileText(blocks);
}

function* headersFileText(blocks: Map<string, HeaderMap>): Generator<string> {
  yield `${generated}\n`;
  for (const [pattern, headers] of blocks) {
    yield `\n${pattern}`;
    for (const [name, value] of Object.entries(headers)) yield `\n  ${name}: ${value}`;
    yield '\n';
  }
  if (!blocks.size) yield '\n\n';
}

/** Every path gets exactly what it wants from the rules a host would match, each header from one rule. */
function checkHeaderBlocks(blocks: Map<string, HeaderMap>, paths: readonly string[], wanted: readonly HeaderMap[], hosted: readonly string[]): void {
  const splats = [...blocks].filter(([pattern]) => pattern.includes('*')).map(([pattern, headers]) => ({ test: hostMatcher(pattern), headers }));
  paths.forEach((path, i) => {
    const headers = wanted[i]!;
    const exact = blocks.get(hosted[i]!);
    const applied = [...(exact ? [exact] : []), ...splats.filter(({ test }) => test(hosted[i]!)).map((splat) => splat.headers)];
    // Exactly its headers: as many as it wants, each named once, each with the value it wants.
    let count = 0;
    const named = new Set<string>();
    const exactly = applied.every((block) =>
      Object.entries(block).every(([name, value]) => {
        count += 1;
        return !named.has(name) && named.add(name) && headers[name] === value;
      }),
    );
    if (!exactly || count !== Object.keys(headers).length) {
      throw new Error(`_headers cannot give ${path} exactly its headers: wanted ${JSON.stringify(headers)}, a host would send ${JSON.stringify(applied)}`);
    }
  });
}

function renderRedirectsFile(manifest: SurfaceManifest, paths: readonly string[]): string {
  const served = new Set(paths);
  const { status } = manifest.redirects.spellings;
  const lines = Object.keys(manifest.pageHeaders.pages)
    .filter((page) => served.has(page))
    .flatMap((page) =>
      otherSpellingsOf(page)
        .filter((spelling) => !served.has(spelling))
        .map((spelling) => `${hostPath(spelling)} ${hostPath(page)} ${status}`),
    );
  const negotiation =
    '# The markdown twin redirect (redirects.markdownTwin: 307 when Accept prefers text/markdown) matches on Accept, which this format cannot.';
  return `${generated}\n${negotiation}\n${lines.join('\n')}\n`;
}
