import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFixtureDist, type FixtureDist } from '../../support/fixture-dist.ts';
import { startBuiltSite } from '../../support/site.ts';

// The pages and the server share one Turnstile site key and action and one NODE_DOMAIN: a server
// whose configuration differs from what its built pages carry refuses to start, naming the variable.

let fixture: FixtureDist;
beforeAll(async () => {
  fixture = await writeFixtureDist();
  const manifestFile = join(fixture.distDir, '_surface.json');
  const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as Record<string, unknown>;
  manifest.environment = { siteOrigin: 'https://crucible.test', turnstileSiteKey: null, turnstileAction: 'faucet-send' };
  await writeFile(manifestFile, JSON.stringify(manifest));
});
afterAll(async () => {
  if (fixture) await rm(fixture.root, { recursive: true, force: true });
});

describe('a built site and its faucet configuration', () => {
  it('refuses to serve faucet pages built for another widget action', async () => {
    const started = startBuiltSite({ distDir: fixture.distDir, env: { TURNSTILE_ACTION: '' } });
    await expect(started).rejects.toThrow(/TURNSTILE_ACTION is null, but the pages in the built site were built with "faucet-send"/);
  });

  it('refuses to serve pages built for another NODE_DOMAIN (their node URLs would send people elsewhere)', async () => {
    const started = startBuiltSite({ distDir: fixture.distDir, env: { TURNSTILE_ACTION: 'faucet-send', NODE_DOMAIN: 'node.example.com' } });
    await expect(started).rejects.toThrow(/NODE_DOMAIN is "node.example.com", but the pages in the built site were built with null/);
  });

  it('serves them when the action is the one they were built with', async () => {
    const site = await startBuiltSite({
      distDir: fixture.distDir,
      // The action is checked against Turnstile's answer, so it comes with a Turnstile secret.
      env: { TURNSTILE_ACTION: 'faucet-send', TURNSTILE_SECRET_KEY: 'test-secret', TURNSTILE_SITEVERIFY_URL: 'http://127.0.0.1:9/siteverify' },
    });
    try {
      expect((await fetch(`${site.origin}/`)).status).toBe(200);
    } finally {
      await site.stop();
    }
  });
});
