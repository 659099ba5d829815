import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/open.ts';
import type { AggregatePrice } from '../../../src/prices/aggregate.ts';
import type { Observation } from '../../../src/prices/observation.ts';
import { fail, ok } from '../../../src/prices/result.ts';
import type { SampleResult } from '../../../src/prices/sample.ts';
import { currentPrices, pricePoints, recordSample } from '../../../src/prices/store.ts';
import { databaseEngines } from '../../support/postgres.ts';

// Prices in the database on both engines (docs/prices.md#history): a round's observations, current aggregates
// and interval points written together; a boundary's first point kept; a failed round recorded as why.

const T0 = Date.UTC(2026, 10, 23, 10, 0, 0);
const MIN = 60_000;
const observation = (value: string, observedAt: number): Observation => ({
  source: { kind: 'oracle', id: 'oracle:devnet:0xfeed' },
  symbol: 'FORGE',
  currency: 'usd',
  value,
  observedAt,
});
const priced = (value: string, observedAt: number): SampleResult => {
  const used = [observation(value, observedAt)];
  const aggregate: AggregatePrice = { value, observedAt, used, dropped: [] };
  return { observations: used, skipped: [], prices: new Map([['FORGE', ok(aggregate)]]) };
};

describe.each(databaseEngines())('the price store on $name', (engine) => {
  let database: Database;
  beforeAll(async () => {
    database = await engine.open();
  });
  afterAll(async () => {
    await database?.close();
  });

  it('keeps the latest aggregate current, and the first aggregate of each 5m, 1h and 1d boundary as its point', async () => {
    await recordSample(database.db, priced('2.5', T0 - 1000), T0 + 10_000);
    await recordSample(database.db, priced('2.6', T0 + 2 * MIN), T0 + 2 * MIN + 10_000);
    await recordSample(database.db, priced('2.7', T0 + 6 * MIN), T0 + 6 * MIN + 10_000);
    const current = (await currentPrices(database.db, ['FORGE'])).get('FORGE')!;
    expect(current).toMatchObject({ value: '2.7', observed_at: T0 + 6 * MIN, error: null, sampled_at: T0 + 6 * MIN + 10_000 });
    expect(await pricePoints(database.db, 'FORGE', '5m', T0 - 3_600_000, T0 + 3_600_000)).toEqual([
      { bucketStart: T0, value: '2.5' },
      { bucketStart: T0 + 5 * MIN, value: '2.7' },
    ]);
    expect(await pricePoints(database.db, 'FORGE', '1h', T0 - 3_600_000, T0 + 3_600_000)).toEqual([{ bucketStart: T0, value: '2.5' }]);
    expect(await pricePoints(database.db, 'FORGE', '1d', Date.UTC(2026, 10, 23), T0)).toEqual([{ bucketStart: Date.UTC(2026, 10, 23), value: '2.5' }]);
    // Outside the range: nothing.
    expect(await pricePoints(database.db, 'FORGE', '5m', T0 + MIN, T0 + 4 * MIN)).toEqual([]);
  });

  it('records an observation once however many rounds see it, and a round with no fresh source as its reason, keeping the points', async () => {
    const again = priced('2.7', T0 + 6 * MIN);
    await recordSample(database.db, again, T0 + 7 * MIN);
    const rows = await database.db.selectFrom('price_observations').select(['value', 'observed_at']).where('symbol', '=', 'FORGE').execute();
    expect(rows.length).toBe(3);
    await recordSample(
      database.db,
      { observations: [], skipped: [], prices: new Map([['FORGE', fail('no-fresh-source', 'no fresh price: oracle:devnet:0xfeed stale')]]) },
      T0 + 8 * MIN,
    );
    const current = await currentPrices(database.db, ['FORGE', 'NOPE']);
    expect(current.get('FORGE')).toMatchObject({ value: null, observed_at: null, error: 'no fresh price: oracle:devnet:0xfeed stale' });
    expect(current.has('NOPE')).toBe(false);
    expect((await pricePoints(database.db, 'FORGE', '5m', T0, T0 + 10 * MIN)).length).toBe(2);
  });

  it('leaves nothing of a round whose write fails', async () => {
    const bad = priced('2.8', T0 + 20 * MIN);
    // SLAG's aggregate has no value: its point breaks NOT NULL after FORGE's rows were written in the same transaction.
    bad.prices.set('SLAG', ok({ value: null as unknown as string, observedAt: T0, used: [], dropped: [] }));
    await expect(recordSample(database.db, bad, T0 + 20 * MIN)).rejects.toThrow();
    expect((await currentPrices(database.db, ['FORGE'])).get('FORGE')!.sampled_at).toBe(T0 + 8 * MIN);
    expect((await pricePoints(database.db, 'FORGE', '5m', T0 + 20 * MIN, T0 + 20 * MIN)).length).toBe(0);
    expect((await database.db.selectFrom('price_observations').select('value').where('symbol', '=', 'FORGE').execute()).length).toBe(3);
  });
});
