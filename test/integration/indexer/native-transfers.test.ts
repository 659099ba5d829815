import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeFunctionData, getAddress, numberToHex, parseEther, type Address, type Hash } from 'viem';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS } from '../../../src/chain/world/artifacts.ts';
import type { Database } from '../../../src/db/open.ts';
import { createTransferIndexer, type TransferIndexerOptions } from '../../../src/indexer/indexer.ts';
import { databaseTokenIndex } from '../../../src/runtime/adapters/database-token-index.ts';
import { getAssetTransfers } from '../../../src/tokens/asset-transfers.ts';
import type { IndexReset } from '../../../src/transfers/index-events.ts';
import { startRpcProxy, startTestAnvil, type TestAnvil } from '../../support/anvil.ts';
import { databaseEngines } from '../../support/postgres.ts';
import { cleanupAfterEach, deployTokenSet, devAccounts, tokenMoves, waitFor, waitForIndexed, type TokenSet } from './token-chain.ts';

// Native transfers in the index (crucible_getAssetTransfers' external and internal), on a real
// anvil and both engines: ether sent and forwarded by a contract (contracts/ValueForwarder.sol),
// a transaction that reverts and a call that reverts inside one that succeeds (never recorded),
// a reorg, a node without call traces, and an index of an older version rebuilt.

const NETWORK = 'crucible-testnet';
const CHAIN_ID = 7357001;
const forwarderAbi = ARTIFACTS.ValueForwarder.abi;
const ether = (value: string) => parseEther(value).toString();

type Move = [kind: 'external' | 'internal', from: Address, to: Address, amount: string];

