import { rm } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FaucetHandlers } from '../../src/faucet/api/operations.ts';
import { createSiteApi } from '../../src/runtime/site-api.ts';
import { createServerLogger } from '../../src/server/log.ts';
import { createSiteServer, listen } from '../../src/server/server.ts';
import { openStaticSite } from '../../src/server/static-site.ts';
import { loadSurfaceRules } from '../../src/server/surface-rules.ts';
import { writeFixtureDist, type FixtureDist } from '../support/fixture-dist.ts';

// The server's parts in-process over a fixture dist/: streaming of large files and the
// one-line-per-request log.

/** The document and the routes tested here do not reach the faucet. */
const unusedFaucet: FaucetHandlers = {
  send: () => {
    throw new Error('the faucet is not part of this test');
  },
  status: () => {
    throw new Error('the faucet is not part of this test');
  },
};

let fixture: FixtureDist;
beforeAll(async () => {
  fixture = await writeFixtureDist();
});
afterAll(async () => {
  if (fixture) await rm(fixture.root, { recursive: true, force: true });
});

describe('openStaticSite', () => {
  it('streams files over the memory limit from disk with the same strong ETag', async () => {
    const rules = await loadSurfaceRules(fixture.distDir);
    const cached = await openStaticSite(fixture.distDir, rules);
    const streamed = await openStaticSite(fixture.distDir, rules, { maxCachedFileBytes: 100 });
    const request = { method: 'GET', path: '/llms-full.txt', query: '' };
    const a = await cached.reply(request);
    const b = await streamed.reply(request);
    expect(Buffer.isBuffer(a.body)).toBe(true);
    expect(b.body).toEqual({ file: `${fixture.distDir}/llms-full.txt` });
    expect(b.headers.etag).toBe(a.headers.etag);
    expect(b.headers['content-length']).toBe((a.body as Buffer).byteLength);
  });

  it('refuses to open a dist/ without the rules manifest', async () => {
    await expect(loadSurfaceRules(fixture.root)).rejects.toThrow(/_surface\.json is missing: build the site first/);
  });
});

describe('request log', () => {
  const serve = async (requests: boolean) => {
    const lines: string[] = [];
    const stdout = new Writable({
      write: (chunk, _encoding, done) => {
        lines.push(String(chunk));
        done();
      },
    });
    const rules = await loadSurfaceRules(fixture.distDir);
    const api = createSiteApi({ origin: rules.site, networks: [{ id: 'ethereum-sepolia' }], faucet: unusedFaucet });
    const server = createSiteServer({
      site: await openStaticSite(fixture.distDir, rules),
      router: api.router,
      origin: rules.site,
      trustProxy: { mode: 'none' },
      logger: createServerLogger({ requests, stdout, stderr: stdout }),
    });
    const url = await listen(server, 0, '127.0.0.1');
    return { url, lines, close: () => new Promise((resolve) => server.close(resolve)) };
  };

  it('writes one structured line per request', async () => {
    const { url, lines, close } = await serve(true);
    try {
      for (const path of ['/', '/api/ip', '/nope.md?x=1']) await (await fetch(new URL(path, url))).arrayBuffer();
      await vi.waitFor(() => expect(lines).toHaveLength(3), { timeout: 10_000, interval: 20 });
      const records = lines.map((line) => JSON.parse(line));
      expect(records.map((r) => [r.msg, r.method, r.path, r.status])).toEqual([
        ['request', 'GET', '/', 200],
        ['request', 'GET', '/api/ip', 200],
        ['request', 'GET', '/nope.md', 404],
      ]);
      for (const record of records) {
        expect(record.durationMs).toBeTypeOf('number');
        expect(record.requestId).toMatch(/^[0-9a-f-]{36}$/);
        expect(record.time).toMatch(/^\d{4}-\d\d-\d\dT/);
      }
      expect(new Set(records.map((r) => r.requestId)).size).toBe(3);
    } finally {
      await close();
    }
  });

  it('stays quiet when request lines are off', async () => {
    const { url, lines, close } = await serve(false);
    try {
      await (await fetch(url)).arrayBuffer();
      expect(lines).toEqual([]);
    } finally {
      await close();
    }
  });
});
