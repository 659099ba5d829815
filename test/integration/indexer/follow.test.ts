import { encodeFunctionData, type Address } from 'viem';
import { ARTIFACTS } from '../../../src/chain/world/artifacts.ts';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/open.ts';
import type { IndexReset, TransfersIndexed, TransfersUndone } from '../../../src/transfers/index-events.ts';
import { createTransferIndexer, type TransferIndexer, type TransferIndexerOptions } from '../../../src/indexer/indexer.ts';
import { indexerStatus } from '../../../src/transfers/queries.ts';
import { startTestAnvil, type TestAnvil } from '../../support/anvil.ts';
import { databaseEngines } from '../../support/postgres.ts';
import { cleanupAfterEach, deployTokenSet, devAccounts, expectIndexMatchesChain, tokenMoves, waitFor, waitForIndexed } from './token-chain.ts';

// The indexer against a real anvil, on both engines: backfill and follow of every kind of token,
// reorgs (evm_revert then other transactions; anvil_reorg) and a chain reset, each checked against
// what the chain's contracts say afterwards.

const NETWORK = 'crucible-testnet';
const CHAIN_ID = 7357001;

describe.each(databaseEngines())('transfer indexer on anvil and $name', (engine) => {
  const cleanup = cleanupAfterEach();

  async function setUp(anvilArgs: string[] = []) {
    const anvil = await startTestAnvil({ chainId: CHAIN_ID, extraArgs: anvilArgs });
    cleanup(() => anvil.stop());
    const database = await engine.open();
    cleanup(() => database.close());
    const [owner, alice, bob, carol] = await devAccounts(anvil.client);
    return { anvil, database, owner: owner!, alice: alice!, bob: bob!, carol: carol! };
  }

  function indexer(database: Database, source: TransferIndexerOptions['networks'][number], options: Partial<TransferIndexerOptions> = {}): TransferIndexer {
    // Small ranges and window, so a short chain takes both paths: ranges, then block by block.
    const created = createTransferIndexer({
      db: database.db,
      networks: [source],
      pollIntervalMs: 50,
      maxBlockRange: 3,
      reorgWindow: 6,
      blocksPerStep: 4,
      log: process.env.INDEXER_TEST_LOG ? (entry) => console.log(JSON.stringify(entry)) : () => {},
      ...options,
    });
    created.start();
    cleanup(() => created.stop());
    return created;
  }

  it('backfills, then follows, ERC-20, ERC-721, ERC-1155 and legacy transfers; the index matches the chain', async () => {
    const { anvil, database, owner, alice, bob, carol } = await setUp();
    const tokens = await deployTokenSet(anvil.client, owner);
    const move = tokenMoves(anvil.client, tokens);
    await move.erc20(owner, alice, 500n);
    await move.mintRelics(owner, alice, [1n, 2n, 100n]);
    await move.mintMaterials(owner, alice, [1n, 7n], [50n, 3n]);
    await move.assignPunks(owner, alice, [0n, 1n]);
    await move.moveRelic(alice, bob, 2n);
    await anvil.client.mine({ blocks: 12 });

    const indexed: TransfersIndexed[] = [];
    const running = indexer(database, { id: NETWORK, rpcUrl: anvil.rpcUrl, chainId: CHAIN_ID }, { onTransfers: (event) => void indexed.push(event) });
    await waitForIndexed(database.db, NETWORK, anvil.client);
    const accounts = [owner, alice, bob, carol];
    await expectIndexMatchesChain(database.db, NETWORK, anvil.client, tokens, accounts);

    // Following the head: each new block as it is mined.
    await move.erc20(alice, carol, 20n);
    await move.moveMaterial(alice, bob, 1n, 30n);
    await move.movePunk(alice, carol, 1n);
    await move.moveRelic(alice, carol, 100n);
    await waitForIndexed(database.db, NETWORK, anvil.client);
    await expectIndexMatchesChain(database.db, NETWORK, anvil.client, tokens, accounts);

    // Every transfer log once: 1 mint + 1 + 3 + 2 + 2 Assign + 1, then 1 + 1 + 1 PunkTransfer (its Transfer counts the punk) + 1.
    const expectedTransfers = 14;
    const stored = await database.db
      .selectFrom('indexer_transfers')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .executeTakeFirstOrThrow();
    expect(Number(stored.count)).toBe(expectedTransfers);
    expect(indexed.reduce((sum, event) => sum + event.transfers.length, 0)).toBe(expectedTransfers);
    const [status] = await indexerStatus(database.db, { networks: [NETWORK] });
    expect(status).toMatchObject({ state: 'following', lag: 0, lastError: null });
    expect(running.progress()[0]).toMatchObject({ leading: true, transfersIngested: expectedTransfers, reorgs: 0, resets: 0 });
  });

  it('after a reorg (evm_revert, then other transactions) ownership and balances are the new fork’s, and the undone transfers are handed on', async () => {
    const { anvil, database, owner, alice, bob, carol } = await setUp();
    const tokens = await deployTokenSet(anvil.client, owner);
    const move = tokenMoves(anvil.client, tokens);
    await move.mintRelics(owner, alice, [1n, 2n]);
    await move.mintMaterials(owner, alice, [7n], [10n]);
    await move.erc20(owner, alice, 100n);

    const undone: TransfersUndone[] = [];
    indexer(database, { id: NETWORK, rpcUrl: anvil.rpcUrl }, { onReorg: (event) => void undone.push(event) });
    await waitForIndexed(database.db, NETWORK, anvil.client);
    const fork = await anvil.client.snapshot();

    // The fork the index will see first, then lose.
    await move.moveRelic(alice, bob, 1n);
    await move.moveMaterial(alice, bob, 7n, 4n);
    await move.erc20(alice, bob, 5n);
    await waitForIndexed(database.db, NETWORK, anvil.client);
    const lost = await anvil.client.getBlockNumber({ cacheTime: 0 });

    await anvil.client.revert({ id: fork });
    await move.moveRelic(alice, carol, 1n);
    await move.moveRelic(alice, carol, 2n);
    await move.erc20(alice, carol, 7n);
    await move.moveMaterial(alice, carol, 7n, 1n);
    await anvil.client.mine({ blocks: 1 });
    expect(await anvil.client.getBlockNumber({ cacheTime: 0 })).toBeGreaterThan(lost);
    await waitForIndexed(database.db, NETWORK, anvil.client);

    await expectIndexMatchesChain(database.db, NETWORK, anvil.client, tokens, [owner, alice, bob, carol]);
    const removed = undone.flatMap((event) => event.removed);
    expect(removed.filter((transfer) => transfer.to === bob.toLowerCase()).map((transfer) => [transfer.kind, transfer.tokenId, transfer.amount])).toEqual([
      ['erc721', '1', '1'],
      ['erc1155', '7', '4'],
      ['erc20', null, '5'],
    ]);
  });

  it('after anvil_reorg replaces the last blocks with other transactions, the index is the new chain’s', async () => {
    const { anvil, database, owner, alice, bob, carol } = await setUp();
    const tokens = await deployTokenSet(anvil.client, owner);
    const move = tokenMoves(anvil.client, tokens);
    await move.mintRelics(owner, alice, [3n, 10n]);
    await move.assignPunks(owner, alice, [2n, 3n]);
    await move.moveRelic(alice, bob, 3n);
    await move.movePunk(alice, bob, 2n);
    await anvil.client.mine({ blocks: 2 });

    const running = indexer(database, { id: NETWORK, rpcUrl: anvil.rpcUrl });
    await waitForIndexed(database.db, NETWORK, anvil.client);
    const before = await anvil.client.getBlockNumber({ cacheTime: 0 });

    // Replace the last 4 blocks (the two moves to bob among them): relic 10 goes to carol instead.
    const data = encodeFunctionData({ abi: ARTIFACTS.RelicCollection.abi, functionName: 'transferFrom', args: [alice, carol, 10n] });
    await anvil.client.request({ method: 'anvil_reorg' as never, params: [4, [[{ from: alice, to: tokens.relics, data }, 1]]] as never });
    expect(await anvil.client.getBlockNumber({ cacheTime: 0 })).toBe(before);
    await waitFor(async () => running.progress()[0]!.reorgs > 0);
    await waitForIndexed(database.db, NETWORK, anvil.client);
    await expectIndexMatchesChain(database.db, NETWORK, anvil.client, tokens, [owner, alice, bob, carol]);
  });

  it('re-indexes a chain that was reset (a new anvil, same chain id): nothing of the old chain is left', async () => {
    const first = await setUp();
    const tokens = await deployTokenSet(first.anvil.client, first.owner);
    const move = tokenMoves(first.anvil.client, tokens);
    await move.mintRelics(first.owner, first.alice, [1n, 2n]);
    await move.moveRelic(first.alice, first.bob, 2n);
    await move.erc20(first.owner, first.carol, 3n);

    // The node behind the network's URL is replaced: the follower asks whichever runs now.
    let current: TestAnvil = first.anvil;
    const resets: IndexReset[] = [];
    const running = indexer(
      first.database,
      { id: NETWORK, request: (method, params) => current.client.request({ method, params } as never) },
      { onReset: (event) => void resets.push(event) },
    );
    await waitForIndexed(first.database.db, NETWORK, first.anvil.client);

    // Another genesis (an earlier timestamp): the chain was reset, not reorganised.
    const second = await startTestAnvil({ chainId: CHAIN_ID, extraArgs: ['--timestamp', '1700000000'] });
    const replacedTokens = await deployTokenSet(second.client, first.owner);
    const replacedMoves = tokenMoves(second.client, replacedTokens);
    await replacedMoves.mintRelics(first.owner, first.carol, [1n]);
    current = second;
    await first.anvil.stop();
    try {
      await waitFor(() => running.progress()[0]!.resets === 1);
      await waitForIndexed(first.database.db, NETWORK, second.client);
      expect(resets).toEqual([{ network: NETWORK, reason: 'genesis-changed' }]);
      await expectIndexMatchesChain(first.database.db, NETWORK, second.client, replacedTokens, [first.owner, first.alice, first.bob, first.carol]);
      expect((await first.database.db.selectFrom('indexer_transfers').select('contract').distinct().execute()).map((row) => row.contract).sort()).toEqual(
        [replacedTokens.erc20, replacedTokens.relics].map((address: Address) => address.toLowerCase()).sort(),
      );
    } finally {
      await running.stop();
      await second.stop();
    }
  });
});
