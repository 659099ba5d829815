import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { numberToHex } from 'viem';
import { readDatabaseConfig } from '../../src/config/database.ts';
import { readIndexerConfig } from '../../src/config/indexer.ts';
import { openDatabase } from '../../src/db/open.ts';
import { FOLLOWED_TOPICS } from '../../src/indexer/events.ts';
import { createTransferIndexer, type IndexerLogEntry } from '../../src/indexer/indexer.ts';
import { initialRangeSize, rangeAfterAnswer } from '../../src/indexer/range-size.ts';
import { rpc } from './json-rpc.ts';

// One side of the indexer benchmark in a process of its own (its memory is its own, and nothing
// the fill left behind is in its heap), backfilling blocks 0..head of the filled anvil:
//   --side bare: eth_getLogs over the range with the indexer's topic filter, in the ranges the
//     indexer's own range-size rule picks (start at 100 blocks, double under half the log cap,
//     halve over it), one call at a time, each answer parsed and counted: the node's limit;
//   --side indexer: createTransferIndexer with the production defaults on a fresh database.
// Memory is sampled every 500 ms; one JSON line with the result goes to stdout.

export interface SideSample {
  ms: number;
  rss: number;
  heapUsed: number;
  /** Logs read (bare) or transfers ingested (indexer) when sampled. */
  done: number;
}

export interface SideResult {
  seconds: number;
  /** Logs read (bare) or transfers ingested (indexer). */
  items: number;
  samples: SideSample[];
  peakRssBytes: number;
  /** CPU time of this process over the timed part (user + system), ms. */
  cpuMs: number;
  /** The timed part on the machine's monotonic clock, µs (where `node --cpu-prof` samples count). */
  window: [number, number];
  /** Bare: the block count of each eth_getLogs range. */
  ranges: number[];
  /** Indexer: the first block whose internal transfers it recorded (anvil could not trace the ones before: it kept no state of them). */
  internalFromBlock?: number | null;
  errors: string[];
}

const { values: args } = parseArgs({
  options: {
    side: { type: 'string' },
    rpc: { type: 'string' },
    head: { type: 'string' },
    chain: { type: 'string' },
    sqlite: { type: 'string' },
    postgres: { type: 'string' },
  },
});
const rpcUrl = args.rpc!;
const head = Number(args.head);
// The settings the indexer runs with when nothing is configured: one source for both sides.
const config = readIndexerConfig({}, [{ id: 'bench' }]);
const limits = { maxBlocks: config.maxBlockRange, maxLogs: config.maxLogsPerRange };

let done = 0;
const samples: SideSample[] = [];
const started = performance.now();
const sample = () => {
  const { rss, heapUsed } = process.memoryUsage();
  samples.push({ ms: Math.round(performance.now() - started), rss, heapUsed, done });
};
sample();
const sampler = setInterval(sample, 500);

type Timed = Omit<SideResult, 'samples' | 'peakRssBytes'>;
/** CPU time used since `from` (a process.cpuUsage() reading), ms. */
const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);
const cpuSince = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
};
/** The indexer has this long to reach the head; a stuck run fails rather than hangs. */
const TIMEOUT_MS = 30 * 60_000;

const result: Timed = args.side === 'bare' ? await bare() : await indexer();
clearInterval(sampler);
sample();
process.stdout.write(`${JSON.stringify({ ...result, samples, peakRssBytes: process.resourceUsage().maxRSS * 1024 } satisfies SideResult)}\n`);

async function bare(): Promise<Timed> {
  const ranges: number[] = [];
  let size = initialRangeSize(limits);
  const t0 = performance.now();
  const w0 = monotonicMicros();
  const cpu0 = process.cpuUsage();
  for (let from = 0; from <= head; ) {
    const to = Math.min(head, from + size.blocks - 1);
    const logs = await rpc<unknown[]>(rpcUrl, 'eth_getLogs', [{ topics: [FOLLOWED_TOPICS], fromBlock: numberToHex(from), toBlock: numberToHex(to) }]);
    done += logs.length;
    ranges.push(to - from + 1);
    size = rangeAfterAnswer(size, logs.length, limits);
    from = to + 1;
  }
  return { seconds: (performance.now() - t0) / 1000, items: done, cpuMs: cpuSince(cpu0), window: [w0, monotonicMicros()], ranges, errors: [] };
}

async function indexer(): Promise<Timed> {
  // SQLite as `npm start` opens it (its settings' defaults).
  const database = await openDatabase(args.postgres ? { engine: 'postgres', url: args.postgres } : readDatabaseConfig({ DATABASE_PATH: args.sqlite! }));
  const errors: string[] = [];
  const running = createTransferIndexer({
    // The settings as `npm start` reads them (its network list and URLs are not the benchmark's).
    ...config,
    db: database.db,
    networks: [{ id: 'bench', rpcUrl, chainId: Number(args.chain) }],
    log: (entry: IndexerLogEntry) => {
      if (entry.level === 'error') errors.push(`${entry.message}: ${String(entry.cause)}`);
    },
  });
  const t0 = performance.now();
  const w0 = monotonicMicros();
  const cpu0 = process.cpuUsage();
  running.start();
  let progress = running.progress()[0]!;
  while (progress.indexedBlock !== head) {
    if (performance.now() - t0 > TIMEOUT_MS) throw new Error(`not at block ${head} after ${TIMEOUT_MS / 60_000} min: ${errors.join('; ')}`);
    await sleep(5);
    progress = running.progress()[0]!;
    done = progress.transfersIngested;
  }
  const seconds = (performance.now() - t0) / 1000;
  const window: [number, number] = [w0, monotonicMicros()];
  const cpuMs = cpuSince(cpu0);
  await running.stop();
  const stored = await database.db
    .selectFrom('indexer_transfers')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  const checkpoint = await database.db.selectFrom('indexer_checkpoints').select('internal_from_block').executeTakeFirstOrThrow();
  await database.close();
  if (Number(stored.count) !== done) errors.push(`${stored.count} transfers stored, ${done} counted as ingested`);
  return { seconds, items: done, cpuMs, window, ranges: [], errors, internalFromBlock: checkpoint.internal_from_block };
}
