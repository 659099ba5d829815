import { sql, type Kysely } from 'kysely';
import type { Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseLocation } from '../../../src/config/database.ts';
import type { DatabaseSchema } from '../../../src/db/schema.ts';
import { openDatabase, type Database } from '../../../src/db/open.ts';
import { readCheckpoint } from '../../../src/indexer/checkpoints.ts';
import { startRpcProxy, startTestAnvil, type TestAnvil } from '../../support/anvil.ts';
import { databaseEnv, killHard, startWorkerProcess, until, type WorkerProcess } from '../../support/crash.ts';
import { indexSnapshot } from '../../support/index-snapshot.ts';
import { databaseEngines } from '../../support/postgres.ts';
import { writeTokenHistory, type TokenHistory } from '../../support/token-history.ts';

// `npm run worker -- indexer` killed (SIGKILL) twice in the middle of a backfill, each time once the
// index's checkpoint has passed a block (30%, then 70% into the blocks with transfers), and started
// again on the same database until it reaches the head: the index then equals, row by row, the
// index a worker builds from scratch of the same chain in a database of its own. The node is
// reached through a proxy that holds every range starting past a gate beyond the kill point, so a
// killed worker cannot have finished the backfill; the kill lands wherever the worker is. On
// PostgreSQL the second kill lands inside a step's transaction, held there by a table lock.

const NETWORK = 'crucible-testnet';
/** Small ranges and steps, so the backfill takes many transactions; a short lease, so a restarted worker leads soon after a kill. */
const SETTINGS = {
  INDEXER_NETWORKS: NETWORK,
  INDEXER_MAX_BLOCK_RANGE: '2',
  INDEXER_REORG_WINDOW: '4',
  INDEXER_BLOCKS_PER_STEP: '2',
  INDEXER_POLL_INTERVAL_MS: '50',
  INDEXER_LEASE_MS: '1500',
};

let anvil: TestAnvil;
let history: TokenHistory;
beforeAll(async () => {
  anvil = await startTestAnvil({ chainId: 7357001 });
  history = await writeTokenHistory(anvil.client, { blocks: 40, emptyBlocks: 30 });
});
afterAll(async () => {
  await anvil?.stop();
});

/** Resolves once the checkpoint is the chain's head block, by number and hash. */
async function indexedToHead(db: Kysely<DatabaseSchema>): Promise<void> {
  const head = await anvil.client.getBlock({ blockNumber: BigInt(history.head) });
  await until(`the index at the head (${history.head})`, async () => {
    const checkpoint = await readCheckpoint(db, NETWORK);
    return checkpoint?.block?.number === history.head && checkpoint.block.hash.toLowerCase() === (head.hash as Hex).toLowerCase();
  });
}

describe.each(databaseEngines())('indexer worker killed mid-backfill on $name', (engine) => {
  it('leaves, after restarts, the index a fresh worker builds of the same chain', async () => {
    const stops: Array<() => Promise<unknown>> = [];
    const worker = (location: DatabaseLocation, upstream: string) => {
      const started: WorkerProcess = startWorkerProcess('indexer', { ...databaseEnv(location), ...SETTINGS, NODE_UPSTREAMS_CRUCIBLE_TESTNET: upstream });
      stops.push(() => killHard(started.child));
      return started;
    };
    try {
      // Migrated before any worker starts, and read beside them while they write.
      const location = await engine.location();
      const database: Database = await openDatabase(location);
      stops.push(() => database.close());

      let gate = Number.POSITIVE_INFINITY;
      let reopen!: () => void;
      let held = new Promise<void>((resolve) => (reopen = resolve));
      const proxy = await startRpcProxy(anvil.rpcUrl, async (call) => {
        const fromBlock = call.method === 'eth_getLogs' ? (call.params[0] as { fromBlock?: Hex }).fromBlock : undefined;
        if (fromBlock === undefined || Number(fromBlock) <= gate) return undefined;
        await held;
        return 'drop';
      });
      stops.push(() => proxy.close());

      for (const [index, share] of [0.3, 0.7].entries()) {
        // A block among those with transfers, so the step the kill interrupts has some to lose.
        const killAt = history.nftBlocks[Math.floor(history.nftBlocks.length * share)]!.number;
        gate = killAt + 20;
        const running = worker(location, proxy.url);
        const reached = await until(`the checkpoint past block ${killAt}`, async () => {
          const block = (await readCheckpoint(database.db, NETWORK))?.block?.number ?? 0;
          return block >= killAt && block;
        });
        if (engine.name === 'postgres' && index === 1) {
          // Inside a step's transaction: its write of the step's block hashes waits for a lock
          // this test holds, and the worker dies waiting, its other writes made but not committed.
          await database.db.transaction().execute(async (trx) => {
            await sql`LOCK TABLE indexer_blocks IN EXCLUSIVE MODE`.execute(trx);
            await until('a step waiting inside its transaction', async () => {
              const { rows } = await sql<{ waiting: number | string }>`
                SELECT count(*) AS waiting FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`.execute(database.db);
              return Number(rows[0]!.waiting) > 0;
            });
            await killHard(running.child);
          });
        } else {
          await killHard(running.child);
        }
        expect(await running.exited).toBe('SIGKILL');
        reopen();
        held = new Promise<void>((resolve) => (reopen = resolve));
        // Killed mid-backfill: past the kill point, short of the head.
        const killedAt = (await readCheckpoint(database.db, NETWORK))!.block!.number;
        expect(killedAt).toBeGreaterThanOrEqual(reached);
        expect(killedAt).toBeLessThan(history.head);
      }
      const last = worker(location, anvil.rpcUrl);
      await indexedToHead(database.db);
      last.child.kill('SIGTERM');
      expect(await last.exited).toBe(0);

      // The same chain indexed from scratch, without a crash, in a database of its own.
      const freshLocation = await engine.location();
      const fresh: Database = await openDatabase(freshLocation);
      stops.push(() => fresh.close());
      const clean = worker(freshLocation, anvil.rpcUrl);
      await indexedToHead(fresh.db);
      clean.child.kill('SIGTERM');
      expect(await clean.exited).toBe(0);

      const expected = await indexSnapshot(fresh.db, NETWORK);
      // The fresh index is the chain's: every transfer written, by kind.
      const kinds = { erc20: 0, erc721: 0, erc1155: 0 } as Record<string, number>;
      for (const row of expected.transfers) kinds[row.kind] = (kinds[row.kind] ?? 0) + 1;
      expect(kinds).toEqual(history.transfers);
      expect(await indexSnapshot(database.db, NETWORK)).toEqual(expected);
    } finally {
      for (const stop of stops.reverse()) await stop();
    }
  });
});
