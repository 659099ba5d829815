import { readFileSync } from 'node:fs';
import { Alchemy, HistoricalPriceInterval } from 'alchemy-sdk';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadAppKeySecret } from '../../../src/apps/key-secret.ts';
import { createAppStore } from '../../../src/apps/store.ts';
import { WORLD_ADDRESSES } from '../../../src/chain/world/manifest.ts';
import { swapOnWorldPool } from '../../../src/chain/world/swap.ts';
import { openDatabase } from '../../../src/db/open.ts';
import { createResponseValidator, type ResponseValidator } from '../../support/openapi-validator.ts';
import { startWorldSite, type WorldSite } from '../../support/world-site.ts';
import { startExchangeServer, type ExchangeServer } from './exchange-server.ts';

// Prices end to end through the production server in local mode, as `npm start` runs it (platform
// §7): the devnet's world pools and feeds sampled every second, Coinbase and Kraken asked through
// local stand-ins (Coinbase's documented ticker body with its time set to now and its price made
// wildly off; Kraken answering an HTML error page), the answers checked against /openapi.json and
// read with alchemy-sdk 3.6.5 as the incumbent's clients read them.

/** What the endpoints answer, loosely: each test reads the fields its endpoint has (the OpenAPI check is exact). */
interface Item {
  symbol: string;
  network: string;
  address: string;
  prices: Array<{ currency: string; value: string; lastUpdatedAt: string }>;
  error: { message: string } | null;
  value: string;
  timestamp: string;
}
interface Answer {
  data: Item[];
  error: { code: string; message: string };
  [field: string]: unknown;
}

let site: WorldSite;
let key: string;
let coinbase: ExchangeServer;
let kraken: ExchangeServer;
let validator: ResponseValidator;

const coinbaseTicker = JSON.parse(readFileSync('test/unit/prices/fixtures/coinbase-ticker.json', 'utf8')) as Record<string, string>;
const WORLD_SYMBOLS = ['ETH', 'WETH', 'cUSD', 'FORGE', 'EMBR', 'SLAG'];

const pricesUrl = (apiKey = key) => `${site.origin}/prices/v1/${apiKey}`;

