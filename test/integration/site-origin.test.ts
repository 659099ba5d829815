import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { surfaceManifestFile } from '../../src/http/surface-manifest.ts';
import { buildEnvironment } from '../../src/config/build-environment.ts';
import { environmentChange } from '../../src/server/build-freshness.ts';
import { buildSite, copyFixtureContent } from '../support/build.ts';
import { startBuiltSite, type BuiltSite } from '../support/site.ts';
import { reservePort } from '../support/free-port.ts';

// `PORT=<n> npm start` without SITE_URL: the fixture site is built for http://127.0.0.1:<n> (the
// address the server listens on by default) and served there, so its canonical links, search icons
// and CSP name the origin it is served at; and `npm start` keeps that build for the same PORT and
// HOST and rebuilds it for another.

let scratch: string;
let dist: string;
let port: number;
let server: BuiltSite;
const siteOrigin = () => `http://127.0.0.1:${port}`;

beforeAll(async () => {
  // The build names the port: it is held through the build, so nothing else takes it before the server listens.
  const reserved = await reservePort();
  port = reserved.port;
  const fixture = await copyFixtureContent();
  scratch = fixture.dir;
  // The build reads PORT and HOST as `npm start` hands them on; an empty SITE_URL is unset.
  const saved = { PORT: process.env.PORT, HOST: process.env.HOST };
  Object.assign(process.env, { PORT: String(port), HOST: '127.0.0.1' });
  try {
    const result = await buildSite({ contentDir: fixture.content, outDir: join(scratch, 'dist'), cacheDir: join(scratch, 'cache'), siteUrl: '' });
    if (result.code !== 0) throw new Error(`fixture build failed:\n${result.output}`);
    dist = result.outDir;
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await reserved.release();
  }
  server = await startBuiltSite({ distDir: dist, env: { PORT: String(port) } });
});

afterAll(async () => {
  await server?.stop();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('a site built and served on a non-default port', () => {
  it('links its pages canonically at that origin', async () => {
    const html = await (await fetch(`${server.origin}/`)).text();
    expect(/<link rel="canonical" href="([^"]*)">/.exec(html)?.[1]).toBe(`${siteOrigin()}/`);
  });

  it('lists its pages in llms.txt, and names each twin’s url, at that origin', async () => {
    const llms = await (await fetch(`${server.origin}/llms.txt`)).text();
    const links = [...llms.matchAll(/\]\((https?:\/\/[^)]+)\)/g)].map((match) => match[1]!);
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(link.startsWith(`${siteOrigin()}/`), link).toBe(true);
    const twin = await (await fetch(`${server.origin}/blog/hello-agents.md`)).text();
    expect(twin).toMatch(new RegExp(`^url: ${siteOrigin().replaceAll('.', '\\.')}/blog/hello-agents$`, 'm'));
  });

  it('gives app icons in the search JSON at that origin', async () => {
    const groups = (await (await fetch(`${server.origin}/api/search/en`)).json()) as Array<{ items: Array<{ icon?: string }> }>;
    const icons = groups.flatMap((group) => group.items.flatMap((item) => (item.icon ? [item.icon] : [])));
    expect(icons.length).toBeGreaterThan(0);
    for (const icon of icons) expect(icon.startsWith(`${siteOrigin()}/`), icon).toBe(true);
  });

  it('allows images from that origin in the CSP', async () => {
    const policy = (await fetch(`${server.origin}/`)).headers.get('content-security-policy') ?? '';
    const imgSrc = policy.split('; ').find((directive) => directive.startsWith('img-src '));
    expect(imgSrc?.split(' ')).toContain(siteOrigin());
  });
});

describe("npm start's rebuild decision over that build", () => {
  const marker = () => join(dist, surfaceManifestFile);

  it('keeps it while the environment gives the same origin', async () => {
    expect(await environmentChange(marker(), buildEnvironment({ PORT: String(port), HOST: '127.0.0.1' }))).toBeNull();
  });

  it('rebuilds for another PORT, naming the origin built for and the one wanted', async () => {
    expect(await environmentChange(marker(), buildEnvironment({ PORT: '8080' }))).toBe(
      `siteOrigin was ${siteOrigin()} at the last build, now http://127.0.0.1:8080`,
    );
  });

  it('rebuilds for another HOST on the same PORT: IPv6 loopback, or every interface (linked as localhost)', async () => {
    expect(await environmentChange(marker(), buildEnvironment({ PORT: String(port), HOST: '::1' }))).toBe(
      `siteOrigin was ${siteOrigin()} at the last build, now http://[::1]:${port}`,
    );
    expect(await environmentChange(marker(), buildEnvironment({ PORT: String(port), HOST: '0.0.0.0' }))).toBe(
      `siteOrigin was ${siteOrigin()} at the last build, now http://localhost:${port}`,
    );
  });
});
