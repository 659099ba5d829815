import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { coinbaseTicker } from '../../../src/prices/exchanges/coinbase-client.ts';
import { createExchangeHttp, type ExchangeHttpOptions } from '../../../src/prices/exchanges/http.ts';
import { refusingPort } from '../../support/free-port.ts';
import { answerJson, type ExchangeServer, fixture, startExchangeServer } from './exchange-server.ts';

// The HTTP side of the exchange clients against a real local server misbehaving as exchanges and the
// networks in front of them do: silence, garbage, server errors, rate limits, refused connections, huge
// bodies. Each case is a product of its own (`/products/<case>-USD/ticker`) and a client of its own, so
// that one case's backoff does not touch another's. The clock of backoffs is injected; the one real wait
// is the short timeout given, and no test asserts a duration.

const NOW = Date.parse('2026-01-01T00:00:00Z');
const SECOND = 1000;
const TIMEOUT_MS = 300;

let server: ExchangeServer;
let now = NOW;
/** Requests per product so far. */
const count = new Map<string, number>();

function misbehave(product: string, nth: number, response: ServerResponse) {
  const ticker = fixture('coinbase-ticker.json');
  switch (product) {
    case 'SILENT':
      return; // no answer at all
    case 'STALLS':
      response.writeHead(200, { 'content-type': 'application/json' }).write('{"price":'); // the rest never comes
      return;
    case 'HTML':
      return response.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Bad gateway</body></html>');
    case 'TRUNCATED':
      return answerJson(response, 200, ticker.slice(0, ticker.length / 2));
    case 'SHAPE':
      return answerJson(response, 200, '{"bid":"6265.15","ask":"6267.71"}');
    case 'FLAKY':
      return nth === 1 ? answerJson(response, 500, '{"message":"Internal server error"}') : answerJson(response, 200, ticker);
    case 'DOWN':
      return answerJson(response, 503, '<html>down</html>');
    case 'LIMITED':
      return nth === 1 ? answerJson(response, 429, '{"message":"Public rate limit exceeded"}', { 'retry-after': '120' }) : answerJson(response, 200, ticker);
    case 'BURST':
      return nth === 1 ? answerJson(response, 429, '{"message":"Public rate limit exceeded"}') : answerJson(response, 200, ticker);
    case 'GONE':
      return response.writeHead(404, { 'content-type': 'text/html' }).end('<html>Not here</html>');
    case 'HUGE':
      return answerJson(response, 200, `{"padding":"${'x'.repeat(1024 * 1024)}"}`);
    case 'ENDLESS': {
      // Chunked, no length: writes until the client goes away.
      response.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const write = () => {
        while (!response.destroyed && response.write(chunk));
        if (!response.destroyed) response.once('drain', write);
      };
      response.on('error', () => {});
      return write();
    }
    default:
      return answerJson(response, 200, ticker);
  }
}

beforeAll(async () => {
  server = await startExchangeServer((url, response) => {
    const product = /^\/products\/([A-Z]+)-USD\/ticker$/.exec(url.pathname)?.[1] ?? '';
    const nth = (count.get(product) ?? 0) + 1;
    count.set(product, nth);
    misbehave(product, nth, response);
  });
});

afterAll(() => server.close());

beforeEach(() => {
  now = NOW;
  count.clear();
});

/** A client of its own asking for the ticker of `<product>-USD` at `base`. */
function tickerOf(product: string, options: ExchangeHttpOptions = {}, base = server.origin) {
  const http = createExchangeHttp({ now: () => now, timeoutMs: TIMEOUT_MS, retryDelayMs: () => 1, ...options });
  return () => coinbaseTicker(http, { symbol: product, productId: `${product}-USD` }, base);
}

