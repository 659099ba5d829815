import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../src/db/open.ts';
import { backfillHistory } from '../../../src/prices/backfill.ts';
import { createExchangeHttp } from '../../../src/prices/exchanges/http.ts';
import { createExchangeSource } from '../../../src/prices/exchanges/source.ts';
import { pricePoints, recordHistory } from '../../../src/prices/store.ts';
import { startExchangeServer, type ExchangeServer } from './exchange-server.ts';

// History filled from exchange candles (docs/prices.md#history) in a real SQLite file: Coinbase candles from a
// local stand-in speaking its documented `/products/{id}/candles` protocol (rows `[time, low, high,
// open, close, volume]`, newest first, at most 300 a request), Kraken answering an HTML error page.

const DAY = 86_400;
const closeAt = (t: number) => 2000 + ((t / DAY) % 7);
let coinbase: ExchangeServer;
let kraken: ExchangeServer;
let database: Database;
let folder: string;

function candles(url: URL, response: ServerResponse) {
  const granularity = Number(url.searchParams.get('granularity'));
  const start = Date.parse(url.searchParams.get('start')!) / 1000;
  const end = Date.parse(url.searchParams.get('end')!) / 1000;
  const rows = [];
  for (let t = Math.ceil(start / granularity) * granularity; t <= end && t < Date.now() / 1000; t += granularity) rows.push([t, 1, 3000, 2, closeAt(t), 10]);
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(rows.reverse()));
}

beforeAll(async () => {
  coinbase = await startExchangeServer((url, response) =>
    url.pathname === '/products/ETH-USD/candles' ? candles(url, response) : response.writeHead(404).end('{"message":"NotFound"}'),
  );
  kraken = await startExchangeServer((_url, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<html>down</html>'));
  folder = await mkdtemp(join(tmpdir(), 'crucible-backfill-'));
  database = await openDatabase({ engine: 'sqlite', path: join(folder, 'crucible.sqlite') });
});

afterAll(async () => {
  await database?.close();
  await coinbase?.close();
  await kraken?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('backfillHistory', () => {
  it('fills a year of days, 30 days of hours and 7 days of 5 minutes from candle closes, keeping points already there', async () => {
    const now = Date.now();
    const today = Math.floor(now / 1000 / DAY) * DAY * 1000;
    // A point the sampler recorded yesterday is not overwritten by the exchange's close.
    await recordHistory(
      database.db,
      [],
      [{ symbol: 'ETH', interval: '1d', bucket_start: today - DAY * 1000, value: '1234', observed_at: today - DAY * 1000 }],
      now,
    );
    const http = createExchangeHttp({ retryDelayMs: () => 1 });
    const markets = [
      createExchangeSource({ exchange: 'coinbase', product: 'ETH-USD' }, 'ETH', { http, baseUrls: { coinbase: coinbase.origin } }),
      createExchangeSource({ exchange: 'kraken', pair: 'XETHZUSD' }, 'ETH', { http, baseUrls: { kraken: kraken.origin } }),
    ];
    const result = await backfillHistory({ db: database.db, markets, now, madThreshold: 3 });
    expect(result.failed.map((failure) => [failure.source, failure.interval])).toEqual([
      ['kraken:XETHZUSD', '1d'],
      ['kraken:XETHZUSD', '1h'],
      ['kraken:XETHZUSD', '5m'],
    ]);
    const days = await pricePoints(database.db, 'ETH', '1d', now - 366 * DAY * 1000, now);
    expect(days.length).toBeGreaterThanOrEqual(364);
    const yesterday = days.find((point) => point.bucketStart === today - DAY * 1000)!;
    expect(yesterday.value).toBe('1234');
    // A candle's close is the price at its end: the day that ended at `today` closed at closeAt(today - DAY).
    expect(days.find((point) => point.bucketStart === today)?.value).toBe(String(closeAt(today / 1000 - DAY)));
    expect((await pricePoints(database.db, 'ETH', '1h', now - 30 * DAY * 1000, now)).length).toBeGreaterThan(29 * 24);
    expect((await pricePoints(database.db, 'ETH', '5m', now - 7 * DAY * 1000, now)).length).toBeGreaterThan(7 * 288 - 2);
    // A second run adds nothing.
    expect((await backfillHistory({ db: database.db, markets: markets.slice(0, 1), now, madThreshold: 3 })).points).toBe(0);
  });
});
