import { sql } from 'kysely';
import type { Database } from '../db/open.ts';
import type { UsageErrorRow, UsageMinuteRow } from '../db/schema.ts';
import { redactUrls } from '../log/redact.ts';
import { readUsageSeries, type UsagePoint, type UsageSeriesOptions } from './usage-series.ts';

// The usage meter (docs/keys-and-limits.md#usage-metering): every request the gateway answers is recorded in memory, summed
// per app, network, method and UTC minute, and added to the database every few seconds. Adding
// (an upsert that sums) rather than writing totals lets many processes meter the same app and
// minute. What is recorded is kept until a flush stores it: a failed flush is retried with the
// next one, so nothing recorded is lost while the process lives.

interface UsageRecord {
  appId: string;
  network: string;
  method: string;
  computeUnits: number;
  /** The JSON-RPC or HTTP error code the request was answered with; absent or null: it succeeded. */
  errorCode?: number | null;
  /** How many requests alike this record stands for (notifications charged together), `computeUnits` being their sum; default 1. */
  calls?: number;
  /** When it was answered, ms since the epoch; default now. */
  at?: number;
}

export interface UsageMeter {
  /** Counts one request (or `calls` alike), in memory: synchronous and cheap, for the request path. */
  record(usage: UsageRecord): void;
  /** Compute units of the app in the UTC calendar month of `at`: stored by every process, plus this one's not yet stored. */
  monthComputeUnits(appId: string, at?: number): Promise<number>;
  /** The app's stored usage over time (usage-series.ts). */
  usageSeries(appId: string, options: UsageSeriesOptions): Promise<UsagePoint[]>;
  /** Stores everything recorded before the call; rejects (keeping it for the next flush) when the database refuses. */
  flush(): Promise<void>;
  /** Stops the periodic flush and stores what is left. */
  close(): Promise<void>;
}

export interface UsageMeterOptions {
  flushIntervalMs?: number;
  now?: () => number;
}

/** Rows per INSERT: well under SQLite's and PostgreSQL's limits on bound parameters. */
const ROWS_PER_STATEMENT = 500;
const MINUTE_MS = 60_000;
const MAX_INTEGER_COLUMN = 2 ** 31 - 1;
/** Longer network or method names (a client's made-up method) are cut: they name nothing the dashboard lists. */
const MAX_NAME_LENGTH = 128;

type MinuteSums = Pick<UsageMinuteRow, 'app_id' | 'network' | 'method' | 'minute' | 'requests' | 'compute_units' | 'errors'>;

/** What was recorded since the last flush. */
class Pending {
  readonly minutes = new Map<string, MinuteSums>();
  readonly errors = new Map<string, UsageErrorRow>();
  /** Compute units by app and month start, for monthComputeUnits without a scan. */
  readonly months = new Map<string, number>();

  get empty(): boolean {
    return this.minutes.size === 0;
  }

  /** Adds one minute's sums; the request path calls it once per call, so nothing is allocated for a minute already held. */
  add(appId: string, network: string, method: string, minute: number, requests: number, computeUnits: number, errors: number): void {
    const key = minuteKey(appId, network, method, minute);
    const entry = this.minutes.get(key);
    if (entry) {
      entry.requests += requests;
      entry.compute_units += computeUnits;
      entry.errors += errors;
    } else this.minutes.set(key, { app_id: appId, network, method, minute, requests, compute_units: computeUnits, errors });
    const month = monthKey(appId, monthStart(minute));
    this.months.set(month, (this.months.get(month) ?? 0) + computeUnits);
  }

  addError(row: UsageErrorRow): void {
    const key = minuteKey(row.app_id, row.network, String(row.code), row.minute);
    const entry = this.errors.get(key);
    if (entry) entry.count += row.count;
    else this.errors.set(key, { ...row });
  }

  /** Takes back what a failed flush could not store. */
  merge(other: Pending): void {
    for (const sums of other.minutes.values()) this.add(sums.app_id, sums.network, sums.method, sums.minute, sums.requests, sums.compute_units, sums.errors);
    for (const row of other.errors.values()) this.addError(row);
  }
}