describe('failures as values', () => {
  it('a server that never answers: timeout, not retried, then backing off', async () => {
    const ask = tickerOf('SILENT');
    expect(await ask()).toEqual({
      ok: false,
      error: { code: 'timeout', message: `${new URL(server.origin).host}/products/SILENT-USD/ticker did not answer within 300 ms` },
    });
    expect(count.get('SILENT')).toBe(1);
    expect(await ask()).toMatchObject({ ok: false, error: { code: 'backing-off', until: NOW + 30 * SECOND } });
    expect(count.get('SILENT')).toBe(1);
  });

  it('a body that stops coming: timeout', async () => {
    expect(await tickerOf('STALLS')()).toMatchObject({ ok: false, error: { code: 'timeout' } });
  });

  it('HTML, truncated JSON, the wrong shape: garbage', async () => {
    expect(await tickerOf('HTML')()).toEqual({
      ok: false,
      error: { code: 'garbage', message: 'Coinbase /products/HTML-USD/ticker answered something that is not JSON: "<html><body>Bad gateway</body></html>"' },
    });
    expect(await tickerOf('TRUNCATED')()).toMatchObject({ ok: false, error: { code: 'garbage' } });
    expect(await tickerOf('SHAPE')()).toEqual({
      ok: false,
      error: {
        code: 'garbage',
        message: 'Coinbase /products/SHAPE-USD/ticker answered an unexpected shape: price Invalid input: expected string, received undefined',
      },
    });
  });

  it('a body over the size cap: garbage, whether its length is declared or not', async () => {
    const host = new URL(server.origin).host;
    expect(await tickerOf('HUGE')()).toEqual({
      ok: false,
      error: { code: 'garbage', message: `${host}/products/HUGE-USD/ticker answered more than 1048576 bytes` },
    });
    expect(await tickerOf('ENDLESS', { maxBytes: 256 * 1024 })()).toEqual({
      ok: false,
      error: { code: 'garbage', message: `${host}/products/ENDLESS-USD/ticker answered more than 262144 bytes` },
    });
    // The same bodies fit a larger cap.
    expect(await tickerOf('HUGE', { maxBytes: 2 * 1024 * 1024 })()).toMatchObject({
      ok: false,
      error: { code: 'garbage', message: expect.stringContaining('price') },
    });
  });

  it('connection refused: network', async () => {
    const dead = await refusingPort();
    try {
      const closed = `http://127.0.0.1:${dead.port}`;
      expect(await tickerOf('X', {}, closed)()).toEqual({
        ok: false,
        error: { code: 'network', message: `${new URL(closed).host}/products/X-USD/ticker: connection refused` },
      });
    } finally {
      await dead.release();
    }
  });

  it('a 4xx without the exchange’s words: http-status, not retried, no backoff', async () => {
    const ask = tickerOf('GONE');
    const gone = { ok: false, error: { code: 'http-status', status: 404, retryable: false } };
    expect(await ask()).toMatchObject(gone);
    expect(await ask()).toMatchObject(gone);
    expect(count.get('GONE')).toBe(2);
  });
});

describe('retries within a call', () => {
  it('a 500 then a 200: the one retry succeeds', async () => {
    const ask = tickerOf('FLAKY');
    expect(await ask()).toMatchObject({ ok: true, value: { value: '6268.48' } });
    expect(count.get('FLAKY')).toBe(2);
    // The host answered in the end: no backoff.
    expect(await ask()).toMatchObject({ ok: true });
    expect(count.get('FLAKY')).toBe(3);
  });

  it('a 429 with no Retry-After then a 200: retried', async () => {
    expect(await tickerOf('BURST')()).toMatchObject({ ok: true, value: { value: '6268.48' } });
    expect(count.get('BURST')).toBe(2);
  });

  it('5xx twice: http-status after one retry, then backing off 30 s, then 60 s', async () => {
    const ask = tickerOf('DOWN');
    expect(await ask()).toMatchObject({ ok: false, error: { code: 'http-status', status: 503, retryable: true } });
    expect(count.get('DOWN')).toBe(2);
    now += 29 * SECOND;
    expect(await ask()).toMatchObject({ ok: false, error: { code: 'backing-off', until: NOW + 30 * SECOND } });
    now = NOW + 30 * SECOND;
    expect(await ask()).toMatchObject({ ok: false, error: { code: 'http-status' } });
    expect(count.get('DOWN')).toBe(4);
    expect(await ask()).toMatchObject({ ok: false, error: { code: 'backing-off', until: NOW + 90 * SECOND } });
  });
});

describe('rate limits', () => {
  it('a 429 with Retry-After: rate-limited, not asked again until then, then asked again', async () => {
    const ask = tickerOf('LIMITED');
    expect(await ask()).toEqual({
      ok: false,
      error: {
        code: 'rate-limited',
        message: `${new URL(server.origin).host}/products/LIMITED-USD/ticker answered HTTP 429, Retry-After 120 s`,
        status: 429,
        retryAfterMs: 120 * SECOND,
      },
    });
    expect(count.get('LIMITED')).toBe(1);
    now = NOW + 120 * SECOND - 1;
    expect(await ask()).toMatchObject({ ok: false, error: { code: 'backing-off', until: NOW + 120 * SECOND } });
    expect(count.get('LIMITED')).toBe(1);
    now = NOW + 120 * SECOND;
    expect(await ask()).toMatchObject({ ok: true, value: { value: '6268.48' } });
    expect(count.get('LIMITED')).toBe(2);
  });
});