async function call(method: 'GET' | 'POST', path: string, body?: unknown, apiKey = key) {
  const response = await fetch(`${pricesUrl(apiKey)}${path}`, {
    method,
    headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as Answer;
  const template = `/prices/v1/{apiKey}${path.split('?')[0]}`;
  const checked = validator.check(method, template, response.status, response.headers.get('content-type'), json);
  expect(checked.errors, JSON.stringify(json)).toEqual([]);
  return { status: response.status, json };
}

const bySymbol = (symbols: string[]) => call('GET', `/tokens/by-symbol?${symbols.map((symbol) => `symbols=${encodeURIComponent(symbol)}`).join('&')}`);
const priceOf = async (symbol: string) => {
  const { json } = await bySymbol([symbol]);
  return json.data[0]?.prices[0]?.value;
};

beforeAll(async () => {
  coinbase = await startExchangeServer((url, response) => {
    if (url.pathname !== '/products/ETH-USD/ticker') return response.writeHead(404).end('{"message":"NotFound"}');
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...coinbaseTicker, price: '30000', time: new Date().toISOString() }));
  });
  kraken = await startExchangeServer((_url, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>'));
  site = await startWorldSite({
    env: { PRICES_SAMPLE_SECONDS: '1', PRICES_EXCHANGES: 'coinbase,kraken', PRICES_COINBASE_URL: coinbase.origin, PRICES_KRAKEN_URL: kraken.origin },
    prepare: async (databasePath) => {
      const database = await openDatabase({ engine: 'sqlite', path: databasePath });
      const apps = createAppStore(database, {
        keySecret: await loadAppKeySecret({ engine: 'sqlite', path: databasePath, appKeySecret: null }),
        networks: ['ethereum-sepolia'],
      });
      ({ key } = await apps.create({ name: 'prices server test' }));
      await database.close();
    },
  });
  validator = createResponseValidator(await (await fetch(`${site.origin}/openapi.json`)).json());
  await vi.waitFor(async () => expect((await bySymbol(WORLD_SYMBOLS)).json.data.every((item) => item.prices.length === 1)).toBe(true), {
    timeout: 120_000,
    interval: 500,
  });
});

afterAll(async () => {
  await site?.stop();
  await coinbase?.close();
  await kraken?.close();
});

describe('current prices through the production server', () => {
  it("prices the local world's tokens from its pools and feeds, in dollars", async () => {
    const { status, json } = await bySymbol(WORLD_SYMBOLS);
    expect(status).toBe(200);
    const values = Object.fromEntries(json.data.map((item) => [item.symbol, item.prices[0]?.value]));
    // Seeds and feed answers of the world's price layer: cUSD 1.00 (feed); FORGE 2.5 in cUSD (pool) and 2.50 (feed);
    // ETH and WETH 3000 (feed and pool); EMBR 1.2 cUSD; SLAG 0.1 FORGE.
    expect(values).toEqual({ ETH: '3000', WETH: '3000', cUSD: '1', FORGE: '2.5', EMBR: '1.2', SLAG: '0.25' });
    for (const item of json.data) {
      expect(item.error).toBeNull();
      const [price] = item.prices;
      expect(price?.currency).toBe('usd');
      expect(Date.now() - Date.parse(price!.lastUpdatedAt)).toBeLessThan(600_000);
    }
  });

  it('drops the exchange that is wildly off as an outlier, and prices on without the one that answers garbage', async () => {
    expect(coinbase.seen.some((request) => request.url.pathname === '/products/ETH-USD/ticker')).toBe(true);
    expect(kraken.seen.some((request) => request.url.pathname === '/0/public/Ticker')).toBe(true);
    expect(await priceOf('ETH')).toBe('3000');
    // What the last round recorded of ETH's sources (the answer alone could not tell: a median of three ignores one).
    const database = await openDatabase({ engine: 'sqlite', path: site.databasePath });
    try {
      const row = await database.db.selectFrom('price_current').select('sources').where('symbol', '=', 'ETH').executeTakeFirstOrThrow();
      const sources = JSON.parse(row.sources) as { used: string[]; dropped: Array<{ id: string; reason: string }> };
      expect(sources.used.sort()).toEqual([expect.stringMatching(/^oracle:ethereum-sepolia:/), expect.stringMatching(/^uniswap-v2:ethereum-sepolia:/)]);
      expect(sources.dropped).toContainEqual({ id: 'coinbase:ETH-USD', reason: 'outlier' });
      expect(sources.dropped).toContainEqual({ id: 'kraken:XETHZUSD', reason: expect.stringMatching(/./) });
    } finally {
      await database.close();
    }
  });

  it('answers an unknown symbol as an item error in a 200, matches symbols in any case, and refuses 26 symbols', async () => {
    const { status, json } = await bySymbol(['eth', 'NOPE']);
    expect(status).toBe(200);
    expect(json.data[0]).toMatchObject({ symbol: 'ETH', error: null });
    expect(json.data[1]).toEqual({ symbol: 'NOPE', prices: [], error: { message: "No price for NOPE: it is not in Crucible's price list." } });
    const many = await bySymbol(Array.from({ length: 26 }, (_, i) => `T${i}`));
    expect(many.status).toBe(400);
    expect(many.json.error.message).toContain('at most 25');
    const none = await call('GET', '/tokens/by-symbol');
    expect(none.status).toBe(400);
  });

  it('prices world contracts by address on a local devnet, and says which are unknown', async () => {
    const { status, json } = await call('POST', '/tokens/by-address', {
      addresses: [
        { network: 'ethereum-sepolia', address: WORLD_ADDRESSES.forge },
        { network: 'ethereum-sepolia', address: WORLD_ADDRESSES.relics },
        { network: 'no-such-net', address: WORLD_ADDRESSES.forge },
      ],
    });
    expect(status).toBe(200);
    expect(json.data[0]).toMatchObject({ network: 'ethereum-sepolia', address: WORLD_ADDRESSES.forge, error: null });
    const [forge, relics, elsewhere] = json.data;
    expect(forge?.prices[0]?.value).toMatch(/^\d/);
    expect(relics?.prices).toEqual([]);
    expect(relics?.error?.message).toContain('not in Crucible');
    expect(elsewhere?.error?.message).toContain('there is no network no-such-net');
  });

  it('refuses an unknown key with the Error body, and never logs the key', async () => {
    const unknown = await call('GET', '/tokens/by-symbol?symbols=ETH', undefined, 'not-a-key');
    expect(unknown.status).toBe(401);
    expect(unknown.json.error.code).toBe('unauthorized');
    // The request's line is written when its response closes, and reaches this process a moment later.
    const refusedLine = (line: string) => line.includes('/prices/v1/<key>/tokens/by-symbol') && line.includes('"status":401');
    await vi.waitFor(() => expect(site.logLines().some(refusedLine)).toBe(true), { timeout: 30_000, interval: 50 });
    expect(site.logLines().some((line) => line.includes(key))).toBe(false);
  });
});

describe('a swap on a local pool', () => {
  it('moves the AMM quote, and the aggregate, within a sampling period or two', async () => {
    const before = Number(await priceOf('EMBR'));
    const swap = await swapOnWorldPool(`${site.origin}/node/${site.network}/v2/demo`, { pool: 'ember-cusd', sell: 'ember', amount: '5000' });
    expect(swap.after).not.toEqual(swap.before);
    // EMBR's only source is its pool: selling EMBR into it lowers its price.
    await vi.waitFor(async () => expect(Number(await priceOf('EMBR'))).toBeLessThan(before), { timeout: 30_000, interval: 250 });
  });
});

describe('historical prices', () => {
  const range = () => ({ startTime: new Date(Date.now() - 86_400_000).toISOString(), endTime: new Date(Date.now() + 60_000).toISOString() });

  it('answers at 5m, 1h and 1d with points at interval boundaries, oldest first', async () => {
    for (const interval of ['5m', '1h', '1d']) {
      const { status, json } = await call('POST', '/tokens/historical', { symbol: 'FORGE', interval, ...range() });
      expect(status, interval).toBe(200);
      expect(json.symbol).toBe('FORGE');
      expect(json.currency).toBe('usd');
      expect(json.data.length, interval).toBeGreaterThan(0);
      const size = { '5m': 300_000, '1h': 3_600_000, '1d': 86_400_000 }[interval]!;
      for (const point of json.data) expect(Date.parse(point.timestamp) % size).toBe(0);
      const times = json.data.map((point) => Date.parse(point.timestamp));
      expect(times).toEqual([...times].sort((x, y) => x - y));
    }
  });

  it('takes unix seconds and network+address, and defaults to 1d', async () => {
    const { status, json } = await call('POST', '/tokens/historical', {
      network: 'ethereum-sepolia',
      address: WORLD_ADDRESSES.forge,
      startTime: Math.floor(Date.now() / 1000) - 86_400,
      endTime: Math.floor(Date.now() / 1000) + 60,
    });
    expect(status).toBe(200);
    expect(json).toMatchObject({ network: 'ethereum-sepolia', address: WORLD_ADDRESSES.forge, currency: 'usd' });
    expect(json.data.length).toBe(1);
  });

  it('refuses start after end, a range over the cap, a bad interval, unparseable times and an unknown symbol', async () => {
    const cases: Array<[unknown, number, string]> = [
      [{ symbol: 'FORGE', startTime: '2026-08-02T00:00:00Z', endTime: '2026-08-01T00:00:00Z' }, 400, 'is after endTime'],
      [{ symbol: 'FORGE', startTime: '2026-01-01T00:00:00Z', endTime: '2026-01-09T00:00:00Z', interval: '5m' }, 400, 'longer than 7 days'],
      [{ symbol: 'FORGE', startTime: '2025-01-01T00:00:00Z', endTime: '2026-03-01T00:00:00Z' }, 400, 'longer than 1 year'],
      [{ symbol: 'FORGE', startTime: '2026-08-01T00:00:00Z', endTime: '2026-08-02T00:00:00Z', interval: '2h' }, 400, 'interval'],
      [{ symbol: 'FORGE', startTime: 'last tuesday', endTime: '2026-08-02T00:00:00Z' }, 400, 'startTime "last tuesday" is not a time'],
      [{ symbol: 'FORGE', network: 'ethereum-sepolia', address: WORLD_ADDRESSES.forge, startTime: 0, endTime: 1 }, 400, 'not both'],
      [{ symbol: 'NOPE', startTime: '2026-08-01T00:00:00Z', endTime: '2026-08-02T00:00:00Z' }, 404, 'NOPE is not in'],
    ];
    for (const [body, status, message] of cases) {
      const answer = await call('POST', '/tokens/historical', body);
      expect(answer.status, JSON.stringify(body)).toBe(status);
      expect(answer.json.error.message, JSON.stringify(body)).toContain(message);
    }
  });
});

describe('alchemy-sdk 3.6.5 with only its url changed', () => {
  const sdk = () => new Alchemy({ url: pricesUrl() });

  it('getTokenPriceBySymbol, getTokenPriceByAddress and getHistoricalPriceBySymbol', async () => {
    const bySymbolAnswer = await sdk().prices.getTokenPriceBySymbol(['ETH', 'cUSD']);
    expect(bySymbolAnswer.data.map((item) => [item.symbol, item.prices[0]?.value])).toEqual([
      ['ETH', '3000'],
      ['cUSD', '1'],
    ]);
    const byAddressAnswer = await sdk().prices.getTokenPriceByAddress([{ network: 'ethereum-sepolia' as never, address: WORLD_ADDRESSES.cusd }]);
    expect(byAddressAnswer.data[0]?.prices[0]?.value).toBe('1');
    const history = await sdk().prices.getHistoricalPriceBySymbol(
      'cUSD',
      Date.now() / 1000 - 3600,
      new Date(Date.now() + 60_000).toISOString(),
      HistoricalPriceInterval.FIVE_MINUTE,
    );
    expect(history).toMatchObject({ symbol: 'cUSD', currency: 'usd' });
    expect(history.data.at(-1)?.value).toBe('1');
  });
});
