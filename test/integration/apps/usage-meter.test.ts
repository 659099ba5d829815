import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createUsageMeter, type UsageMeter } from '../../../src/apps/usage-meter.ts';
import type { DatabaseLocation } from '../../../src/config/database.ts';
import { openDatabase, type Database } from '../../../src/db/open.ts';
import { databaseEngines } from '../../support/postgres.ts';

const MINUTE = 60_000;
/** 12:34:56.789 UTC on 15 March 2030. */
const AT = Date.UTC(2030, 2, 15, 12, 34, 56, 789);
const MINUTE_START = Date.UTC(2030, 2, 15, 12, 34);
const APP = 'app_0123456789abcdef';

describe.each(databaseEngines())('the usage meter on $name', (engine) => {
  let location: DatabaseLocation;
  let database: Database;
  let meter: UsageMeter;
  // Flushes happen when a test asks: the periodic one is set far out.
  const manual = { flushIntervalMs: 3_600_000 };

  beforeEach(async () => {
    location = await engine.location();
    database = await openDatabase(location);
    meter = createUsageMeter(database, manual);
  });
  afterEach(async () => {
    await meter.close();
    await database.close();
  });

  const storedMinutes = () => database.db.selectFrom('usage_minutes').selectAll().orderBy('network').orderBy('method').orderBy('minute').execute();

  it('sums requests per app, network, method and UTC minute, and errors by code', async () => {
    meter.record({ appId: APP, network: 'base-sepolia', method: 'eth_call', computeUnits: 26, at: AT });
    meter.record({ appId: APP, network: 'base-sepolia', method: 'eth_call', computeUnits: 26, errorCode: -32000, at: MINUTE_START });
    meter.record({ appId: APP, network: 'base-sepolia', method: 'eth_call', computeUnits: 26, errorCode: 3, at: AT + 1000 });
    meter.record({ appId: APP, network: 'base-sepolia', method: 'eth_blockNumber', computeUnits: 10, at: AT });
    meter.record({ appId: APP, network: 'base-sepolia', method: 'eth_call', computeUnits: 26, at: MINUTE_START + MINUTE });
    await meter.flush();
    expect(await storedMinutes()).toEqual([
      { app_id: APP, network: 'base-sepolia', method: 'eth_blockNumber', minute: MINUTE_START, requests: 1, compute_units: 10, errors: 0 },
      { app_id: APP, network: 'base-sepolia', method: 'eth_call', minute: MINUTE_START, requests: 3, compute_units: 78, errors: 2 },
      { app_id: APP, network: 'base-sepolia', method: 'eth_call', minute: MINUTE_START + MINUTE, requests: 1, compute_units: 26, errors: 0 },
    ]);
    expect(await database.db.selectFrom('usage_errors').selectAll().orderBy('code').execute()).toEqual([
      { app_id: APP, network: 'base-sepolia', code: -32000, minute: MINUTE_START, count: 1 },
      { app_id: APP, network: 'base-sepolia', code: 3, minute: MINUTE_START, count: 1 },
    ]);
  });

  it('adds each flush to what is stored', async () => {
    meter.record({ appId: APP, network: 'base-sepolia', method: 'eth_call', computeUnits: 26, errorCode: 429, at: AT });
    await meter.flush();
    meter.record({ appId: APP, network: 'base-sepolia', method: 'eth_call', computeUnits: 26, errorCode: 429, at: AT });
    await meter.flush();
    await meter.flush();
    expect(await storedMinutes()).toMatchObject([{ requests: 2, compute_units: 52, errors: 2 }]);
    expect(await database.db.selectFrom('usage_errors').select('count').execute()).toEqual([{ count: 2 }]);
  });

  it('counts two meters (two processes) adding to the same app and minute', async () => {
    // On PostgreSQL a second pool, as another process would have; a SQLite file is opened once per process.
    const other = engine.name === 'postgres' ? await openDatabase(location) : database;
    const second = createUsageMeter(other, manual);
    for (let i = 0; i < 50; i++) {
      meter.record({ appId: APP, network: 'base-sepolia', method: 'eth_call', computeUnits: 26, at: AT });
      second.record({ appId: APP, network: 'base-sepolia', method: 'eth_call', computeUnits: 26, errorCode: -32000, at: AT });
    }
    await Promise.all([meter.flush(), second.flush()]);
    await second.close();
    if (other !== database) await other.close();
    expect(await storedMinutes()).toMatchObject([{ requests: 100, compute_units: 2600, errors: 50 }]);
    expect(await meter.monthComputeUnits(APP, AT)).toBe(2600);
  });

  it('counts unflushed usage in the month total, and each unit once across a flush', async () => {
    meter.record({ appId: APP, network: 'base-sepolia', method: 'eth_call', computeUnits: 100, at: AT });
    await meter.flush();
    meter.record({ appId: APP, network: 'ink-sepolia', method: 'eth_call', computeUnits: 20, at: AT });
    meter.record({ appId: 'app_other', network: 'ink-sepolia', method: 'eth_call', computeUnits: 5, at: AT });
    expect(await meter.monthComputeUnits(APP, AT)).toBe(120);
    // Asked while a flush is under way, the answer is the same.
    const [during] = await Promise.all([meter.monthComputeUnits(APP, AT), meter.flush()]);
    expect(during).toBe(120);
    expect(await meter.monthComputeUnits(APP, AT)).toBe(120);
    expect(await meter.monthComputeUnits('app_other', AT)).toBe(5);
  });

  it('bounds the month by UTC calendar months', async () => {
    const lastMinuteOfFebruary = Date.UTC(2030, 2, 1) - 1;
    meter.record({ appId: APP, network: 'base-sepolia', method: 'eth_call', computeUnits: 7, at: lastMinuteOfFebruary });
    meter.record({ appId: APP, network: 'base-sepolia', method: 'eth_call', computeUnits: 11, at: Date.UTC(2030, 2, 1) });
    meter.record({ appId: APP, network: 'base-sepolia', method: 'eth_call', computeUnits: 13, at: Date.UTC(2030, 3, 1) });
    expect(await meter.monthComputeUnits(APP, AT)).toBe(11);
    await meter.flush();
    expect(await meter.monthComputeUnits(APP, AT)).toBe(11);
    expect(await meter.monthComputeUnits(APP, lastMinuteOfFebruary)).toBe(7);
    expect(await meter.monthComputeUnits(APP, Date.UTC(2030, 3, 30))).toBe(13);
  });

  it('keeps the usage of a failed flush for the next one, logging one line', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      meter.record({ appId: APP, network: 'base-sepolia', method: 'eth_call', computeUnits: 26, errorCode: 3, at: AT });
      // The database refuses the write: its table is not there.
      await database.db.schema.alterTable('usage_minutes').renameTo('usage_minutes_away').execute();
      await expect(meter.flush()).rejects.toThrow();
      expect(log).toHaveBeenCalledTimes(1);
      expect(JSON.parse(String(log.mock.calls[0]?.[0]))).toMatchObject({ level: 'error', component: 'usage-meter' });
      meter.record({ appId: APP, network: 'base-sepolia', method: 'eth_call', computeUnits: 26, at: AT });
      await database.db.schema.alterTable('usage_minutes_away').renameTo('usage_minutes').execute();
      expect(await meter.monthComputeUnits(APP, AT)).toBe(52);
      await meter.flush();
      expect(await storedMinutes()).toMatchObject([{ requests: 2, compute_units: 52, errors: 1 }]);
      expect(await database.db.selectFrom('usage_errors').select('count').execute()).toEqual([{ count: 1 }]);
      expect(await meter.monthComputeUnits(APP, AT)).toBe(52);
    } finally {
      log.mockRestore();
    }
  });

  it('stores what is left on close', async () => {
    meter.record({ appId: APP, network: 'base-sepolia', method: 'eth_call', computeUnits: 26, at: AT });
    await meter.close();
    expect(await storedMinutes()).toHaveLength(1);
  });

  it('counts a record of several calls alike (notifications charged together) as that many requests and errors', async () => {
    meter.record({ appId: APP, network: 'base-sepolia', method: 'eth_subscription', computeUnits: 40, calls: 4, at: AT });
    meter.record({ appId: APP, network: 'base-sepolia', method: 'eth_subscription', computeUnits: 10, at: AT });
    meter.record({ appId: APP, network: 'base-sepolia', method: 'eth_call', computeUnits: 78, calls: 3, errorCode: 3, at: AT });
    await meter.flush();
    expect(await storedMinutes()).toEqual([
      { app_id: APP, network: 'base-sepolia', method: 'eth_call', minute: MINUTE_START, requests: 3, compute_units: 78, errors: 3 },
      { app_id: APP, network: 'base-sepolia', method: 'eth_subscription', minute: MINUTE_START, requests: 5, compute_units: 50, errors: 0 },
    ]);
    expect(await database.db.selectFrom('usage_errors').select(['code', 'count']).execute()).toEqual([{ code: 3, count: 3 }]);
    expect(await meter.monthComputeUnits(APP, AT)).toBe(128);
  });

  it('refuses what the database could not store, before it reaches a flush', () => {
    const usage = { appId: APP, network: 'base-sepolia', method: 'eth_call', at: AT };
    expect(() => meter.record({ ...usage, computeUnits: -1 })).toThrow(RangeError);
    expect(() => meter.record({ ...usage, computeUnits: 1.5 })).toThrow(RangeError);
    expect(() => meter.record({ ...usage, computeUnits: 1, errorCode: 2 ** 40 })).toThrow(RangeError);
    expect(() => meter.record({ ...usage, computeUnits: 10, calls: 0 })).toThrow(RangeError);
    expect(() => meter.record({ ...usage, computeUnits: 10, calls: 2.5 })).toThrow(RangeError);
  });

  it('stores a made-up method name without NUL characters and cut to 128 characters', async () => {
    meter.record({ appId: APP, network: 'base-sepolia', method: `eth_\u0000${'x'.repeat(200)}`, computeUnits: 0, errorCode: -32601, at: AT });
    await meter.flush();
    expect(await storedMinutes()).toMatchObject([{ method: `eth_${'x'.repeat(124)}` }]);
  });

  it('gives usage over time by minute, hour or day, per network and method', async () => {
    const hour = Date.UTC(2030, 2, 15, 12);
    const record = (network: string, method: string, at: number, computeUnits: number, errorCode: number | null = null) =>
      meter.record({ appId: APP, network, method, computeUnits, errorCode, at });
    record('base-sepolia', 'eth_call', hour + 5 * MINUTE, 26);
    record('base-sepolia', 'eth_call', hour + 50 * MINUTE, 26, 3);
    record('base-sepolia', 'eth_getLogs', hour + 61 * MINUTE, 75);
    record('ink-sepolia', 'eth_call', hour + 61 * MINUTE, 26);
    record('base-sepolia', 'eth_call', hour + 10 * 60 * MINUTE, 26);
    meter.record({ appId: 'app_other', network: 'base-sepolia', method: 'eth_call', computeUnits: 26, at: hour });
    await meter.flush();

    const day = Date.UTC(2030, 2, 15);
    expect(await meter.usageSeries(APP, { from: day, to: day + 86_400_000, bucket: 'hour' })).toEqual([
      { start: hour, network: 'base-sepolia', method: 'eth_call', requests: 2, computeUnits: 52, errors: 1 },
      { start: hour + 60 * MINUTE, network: 'base-sepolia', method: 'eth_getLogs', requests: 1, computeUnits: 75, errors: 0 },
      { start: hour + 60 * MINUTE, network: 'ink-sepolia', method: 'eth_call', requests: 1, computeUnits: 26, errors: 0 },
      { start: hour + 10 * 60 * MINUTE, network: 'base-sepolia', method: 'eth_call', requests: 1, computeUnits: 26, errors: 0 },
    ]);
    expect(await meter.usageSeries(APP, { from: day, to: day + 2 * 86_400_000, bucket: 'day' })).toEqual([
      { start: day, network: 'base-sepolia', method: 'eth_call', requests: 3, computeUnits: 78, errors: 1 },
      { start: day, network: 'base-sepolia', method: 'eth_getLogs', requests: 1, computeUnits: 75, errors: 0 },
      { start: day, network: 'ink-sepolia', method: 'eth_call', requests: 1, computeUnits: 26, errors: 0 },
    ]);
    const minutes = await meter.usageSeries(APP, { from: hour, to: hour + 60 * MINUTE, bucket: 'minute' });
    expect(minutes.map((point) => point.start)).toEqual([hour + 5 * MINUTE, hour + 50 * MINUTE]);
  });
});
