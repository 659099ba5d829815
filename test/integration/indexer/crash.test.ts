import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/db/open.ts';
import { readCheckpoint } from '../../../src/indexer/checkpoints.ts';
import { indexerStatus } from '../../../src/transfers/queries.ts';
import { startRpcProxy, startTestAnvil } from '../../support/anvil.ts';
import { databaseEngines } from '../../support/postgres.ts';
import { cleanupAfterEach, deployTokenSet, devAccounts, expectIndexMatchesChain, tokenMoves, waitFor, waitForIndexed } from './token-chain.ts';
import { startIndexerWorker, type WorkerProcess } from './worker-process.ts';

// `npm run worker -- indexer` killed (SIGKILL) between two ranges, then started again: every
// transfer is in the index once, and the index matches the chain.

const NETWORK = 'crucible-testnet';
const CHAIN_ID = 7357001;
/** Small ranges and a short lease, so the backfill takes many steps and a new process may lead soon after a kill. */
const SETTINGS = {
  INDEXER_NETWORKS: NETWORK,
  INDEXER_MAX_BLOCK_RANGE: '2',
  INDEXER_REORG_WINDOW: '4',
  INDEXER_BLOCKS_PER_STEP: '2',
  INDEXER_POLL_INTERVAL_MS: '50',
  INDEXER_LEASE_MS: '1500',
};

describe.each(databaseEngines())('indexer worker killed mid-backfill on $name', (engine) => {
  const cleanup = cleanupAfterEach();

  it('loses nothing and counts nothing twice', async () => {
    const anvil = await startTestAnvil({ chainId: CHAIN_ID });
    cleanup(() => anvil.stop());
    const [owner, alice, bob] = await devAccounts(anvil.client);
    const tokens = await deployTokenSet(anvil.client, owner!);
    const move = tokenMoves(anvil.client, tokens);
    for (let round = 0; round < 6; round++) {
      await move.erc20(owner!, alice!, 10n + BigInt(round));
      await move.erc20(alice!, bob!, 1n);
    }
    await move.mintRelics(owner!, alice!, [1n, 2n, 3n]);
    await move.moveRelic(alice!, bob!, 2n);
    await move.mintMaterials(owner!, bob!, [1n, 2n], [5n, 6n]);
    await move.assignPunks(owner!, bob!, [0n, 3n]);
    await move.movePunk(bob!, alice!, 3n);
    // WorldToken's mint, 12 transfers, 3 relics and a move, a batch of 2, 2 Assign, a PunkTransfer (its Transfer counts the punk).
    const expectedTransfers = 1 + 12 + 4 + 2 + 2 + 1;

    // The worker's sixth eth_getLogs call is held until the worker is killed, with five ranges stored.
    let getLogsCalls = 0;
    let held!: () => void;
    const reachedSixth = new Promise<void>((resolve) => (held = resolve));
    const proxy = await startRpcProxy(anvil.rpcUrl, async (call) => {
      if (call.method !== 'eth_getLogs' || ++getLogsCalls !== 6) return undefined;
      held();
      await new Promise(() => {});
      return 'drop';
    });
    cleanup(() => proxy.close());

    const location = await engine.location();
    const first = startIndexerWorker(location, { ...SETTINGS, NODE_UPSTREAMS_CRUCIBLE_TESTNET: proxy.url });
    cleanup(() => stopWorker(first));
    await reachedSixth;
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');

    const database = await openDatabase(location);
    cleanup(() => database.close());
    const killedAt = await readCheckpoint(database.db, NETWORK);
    expect(killedAt?.block?.number).toBeGreaterThan(0);
    expect(killedAt!.block!.number).toBeLessThan(Number(await anvil.client.getBlockNumber({ cacheTime: 0 })));

    const second = startIndexerWorker(location, { ...SETTINGS, NODE_UPSTREAMS_CRUCIBLE_TESTNET: anvil.rpcUrl });
    cleanup(() => stopWorker(second));
    await waitForIndexed(database.db, NETWORK, anvil.client);
    await expectIndexMatchesChain(database.db, NETWORK, anvil.client, tokens, [owner!, alice!, bob!]);
    const stored = await database.db
      .selectFrom('indexer_transfers')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .executeTakeFirstOrThrow();
    expect(Number(stored.count)).toBe(expectedTransfers);

    // Stopped cleanly, the worker gives its lease up.
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    await waitFor(async () => (await indexerStatus(database.db, { networks: [NETWORK] }))[0]?.state === 'stopped');
  });
});

async function stopWorker(worker: WorkerProcess): Promise<void> {
  if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
  await worker.exited;
}