export function createUsageMeter(database: Database, options: UsageMeterOptions = {}): UsageMeter {
  const { db } = database;
  const now = options.now ?? Date.now;
  let pending = new Pending();
  let flushing: Promise<void> | null = null;
  /** Counts flushes begun, so a month total can tell that one overlapped its query. */
  let flushesBegun = 0;

  const write = async (batch: Pending): Promise<void> => {
    // One order for every process, so two transactions upserting the same rows cannot deadlock.
    const minutes = [...batch.minutes.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, row]) => row);
    const errors = [...batch.errors.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, row]) => row);
    await db.transaction().execute(async (trx) => {
      for (const chunk of chunks(minutes)) {
        await trx
          .insertInto('usage_minutes')
          .values(chunk)
          .onConflict((conflict) =>
            conflict.columns(['app_id', 'network', 'method', 'minute']).doUpdateSet((eb) => ({
              requests: eb('usage_minutes.requests', '+', eb.ref('excluded.requests')),
              compute_units: eb('usage_minutes.compute_units', '+', eb.ref('excluded.compute_units')),
              errors: eb('usage_minutes.errors', '+', eb.ref('excluded.errors')),
            })),
          )
          .execute();
      }
      for (const chunk of chunks(errors)) {
        await trx
          .insertInto('usage_errors')
          .values(chunk)
          .onConflict((conflict) =>
            conflict.columns(['app_id', 'network', 'code', 'minute']).doUpdateSet((eb) => ({ count: eb('usage_errors.count', '+', eb.ref('excluded.count')) })),
          )
          .execute();
      }
    });
  };

  const flush = async (): Promise<void> => {
    while (flushing) await flushing.catch(() => undefined);
    if (pending.empty) return;
    const batch = pending;
    pending = new Pending();
    flushesBegun++;
    flushing = write(batch)
      .catch((error: unknown) => {
        pending.merge(batch);
        const cause = redactUrls(error instanceof Error ? error.message : String(error));
        console.error(JSON.stringify({ level: 'error', component: 'usage-meter', message: 'storing usage failed; it is kept for the next flush', cause }));
        throw error;
      })
      .finally(() => {
        flushing = null;
      });
    await flushing;
  };

  const timer = setInterval(() => void flush().catch(() => undefined), options.flushIntervalMs ?? 5000);
  timer.unref();

  return {
    record({ appId, network, method, computeUnits, errorCode = null, calls = 1, at = now() }) {
      // A value the database would refuse would fail every later flush with it: refused here instead.
      if (!Number.isSafeInteger(computeUnits) || computeUnits < 0) throw new RangeError(`computeUnits must be a whole number from 0 (got ${computeUnits})`);
      if (!Number.isSafeInteger(calls) || calls < 1) throw new RangeError(`calls must be a whole number from 1 (got ${calls})`);
      if (errorCode !== null && !(Number.isInteger(errorCode) && Math.abs(errorCode) <= MAX_INTEGER_COLUMN)) {
        throw new RangeError(`errorCode must be a whole number within 32 bits (got ${errorCode})`);
      }
      const minute = at - (at % MINUTE_MS);
      const failed = errorCode !== null;
      const networkName = storable(network);
      pending.add(appId, networkName, storable(method), minute, calls, computeUnits, failed ? calls : 0);
      if (failed) pending.addError({ app_id: appId, network: networkName, code: errorCode, minute, count: calls });
    },

    async monthComputeUnits(appId, at = now()) {
      const from = monthStart(at);
      const to = nextMonthStart(at);
      // Each unflushed sum is counted once: from memory, or (once its flush is done) from the
      // database; a flush that overlaps the query makes it ask again.
      for (;;) {
        if (flushing) {
          await flushing.catch(() => undefined);
          continue;
        }
        const begun = flushesBegun;
        const row = await db
          .selectFrom('usage_minutes')
          .select(sql<number | string | null>`sum(compute_units)`.as('total'))
          .where('app_id', '=', appId)
          .where('minute', '>=', from)
          .where('minute', '<', to)
          .executeTakeFirst();
        if (flushesBegun === begun) return Number(row?.total ?? 0) + (pending.months.get(monthKey(appId, from)) ?? 0);
      }
    },

    usageSeries: (appId, seriesOptions) => readUsageSeries(db, appId, seriesOptions),

    flush,

    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}

/** PostgreSQL text holds no NUL character; a name with one is stored without it. */
function storable(name: string): string {
  return name.length <= MAX_NAME_LENGTH && !name.includes('\u0000') ? name : name.replaceAll('\u0000', '').slice(0, MAX_NAME_LENGTH);
}

function minuteKey(appId: string, network: string, method: string, minute: number): string {
  return `${appId}\u0000${network}\u0000${method}\u0000${minute}`;
}

function monthKey(appId: string, month: number): string {
  return `${appId}\u0000${month}`;
}

/** The last month computed: every call of a month asks for the same one. */
let knownMonth = { from: 0, until: 0 };

function monthStart(at: number): number {
  if (at >= knownMonth.from && at < knownMonth.until) return knownMonth.from;
  knownMonth = { from: monthStartOf(at), until: nextMonthStart(at) };
  return knownMonth.from;
}

function monthStartOf(at: number): number {
  const date = new Date(at);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}

function nextMonthStart(at: number): number {
  const date = new Date(at);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}

function* chunks<T>(rows: T[]): Generator<T[]> {
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) yield rows.slice(i, i + ROWS_PER_STATEMENT);
}
