import { request } from 'node:http';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePath, sitePathOf } from '../../src/http/site-paths.ts';
import { buildSite, copyFixtureContent } from '../support/build.ts';
import { writeFixtureDist } from '../support/fixture-dist.ts';
import { startBuiltSite, type BuiltSite } from '../support/site.ts';

// A static host serving dist/ with the build's `_headers` and `_redirects` sends what the Node
// server sends: both files read as Netlify and Cloudflare Pages read them (every matching
// `_headers` rule applies, a header two rules name gets both values), compared with the server's
// answers for every file of dist/, over the fixture dist/ and a real build of the fixture site.

/** Headers the server takes from the rules manifest, which a host must send the same. */
const policyHeaders = ['cache-control', 'content-security-policy', 'referrer-policy', 'x-content-type-options', 'link'];

interface HeaderRule {
  pattern: RegExp;
  headers: Array<[string, string]>;
}

function parseHeadersFile(text: string): HeaderRule[] {
  const rules: HeaderRule[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    if (/^\s/.test(line)) {
      const colon = line.indexOf(':');
      rules.at(-1)!.headers.push([line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()]);
    } else {
      const source = line
        .trim()
        .split('*')
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*');
      rules.push({ pattern: new RegExp(`^${source}$`), headers: [] });
    }
  }
  return rules;
}

/** What a host adds to the response for this (encoded) path. */
function hostHeaders(rules: HeaderRule[], path: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const rule of rules.filter(({ pattern }) => pattern.test(path))) {
    for (const [name, value] of rule.headers) headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return headers;
}

function parseRedirectsFile(text: string): Array<{ from: string; to: string; status: number }> {
  return text
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'))
    .map((line) => {
      const [from, to, status] = line.trim().split(/\s+/);
      return { from: from!, to: to!, status: Number(status) };
    });
}

function get(origin: string, path: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const url = new URL(origin);
    const req = request({ host: url.hostname, port: url.port, path }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** URL paths of the files the server serves (the 404 bodies, precompressed siblings and the rule files are not). */
async function servedPaths(distDir: string): Promise<string[]> {
  const files = new Set<string>();
  for (const dirent of await readdir(distDir, { recursive: true, withFileTypes: true })) {
    if (dirent.isFile()) files.add(relative(distDir, join(dirent.parentPath, dirent.name)).split(sep).join('/'));
  }
  const unserved = new Set(['_surface.json', '_headers', '_redirects', '404.html', '404.md']);
  return [...files].filter((file) => !unserved.has(file) && !/\.(br|gz)$/.test(file)).map((file) => encodePath(sitePathOf(file)));
}

interface ServedDist {
  distDir: string;
  remove(): Promise<void>;
}

async function fixtureDist(): Promise<ServedDist> {
  const fixture = await writeFixtureDist();
  return { distDir: fixture.distDir, remove: () => rm(fixture.root, { recursive: true, force: true }) };
}

async function builtFixtureSite(): Promise<ServedDist> {
  const fixture = await copyFixtureContent();
  const result = await buildSite({ contentDir: fixture.content, outDir: join(fixture.dir, 'dist'), cacheDir: join(fixture.dir, 'cache') });
  if (result.code !== 0) throw new Error(`fixture build failed:\n${result.output}`);
  return { distDir: result.outDir, remove: () => rm(fixture.dir, { recursive: true, force: true }) };
}

describe.each([
  ['the fixture dist/', fixtureDist],
  ['a build of the fixture site', builtFixtureSite],
])('%s', (_name, makeDist) => {
  let dist: ServedDist;
  let distDir: string;
  let server: BuiltSite;

  beforeAll(async () => {
    dist = await makeDist();
    distDir = dist.distDir;
    server = await startBuiltSite({ distDir });
  });

  afterAll(async () => {
    await server?.stop();
    await dist?.remove();
  });

  it('_headers gives every file the headers the server sends, each from one rule', async () => {
    const rules = parseHeadersFile(await readFile(join(distDir, '_headers'), 'utf8'));
    const paths = await servedPaths(distDir);
    expect(paths.length).toBeGreaterThan(10);
    for (const path of paths) {
      const served = await get(server.origin, path);
      expect(served.status, path).toBe(200);
      const host = hostHeaders(rules, path);
      for (const [name, value] of Object.entries(host)) expect(served.headers[name], `${path}: ${name}`).toBe(value);
      for (const name of policyHeaders) expect(host[name], `${path}: ${name}`).toBe(served.headers[name]);
    }
  });

  it('_redirects sends every other spelling of a page where the server sends it, and nothing else', async () => {
    const redirects = parseRedirectsFile(await readFile(join(distDir, '_redirects'), 'utf8'));
    expect(redirects.length).toBeGreaterThan(0);
    for (const { from, to, status } of redirects) {
      const served = await get(server.origin, from);
      expect([served.status, served.headers.location], from).toEqual([status, to]);
    }
    const written = new Set(redirects.map(({ from }) => from));
    for (const path of await servedPaths(distDir)) {
      if (!String((await get(server.origin, path)).headers['content-type']).startsWith('text/html')) continue;
      const spellings = path.endsWith('/') ? [path.slice(0, -1), `${path}index.html`].filter(Boolean) : [`${path}/`, `${path}.html`];
      for (const spelling of spellings) {
        if ((await get(server.origin, spelling)).status === 308) expect(written, spelling).toContain(spelling);
      }
    }
  });
});
