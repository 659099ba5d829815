import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/db/open.ts';
import { createTransferIndexer, type IndexerLogEntry, type TransferIndexer } from '../../../src/indexer/indexer.ts';
import { startTestAnvil } from '../../support/anvil.ts';
import { databaseEngines } from '../../support/postgres.ts';
import { cleanupAfterEach, deployTokenSet, devAccounts, expectIndexMatchesChain, tokenMoves, waitFor, waitForIndexed } from './token-chain.ts';
import { startIndexerWorker } from './worker-process.ts';

// Several indexer processes on one PostgreSQL database: one leads each network through its lease;
// another takes over when the leader stops (at once) or dies (when its lease expires).

const NETWORK = 'crucible-testnet';
const CHAIN_ID = 7357001;
/** A lease that expires soon after its holder dies, for the takeover that waits for it. */
const LEASE_MS = 1500;
/**
 * Where the takeover follows a stop (the lease is given up), a lease long enough that a leader's
 * renewal (a third of it) is never late on a busy machine; the standby asks as often.
 */
const STEADY_LEASE_MS = 15_000;
const postgres = databaseEngines().find((engine) => engine.name === 'postgres')!;

describe('indexer leadership on PostgreSQL', () => {
  const cleanup = cleanupAfterEach();

  async function setUp() {
    const anvil = await startTestAnvil({ chainId: CHAIN_ID });
    cleanup(() => anvil.stop());
    const location = await postgres.location();
    const database = await openDatabase(location);
    cleanup(() => database.close());
    const [owner, alice, bob] = await devAccounts(anvil.client);
    const tokens = await deployTokenSet(anvil.client, owner!);
    return { anvil, location, database, owner: owner!, alice: alice!, bob: bob!, tokens, move: tokenMoves(anvil.client, tokens) };
  }

  it('lets one instance lead; the other takes over after the first stops', async () => {
    const { anvil, database, owner, alice, bob, tokens, move } = await setUp();
    const logs = new Map<string, IndexerLogEntry[]>();
    const instance = (holderId: string): TransferIndexer => {
      logs.set(holderId, []);
      const indexer = createTransferIndexer({
        db: database.db,
        networks: [{ id: NETWORK, rpcUrl: anvil.rpcUrl, chainId: CHAIN_ID }],
        holderId,
        leaseMs: STEADY_LEASE_MS,
        pollIntervalMs: 50,
        log: (entry) => logs.get(holderId)!.push(entry),
      });
      cleanup(() => indexer.stop());
      return indexer;
    };
    const first = instance('first');
    first.start();
    await waitFor(() => first.progress()[0]!.leading);
    const second = instance('second');
    second.start();

    await move.erc20(owner, alice, 5n);
    await move.mintRelics(owner, alice, [1n]);
    await waitForIndexed(database.db, NETWORK, anvil.client);
    expect(second.progress()[0]!.leading).toBe(false);
    expect(logs.get('second')!.filter((entry) => entry.message === 'leading this network')).toEqual([]);
    const lease = await database.db.selectFrom('indexer_leases').select('holder').where('network', '=', NETWORK).executeTakeFirstOrThrow();
    expect(lease.holder).toBe('first');

    await first.stop();
    await waitFor(() => second.progress()[0]!.leading);
    await move.moveRelic(alice, bob, 1n);
    await move.erc20(alice, bob, 2n);
    await waitForIndexed(database.db, NETWORK, anvil.client);
    expect(second.progress()[0]!.transfersIngested).toBe(2);
    await expectIndexMatchesChain(database.db, NETWORK, anvil.client, tokens, [owner, alice, bob]);
  });

  it('lets a standby instance take over from a worker process that died, once its lease expired', async () => {
    const { anvil, location, database, owner, alice, bob, tokens, move } = await setUp();
    await move.mintRelics(owner, alice, [1n, 2n]);
    const worker = startIndexerWorker(location, {
      INDEXER_NETWORKS: NETWORK,
      NODE_UPSTREAMS_CRUCIBLE_TESTNET: anvil.rpcUrl,
      INDEXER_LEASE_MS: String(LEASE_MS),
      INDEXER_POLL_INTERVAL_MS: '50',
    });
    cleanup(async () => {
      worker.child.kill('SIGKILL');
      await worker.exited;
    });
    await waitForIndexed(database.db, NETWORK, anvil.client);
    const { holder } = await database.db.selectFrom('indexer_leases').select('holder').where('network', '=', NETWORK).executeTakeFirstOrThrow();
    expect(holder).toContain(`:${worker.child.pid}:`);

    const standby = createTransferIndexer({
      db: database.db,
      networks: [{ id: NETWORK, rpcUrl: anvil.rpcUrl }],
      holderId: 'standby',
      leaseMs: LEASE_MS,
      pollIntervalMs: 50,
      log: () => {},
    });
    cleanup(() => standby.stop());
    standby.start();
    worker.child.kill('SIGKILL');
    expect(await worker.exited).toBe('SIGKILL');

    await move.moveRelic(alice, bob, 2n);
    await waitFor(() => standby.progress()[0]!.leading);
    await waitForIndexed(database.db, NETWORK, anvil.client);
    await expectIndexMatchesChain(database.db, NETWORK, anvil.client, tokens, [owner, alice, bob]);
  });
});