describe.each(databaseEngines())('native transfers on anvil and $name', (engine) => {
  const cleanup = cleanupAfterEach();

  async function setUp() {
    const anvil = await startTestAnvil({ chainId: CHAIN_ID });
    cleanup(() => anvil.stop());
    const database = await engine.open();
    cleanup(() => database.close());
    const [owner, alice, bob, carol] = await devAccounts(anvil.client);
    return { anvil, database, owner: owner!, alice: alice!, bob: bob!, carol: carol! };
  }

  function index(database: Database, source: TransferIndexerOptions['networks'][number], options: Partial<TransferIndexerOptions> = {}) {
    // Small ranges and window, so a short chain takes both paths: ranges, then block by block.
    const indexer = createTransferIndexer({
      db: database.db,
      networks: [source],
      pollIntervalMs: 50,
      maxBlockRange: 3,
      reorgWindow: 6,
      blocksPerStep: 4,
      log: () => {},
      ...options,
    });
    indexer.start();
    cleanup(() => indexer.stop());
    return indexer;
  }

  /** Sends a transaction from an unlocked dev account; resolves once mined, with its hash and whether it succeeded. */
  async function send(
    anvil: TestAnvil,
    tx: { from: Address; to?: Address; value?: bigint; data?: `0x${string}`; gas?: bigint },
  ): Promise<{ hash: Hash; ok: boolean }> {
    const hash = await anvil.client.sendTransaction({ account: tx.from, chain: null, to: tx.to, value: tx.value, data: tx.data, gas: tx.gas });
    const receipt = await anvil.client.waitForTransactionReceipt({ hash });
    return { hash, ok: receipt.status === 'success' };
  }

  async function deployForwarder(anvil: TestAnvil, owner: Address): Promise<Address> {
    const hash = await anvil.client.deployContract({ abi: forwarderAbi, bytecode: ARTIFACTS.ValueForwarder.bytecode, account: owner, chain: null });
    return getAddress((await anvil.client.waitForTransactionReceipt({ hash })).contractAddress!);
  }

  const call = (functionName: 'forward' | 'relay' | 'forwardAllowingRefusals', recipients: Address[], amounts: bigint[]) =>
    encodeFunctionData({ abi: forwarderAbi, functionName, args: [recipients, amounts] });

  /** The stored native transfers with a value, in the index's order. */
  async function movesOf(database: Database): Promise<Move[]> {
    const rows = await database.db
      .selectFrom('indexer_native_transfers')
      .select(['kind', 'from_address', 'to_address', 'amount'])
      .where('network', '=', NETWORK)
      .where('amount', '!=', '0')
      .orderBy('block_number')
      .orderBy('transaction_index')
      .orderBy('trace_index')
      .execute();
    return rows.map((row) => [row.kind, getAddress(row.from_address), getAddress(row.to_address), row.amount]);
  }

  /** Every transaction of the chain, by whether it succeeded. */
  async function chainTransactions(anvil: TestAnvil): Promise<{ succeeded: string[]; failed: string[] }> {
    const head = await anvil.client.getBlockNumber({ cacheTime: 0 });
    const blocks = await Promise.all(Array.from({ length: Number(head) + 1 }, (_, n) => anvil.client.getBlock({ blockNumber: BigInt(n) })));
    const hashes = blocks.flatMap((block) => block.transactions);
    const receipts = await Promise.all(hashes.map((hash) => anvil.client.getTransactionReceipt({ hash })));
    return {
      succeeded: hashes.filter((_, i) => receipts[i]!.status === 'success').sort(),
      failed: hashes.filter((_, i) => receipts[i]!.status !== 'success').sort(),
    };
  }

  it('records every successful transaction and the ether its calls moved; a reverted transaction, or call, records nothing', async () => {
    const { anvil, database, owner, alice, bob, carol } = await setUp();
    const forwarder = await deployForwarder(anvil, owner);
    // A contract without a receive function refuses ether: here, another forwarder.
    const refuser = await deployForwarder(anvil, owner);
    await send(anvil, { from: owner, to: alice, value: parseEther('1') });
    await send(anvil, { from: alice, to: forwarder, value: parseEther('0.5'), data: call('forward', [bob, carol], [parseEther('0.2'), parseEther('0.3')]) });
    await send(anvil, { from: bob, to: forwarder, value: parseEther('0.1'), data: call('relay', [carol], [parseEther('0.1')]) });
    const refused = await send(anvil, {
      from: carol,
      to: forwarder,
      value: parseEther('0.12'),
      data: call('forwardAllowingRefusals', [alice, refuser], [parseEther('0.05'), parseEther('0.07')]),
    });
    expect(refused.ok).toBe(true);
    const reverted = await send(anvil, {
      from: alice,
      to: forwarder,
      value: parseEther('0.03'),
      data: call('forward', [bob, refuser], [parseEther('0.01'), parseEther('0.02')]),
      gas: 300_000n,
    });
    expect(reverted.ok).toBe(false);
    await anvil.client.mine({ blocks: 8 });

    index(database, { id: NETWORK, rpcUrl: anvil.rpcUrl, chainId: CHAIN_ID });
    await waitForIndexed(database.db, NETWORK, anvil.client);
    // Following the head block by block too.
    await send(anvil, { from: carol, to: owner, value: parseEther('0.25') });
    await waitForIndexed(database.db, NETWORK, anvil.client);

    expect(await movesOf(database)).toEqual([
      ['external', owner, alice, ether('1')],
      ['external', alice, forwarder, ether('0.5')],
      ['internal', forwarder, bob, ether('0.2')],
      ['internal', forwarder, carol, ether('0.3')],
      ['external', bob, forwarder, ether('0.1')],
      ['internal', forwarder, forwarder, ether('0.1')],
      ['internal', forwarder, carol, ether('0.1')],
      ['external', carol, forwarder, ether('0.12')],
      ['internal', forwarder, alice, ether('0.05')],
      ['external', carol, owner, ether('0.25')],
    ]);
    // Every successful transaction is one external transfer (the deployments, of zero, to the contract created), a failed one none.
    const { succeeded, failed } = await chainTransactions(anvil);
    const externals = await database.db
      .selectFrom('indexer_native_transfers')
      .select(['transaction_hash', 'to_address', 'amount'])
      .where('network', '=', NETWORK)
      .where('kind', '=', 'external')
      .execute();
    expect(externals.map((row) => row.transaction_hash).sort()).toEqual(succeeded);
    expect(failed).toEqual([reverted.hash]);
    expect(
      externals
        .filter((row) => row.amount === '0')
        .map((row) => getAddress(row.to_address))
        .sort(),
    ).toEqual([forwarder, refuser].sort());
    const checkpoint = await database.db
      .selectFrom('indexer_checkpoints')
      .select(['internal_transfers', 'internal_from_block', 'index_version'])
      .executeTakeFirstOrThrow();
    // Every block was traced: internal transfers from the index's first block.
    expect(checkpoint).toEqual({ internal_transfers: 'recorded', internal_from_block: null, index_version: 2 });
  });

  it('after a reorg the native transfers are the new fork’s', async () => {
    const { anvil, database, owner, alice, bob, carol } = await setUp();
    const forwarder = await deployForwarder(anvil, owner);
    index(database, { id: NETWORK, rpcUrl: anvil.rpcUrl });
    await waitForIndexed(database.db, NETWORK, anvil.client);
    const fork = await anvil.client.snapshot();
    await send(anvil, { from: alice, to: forwarder, value: parseEther('2'), data: call('forward', [bob], [parseEther('2')]) });
    await waitForIndexed(database.db, NETWORK, anvil.client);
    expect(await movesOf(database)).toEqual([
      ['external', alice, forwarder, ether('2')],
      ['internal', forwarder, bob, ether('2')],
    ]);

    await anvil.client.revert({ id: fork });
    await send(anvil, { from: alice, to: carol, value: parseEther('3') });
    await anvil.client.mine({ blocks: 2 });
    await waitForIndexed(database.db, NETWORK, anvil.client);
    expect(await movesOf(database)).toEqual([['external', alice, carol, ether('3')]]);
  });

  it('from a node without call traces: external transfers from blocks and receipts, internal ones said to be unavailable, for good', async () => {
    const { anvil, database, owner, alice, bob } = await setUp();
    const forwarder = await deployForwarder(anvil, owner);
    const refuser = await deployForwarder(anvil, owner);
    await send(anvil, { from: alice, to: forwarder, value: parseEther('0.4'), data: call('forward', [bob], [parseEther('0.4')]) });
    const reverted = await send(anvil, {
      from: bob,
      to: forwarder,
      value: parseEther('0.1'),
      data: call('forward', [refuser], [parseEther('0.1')]),
      gas: 300_000n,
    });
    expect(reverted.ok).toBe(false);
    await anvil.client.mine({ blocks: 8 });
    // As geth answers a method it does not serve.
    const traced: string[] = [];
    const proxy = await startRpcProxy(anvil.rpcUrl, async (request) => {
      if (!request.method.startsWith('debug_')) return undefined;
      traced.push(request.method);
      return { refuse: { code: -32601, message: `the method ${request.method} does not exist/is not available` } };
    });
    cleanup(() => proxy.close());
    const first = index(database, { id: NETWORK, rpcUrl: proxy.url });
    await waitForIndexed(database.db, NETWORK, anvil.client);
    expect(traced.length).toBeGreaterThan(0);
    expect(await movesOf(database)).toEqual([['external', alice, forwarder, ether('0.4')]]);
    const state = () => database.db.selectFrom('indexer_checkpoints').select('internal_transfers').executeTakeFirstOrThrow();
    expect(await state()).toEqual({ internal_transfers: 'unavailable' });

    // The same node with traces again: the index has none for its earlier blocks, so it records none from here on either.
    await first.stop();
    index(database, { id: NETWORK, rpcUrl: anvil.rpcUrl });
    await send(anvil, { from: alice, to: forwarder, value: parseEther('0.6'), data: call('forward', [bob], [parseEther('0.6')]) });
    await waitForIndexed(database.db, NETWORK, anvil.client);
    expect(await movesOf(database)).toEqual([
      ['external', alice, forwarder, ether('0.4')],
      ['external', alice, forwarder, ether('0.6')],
    ]);
    expect(await state()).toEqual({ internal_transfers: 'unavailable' });
  });

  it('from a node that cannot trace its older blocks (anvil restarted from its state file): internal transfers from the first block it traces, and asking before it is refused', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'crucible-native-state-'));
    cleanup(() => rm(folder, { recursive: true, force: true }));
    const stateFile = join(folder, 'chain.json');
    const first = await startTestAnvil({ chainId: CHAIN_ID, extraArgs: ['--state', stateFile] });
    const [owner, alice, bob] = await devAccounts(first.client);
    const forwarder = await deployForwarder(first, owner!);
    const old = await send(first, { from: alice!, to: forwarder, value: parseEther('0.8'), data: call('forward', [bob!], [parseEther('0.8')]) });
    await first.stop();
    const anvil = await startTestAnvil({ chainId: CHAIN_ID, extraArgs: ['--state', stateFile] });
    cleanup(() => anvil.stop());
    // What this test stands on: the restarted node keeps the old blocks but cannot trace them.
    const oldBlock = await anvil.client.getTransactionReceipt({ hash: old.hash });
    const oldTrace = (await anvil.client.request({
      method: 'debug_traceBlockByHash' as never,
      params: [oldBlock.blockHash, { tracer: 'callTracer' }] as never,
    })) as Array<{ error?: string }>;
    expect(oldTrace[0]?.error).toBeTruthy();
    const fresh = await send(anvil, { from: alice!, to: forwarder, value: parseEther('0.9'), data: call('forward', [bob!], [parseEther('0.9')]) });

    const database = await engine.open();
    cleanup(() => database.close());
    index(database, { id: NETWORK, rpcUrl: anvil.rpcUrl });
    await waitForIndexed(database.db, NETWORK, anvil.client);
    expect(await movesOf(database)).toEqual([
      ['external', alice, forwarder, ether('0.8')],
      ['external', alice, forwarder, ether('0.9')],
      ['internal', forwarder, bob, ether('0.9')],
    ]);
    const tracedFrom = Number(oldBlock.blockNumber) + 1;
    expect(await database.db.selectFrom('indexer_checkpoints').select(['internal_transfers', 'internal_from_block']).executeTakeFirstOrThrow()).toEqual({
      internal_transfers: 'recorded',
      internal_from_block: tracedFrom,
    });

    // The method refuses a range that starts before the first traced block, naming it; from it on, it answers.
    const data = {
      network: NETWORK,
      nativeCurrency: { symbol: 'ETH', decimals: 18 },
      chain: null as never,
      index: databaseTokenIndex(database.db, NETWORK),
      metadata: null as never,
      logos: null as never,
    };
    await expect(getAssetTransfers(data, [{ toAddress: bob, category: ['internal'] }])).rejects.toThrow(
      `[0] request.fromBlock is before block ${tracedFrom} (${numberToHex(tracedFrom)}), where the internal transfers of ${NETWORK} begin`,
    );
    const answer = await getAssetTransfers(data, [{ toAddress: bob, category: ['internal'], fromBlock: numberToHex(tracedFrom) }]);
    expect(answer.transfers.map((transfer) => [transfer.hash, transfer.value])).toEqual([[fresh.hash, 0.9]]);
  });

  it('from a full node past the state of its older blocks: one refused trace a range, receipts only where logs do not say a transaction succeeded, and the same index', async () => {
    const { anvil, database, owner, alice, bob } = await setUp();
    // Blocks the node will not trace: a creation without logs, a token's creation (its mint is a
    // Transfer log, but its address is in its receipt only), token transfers (logs: they succeeded),
    // plain ether sends (no logs: their receipts say whether they did).
    const forwarder = await deployForwarder(anvil, owner);
    const { erc20 } = await deployTokenSet(anvil.client, owner);
    const tokenBlock = Number(await anvil.client.getBlockNumber({ cacheTime: 0 })) - 3;
    const moves = tokenMoves(anvil.client, { erc20 } as TokenSet);
    for (let n = 1; n <= 3; n++) await moves.erc20(owner, bob, BigInt(n));
    const firstSend = Number(await anvil.client.getBlockNumber({ cacheTime: 0 })) + 1;
    for (let n = 1; n <= 3; n++) await send(anvil, { from: alice, to: bob, value: BigInt(n) });
    const lastPruned = Number(await anvil.client.getBlockNumber({ cacheTime: 0 }));
    const blocks = await Promise.all(Array.from({ length: lastPruned + 1 }, (_, n) => anvil.client.getBlock({ blockNumber: BigInt(n) })));
    const pruned = new Set<string>(blocks.map((block) => block.hash));
    await send(anvil, { from: alice, to: forwarder, value: parseEther('0.5'), data: call('forward', [bob], [parseEther('0.5')]) });
    await anvil.client.mine({ blocks: 8 });
    // As geth answers for a block whose state it no longer keeps.
    const traced = new Set<string>();
    const receipts = new Set<string>();
    const proxy = await startRpcProxy(anvil.rpcUrl, async (request) => {
      const blockHash = (request.params as unknown[] | undefined)?.[0] as string;
      if (request.method === 'eth_getBlockReceipts') receipts.add(blockHash);
      if (request.method !== 'debug_traceBlockByHash' || !pruned.has(blockHash)) return undefined;
      traced.add(blockHash);
      return { refuse: { code: -32000, message: 'required historical state unavailable (reexec=128)' } };
    });
    cleanup(() => proxy.close());
    index(database, { id: NETWORK, rpcUrl: proxy.url });
    await waitForIndexed(database.db, NETWORK, anvil.client);
    // Ranges of three blocks (maxBlockRange): each range of refused blocks asked for its newest only.
    expect(traced.size).toBeGreaterThan(0);
    expect(traced.size).toBeLessThanOrEqual(Math.ceil(lastPruned / 3) + 1);
    // Receipts of the creations (the forwarder, then the token set's four) and the ether sends; none of the blocks of token transfers.
    const numberOf = new Map(blocks.map((block) => [block.hash as string, Number(block.number)]));
    expect([...receipts].map((hash) => numberOf.get(hash)).sort((a, b) => a! - b!)).toEqual([
      1,
      ...[0, 1, 2, 3].map((n) => tokenBlock + n),
      ...[0, 1, 2].map((n) => firstSend + n),
    ]);
    expect(await movesOf(database)).toEqual([
      ...[1, 2, 3].map((n): Move => ['external', alice, bob, String(n)]),
      ['external', alice, forwarder, ether('0.5')],
      ['internal', forwarder, bob, ether('0.5')],
    ]);
    const creations = await database.db
      .selectFrom('indexer_native_transfers')
      .select(['block_number', 'to_address'])
      .where('block_number', 'in', [1, tokenBlock])
      .orderBy('block_number')
      .execute();
    expect(creations).toEqual([
      { block_number: 1, to_address: forwarder.toLowerCase() },
      { block_number: tokenBlock, to_address: erc20.toLowerCase() },
    ]);
    expect(await database.db.selectFrom('indexer_checkpoints').select(['internal_transfers', 'internal_from_block']).executeTakeFirstOrThrow()).toEqual({
      internal_transfers: 'recorded',
      internal_from_block: lastPruned + 1,
    });
  });

  it('rebuilds an index of an older version from its first block, native transfers included', async () => {
    const { anvil, database, owner, alice, bob } = await setUp();
    const forwarder = await deployForwarder(anvil, owner);
    await send(anvil, { from: alice, to: forwarder, value: parseEther('0.7'), data: call('forward', [bob], [parseEther('0.7')]) });
    const first = index(database, { id: NETWORK, rpcUrl: anvil.rpcUrl });
    await waitForIndexed(database.db, NETWORK, anvil.client);
    await first.stop();
    // What an index of version 1 holds: no native transfers.
    await database.db.deleteFrom('indexer_native_transfers').execute();
    await database.db.updateTable('indexer_checkpoints').set({ index_version: 1 }).execute();

    const resets: IndexReset[] = [];
    index(database, { id: NETWORK, rpcUrl: anvil.rpcUrl }, { onReset: (event) => void resets.push(event) });
    await waitFor(async () => (await movesOf(database)).length === 2);
    await waitForIndexed(database.db, NETWORK, anvil.client);
    expect(resets).toEqual([{ network: NETWORK, reason: 'index-upgraded' }]);
    expect(await movesOf(database)).toEqual([
      ['external', alice, forwarder, ether('0.7')],
      ['internal', forwarder, bob, ether('0.7')],
    ]);
  });
});
