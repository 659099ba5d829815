import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTurnstileVerifier } from '../../../src/faucet/captcha.ts';
import { NON_PUBLIC_ADDRESSES } from '../../../src/net/blocked-addresses.ts';
import { safeFetch } from '../../../src/nfts/safe-fetch.ts';
import { createExchangeHttp } from '../../../src/prices/exchanges/http.ts';
import { ok } from '../../../src/prices/result.ts';
import { openSqliteStore } from '../../../src/store/sqlite.ts';
import { postDelivery } from '../../../src/webhooks/post.ts';

// Every outbound HTTP client of the platform goes through src/net/: each one's request arrives
// with the layer's own mark (it asks for no compression: `accept-encoding: identity`), a body
// over its cap is refused while it streams, and where a caller guards addresses, the layer's
// guard refuses the same IPv6 form of loopback for each of them.

let server: Server;
let origin: string;
const seen: Array<{ path: string; headers: IncomingHttpHeaders }> = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push({ path: request.url ?? '', headers: request.headers });
    request.resume();
    if (request.url === '/huge') {
      // Chunked and endless: only a cap read as it streams ends it.
      response.writeHead(200, { 'content-type': 'application/json' });
      const write = () => {
        while (!response.destroyed && response.write(' '.repeat(16 * 1024)));
        if (!response.destroyed) response.once('drain', write);
      };
      response.on('error', () => undefined);
      return write();
    }
    const bodies: Record<string, string> = {
      '/siteverify': '{"success":true,"hostname":"localhost"}',
      // A siteverify answer that would pass but for its size.
      '/siteverify-padded': `{"success":true,"hostname":"localhost","padding":"${' '.repeat(100 * 1024)}"}`,
    };
    const body = bodies[request.url ?? ''] ?? '{"name":"x"}';
    response.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const nft = (path: string, blocked = false) =>
  safeFetch(new URL(path, origin), { timeoutMs: 10_000, maxBytes: 64 * 1024, blockedAddresses: blocked ? NON_PUBLIC_ADDRESSES : null });
const webhook = (url: string, blocked = false) =>
  postDelivery(url, '{}', { 'x-crucible-signature': 's' }, { timeoutMs: 10_000, blockedAddresses: blocked ? NON_PUBLIC_ADDRESSES : null });
const exchange = (path: string) => createExchangeHttp({ retryDelayMs: () => 1 }).get(new URL(path, origin), (body) => ok(body));
async function captcha(path: string) {
  const tokens = openSqliteStore(':memory:');
  try {
    const verifier = createTurnstileVerifier({
      secretKey: 'secret',
      siteverifyUrl: new URL(path, origin).href,
      expectedHostname: null,
      expectedAction: null,
      tokens,
    });
    return await verifier.verify({ token: 'token', remoteIp: null });
  } finally {
    await tokens.close();
  }
}

describe('every outbound client goes through the layer', () => {
  it('asks for no compression: the NFT fetcher, the webhook poster, the exchange client and the siteverify client', async () => {
    seen.length = 0;
    expect((await nft('/nft')).ok).toBe(true);
    expect(await webhook(`${origin}/webhook`)).toEqual({ ok: true, status: 200 });
    expect((await exchange('/exchange')).ok).toBe(true);
    expect(await captcha('/siteverify')).toEqual({ ok: true });
    expect(seen.map(({ path, headers }) => [path, headers['accept-encoding']])).toEqual([
      ['/nft', 'identity'],
      ['/webhook', 'identity'],
      ['/exchange', 'identity'],
      ['/siteverify', 'identity'],
    ]);
  });

  it('stops reading a body at each reader’s cap', async () => {
    expect(await nft('/huge')).toEqual({ ok: false, error: { code: 'too_large', reason: 'too large' } });
    expect(await exchange('/huge')).toMatchObject({
      ok: false,
      error: { code: 'garbage', message: expect.stringContaining('answered more than 1048576 bytes') },
    });
    // Cloudflare's answer is a few hundred bytes: one of 100 KiB is no answer.
    expect(await captcha('/siteverify-padded')).toEqual({ ok: false, unavailable: true });
  });

  it('refuses an IPv6 form of loopback through the same guard for the NFT fetcher and the webhook poster', async () => {
    const port = new URL(origin).port;
    seen.length = 0;
    expect(await nft(`http://[::ffff:0:7f00:1]:${port}/nft`, true)).toEqual({
      ok: false,
      error: { code: 'blocked_address', reason: 'blocked address ::ffff:0:7f00:1' },
    });
    expect(await webhook(`http://[::ffff:0:7f00:1]:${port}/webhook`, true)).toEqual({ ok: false, status: null, error: 'blocked address ::ffff:0:7f00:1' });
    expect(seen).toEqual([]);
  });
});
