import { readdir, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { encodePath, otherSpellingsOf, sitePathOf } from '../../src/http/site-paths.ts';
import { unservedFiles, type SurfaceManifest } from '../../src/http/surface-manifest.ts';
import { compileSurfaceRules, type HeaderMap } from '../../src/http/surface-rules.ts';

// dist/_headers and dist/_redirects (the Netlify and Cloudflare Pages formats) from the rules
// manifest, so a static host serving dist/ sends the headers and redirects the Node server sends.
// What those formats cannot say is in the README ("Machine-readable surface").
//
// On those hosts every `_headers` rule whose path matches applies, and a header two matching
// rules name gets both values joined by a comma: so each header of each path comes from exactly
// one rule here, and the file is checked against the manifest's answers before it is written.

const generated = '# Written by the build from _surface.json; the Node server applies the same rules.';

export async function writeStaticHostFiles(distDir: string, manifest: SurfaceManifest): Promise<void> {
  const paths = await servedPaths(distDir, manifest);
  await writeFile(join(distDir, '_headers'), renderHeadersFile(manifest, paths));
  await writeFile(join(distDir, '_redirects'), renderRedirectsFile(manifest, paths));
}

/** Site paths of the files the server serves from dist/ (not the 404 bodies, precompressed siblings or the host files). */
async function servedPaths(distDir: string, manifest: SurfaceManifest): Promise<string[]> {
  const files = new Set<string>();
  for (const dirent of await readdir(distDir, { recursive: true, withFileTypes: true })) {
    if (dirent.isFile()) files.add(relative(distDir, join(dirent.parentPath, dirent.name)).split(sep).join('/'));
  }
  const hidden = new Set([...unservedFiles, manifest.notFound.html, manifest.notFound.markdown]);
  return [...files]
    .filter((file) => !hidden.has(file) && !(/\.(br|gz)$/.test(file) && files.has(file.slice(0, -3))))
    .map(sitePathOf)
    .sort();
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

const hostRegExp = (pattern: string) =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );

/** What the server sends for a path that a host rule can carry: the manifest's headers, and the content type it assigns. */
function headersOf(manifest: SurfaceManifest): (path: string) => HeaderMap {
  const rules = compileSurfaceRules(manifest);
  return (path) => {
    const contentType = rules.typeOf(path);
    return { ...rules.headersOf(path), ...(contentType ? { 'content-type': contentType } : {}) };
  };
}

function renderHeadersFile(manifest: SurfaceManifest, paths: readonly string[]): string {
  const headersFor = headersOf(manifest);
  const wanted = new Map(paths.map((path) => [path, headersFor(path)]));
  const hosted = new Map(paths.map((path) => [path, hostPath(path)]));
  const written = new Map(paths.map((path) => [path, new Set<string>()]));
  const blocks = new Map<string, HeaderMap>();
  const write = (pattern: string, name: string, value: string, covered: readonly string[]) => {
    (blocks.get(pattern) ?? blocks.set(pattern, {}).get(pattern)!)[name] = value;
    for (const path of covered) written.get(path)!.add(name);
  };
  const wants = (name: string, value: string) => (path: string) => wanted.get(path)![name] === value && !written.get(path)!.has(name);

  // The manifest's patterns, where every file a host would match wants that value; else whole
  // top-level folders and files that all want it.
  const byTopLevel = Map.groupBy(paths, (path) => (path.indexOf('/', 1) > 0 ? `${hostPath(path.slice(0, path.indexOf('/', 1)))}/*` : hosted.get(path)!));
  const patterned = [...manifest.headers, ...manifest.types.map(({ pattern, contentType }) => ({ pattern, headers: { 'content-type': contentType } }))];
  for (const rule of patterned) {
    const pattern = hostPattern(rule.pattern);
    const test = pattern ? hostRegExp(pattern) : undefined;
    const matched = test ? paths.filter((path) => test.test(hosted.get(path)!)) : [];
    for (const [name, value] of Object.entries(rule.headers)) {
      if (pattern && matched.length > 0 && matched.every(wants(name, value))) write(pattern, name, value, matched);
      else for (const [group, under] of byTopLevel) if (under.every(wants(name, value))) write(group, name, value, under);
    }
  }
  // What no pattern carries (a page's CSP, a twin's Link): a rule for the path itself.
  for (const [path, headers] of wanted) {
    for (const [name, value] of Object.entries(headers)) if (!written.get(path)!.has(name)) write(hosted.get(path)!, name, value, [path]);
  }

  checkHeaderBlocks(blocks, wanted, hosted);
  const text = [...blocks].map(([pattern, headers]) => [pattern, ...Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`)].join('\n'));
  return `${generated}\n\n${text.join('\n\n')}\n`;
}

/** Every path gets exactly what it wants from the rules a host would match, each header from one rule. */
function checkHeaderBlocks(blocks: Map<string, HeaderMap>, wanted: Map<string, HeaderMap>, hosted: Map<string, string>): void {
  const splats = [...blocks].filter(([pattern]) => pattern.includes('*')).map(([pattern, headers]) => ({ test: hostRegExp(pattern), headers }));
  for (const [path, headers] of wanted) {
    const exact = blocks.get(hosted.get(path)!);
    const applied = [...(exact ? [exact] : []), ...splats.filter(({ test }) => test.test(hosted.get(path)!)).map((splat) => splat.headers)];
    const names = applied.flatMap((block) => Object.keys(block));
    const got = Object.assign({}, ...applied) as HeaderMap;
    if (new Set(names).size !== names.length || names.length !== Object.keys(headers).length || names.some((name) => got[name] !== headers[name])) {
      throw new Error(`_headers cannot give ${path} exactly its headers: wanted ${JSON.stringify(headers)}, a host would send ${JSON.stringify(applied)}`);
    }
  }
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
