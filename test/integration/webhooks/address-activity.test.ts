import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/open.ts';
import { createTransferIndexer } from '../../../src/indexer/indexer.ts';
import { webhookIndexHooks } from '../../../src/webhooks/outbox.ts';
import type { AddressActivityItem } from '../../../src/webhooks/payload.ts';
import { createWebhookStore, type WebhookStore } from '../../../src/webhooks/store.ts';
import { startTestAnvil } from '../../support/anvil.ts';
import { databaseEngines } from '../../support/postgres.ts';
import { deployTokenSet, devAccounts, tokenMoves, waitFor, waitForIndexed } from '../indexer/token-chain.ts';
import { startFastWorker } from './fast-worker.ts';
import { startReceiver, type TestReceiver } from './receiver.ts';

// ADDRESS_ACTIVITY webhooks from the indexer's stream on a real anvil, on both engines: every
// ERC-20, ERC-721, ERC-1155 and legacy transfer touching a listed address, and the transactions a
// listed address sends (native transfers, zero value included: address-native.test.ts has ether moved), grouped per block, signed,
// to a receiver on loopback; one webhook lists 100,000 addresses; addresses added and removed in place
// take effect for the next block; a reorg sends what it undid again, marked removed.

const NETWORK = 'crucible-testnet';
const CHAIN_ID = 7357001;
const OWNER = 'acct_address';
const filler = (count: number) => Array.from({ length: count }, (_, index) => `0x${(0xf00000 + index).toString(16).padStart(40, 'a')}`);

describe.each(databaseEngines())('ADDRESS_ACTIVITY webhooks from a real chain on $name', (engine) => {
  const stops: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const stop of stops.reverse()) await stop();
    stops.length = 0;
  });

  async function setUp() {
    const anvil = await startTestAnvil({ chainId: CHAIN_ID });
    stops.push(() => anvil.stop());
    const database: Database = await engine.open();
    stops.push(() => database.close());
    const receiver: TestReceiver = await startReceiver();
    stops.push(() => receiver.close());
    const store: WebhookStore = createWebhookStore(database.db, { networks: [NETWORK], urlRules: { local: true } });
    const [owner, alice, bob, carol] = await devAccounts(anvil.client);
    const tokens = await deployTokenSet(anvil.client, owner!);
    const start = () => {
      const indexer = createTransferIndexer({
        db: database.db,
        networks: [{ id: NETWORK, rpcUrl: anvil.rpcUrl, chainId: CHAIN_ID }],
        pollIntervalMs: 50,
        reorgWindow: 6,
        blocksPerStep: 4,
        log: () => {},
        ...webhookIndexHooks({ reorgWindow: 6, nativeCurrency: () => ({ symbol: 'ETH', decimals: 18 }) }),
      });
      const worker = startFastWorker(database, { retryDelaysMs: [20] });
      indexer.start();
      stops.push(
        () => worker.stop(),
        () => indexer.stop(),
      );
    };
    return { anvil, database, receiver, store, tokens, move: tokenMoves(anvil.client, tokens), owner: owner!, alice: alice!, bob: bob!, carol: carol!, start };
  }

  const activityOf = (receiver: TestReceiver, webhookId: string) =>
    receiver.received.filter((entry) => entry.payload.webhookId === webhookId).map((entry) => entry.payload.event.activity as AddressActivityItem[]);
  const delivered = async (store: WebhookStore, webhookId: string, count: number) =>
    waitFor(async () => (await store.deliveries(OWNER, webhookId, { limit: 100, status: 'delivered' })).deliveries.length >= count);

  it('sends every token transfer touching a listed address, of every kind, one signed delivery per block, from a list of 100,000', async () => {
    const { anvil, database, receiver, store, tokens, move, owner, alice, bob, carol, start } = await setUp();
    const crowd = await store.create(OWNER, { type: 'ADDRESS_ACTIVITY', network: NETWORK, url: receiver.url, addresses: [...filler(99_999), alice] });
    expect(crowd.addressCount).toBe(100_000);
    const bobs = await store.create(OWNER, {
      type: 'ADDRESS_ACTIVITY',
      network: NETWORK,
      url: receiver.url,
      addresses: [bob.toUpperCase().replace('0X', '0x')],
    });
    for (const hook of [crowd, bobs]) receiver.keys.set(hook.id, hook.signingKey);

    await move.erc20(owner, alice, 5n);
    await move.mintRelics(owner, alice, [1n]);
    await move.mintMaterials(owner, alice, [7n], [3n]);
    await move.assignPunks(owner, alice, [0n]);
    await move.erc20(owner, carol, 1n); // touches no listed address
    await move.moveRelic(alice, bob, 1n);
    start();
    await waitForIndexed(database.db, NETWORK, anvil.client);
    await delivered(store, crowd.id, 5);
    await delivered(store, bobs.id, 1);

    expect(receiver.received.every((entry) => entry.signatureValid && entry.timestampValid && entry.payload.type === 'ADDRESS_ACTIVITY')).toBe(true);
    const blocks = activityOf(receiver, crowd.id);
    expect(
      blocks.map((items) => items.map((item) => [item.category, item.toAddress, item.rawContract.rawValue, item.erc721TokenId, item.erc1155Metadata])),
    ).toEqual([
      [['token', alice.toLowerCase(), '0x5', null, null]],
      [['erc721', alice.toLowerCase(), '0x1', '0x1', null]],
      [['erc1155', alice.toLowerCase(), '0x3', null, [{ tokenId: '0x7', value: '0x3' }]]],
      [['specialnft', alice.toLowerCase(), '0x1', '0x0', null]],
      // alice sends this one: her transaction to the collection, of no ether, comes before the transfer it makes.
      [
        ['external', tokens.relics.toLowerCase(), '0x0', null, null],
        ['erc721', bob.toLowerCase(), '0x1', '0x1', null],
      ],
    ]);
    const first = blocks[0]![0]!;
    expect(first).toMatchObject({
      fromAddress: owner.toLowerCase(),
      value: null,
      asset: null,
      rawContract: { address: tokens.erc20.toLowerCase(), decimals: null },
      log: { address: tokens.erc20.toLowerCase(), blockNumber: first.blockNum, transactionHash: first.hash, removed: false },
      removed: false,
    });
    expect(activityOf(receiver, bobs.id).map((items) => items.map((item) => [item.fromAddress, item.toAddress]))).toEqual([
      [[alice.toLowerCase(), bob.toLowerCase()]],
    ]);

    // Changed in place: carol from the next block on, alice no longer.
    await store.changeAddresses(OWNER, crowd.id, { add: [carol], remove: [alice] });
    await move.erc20(owner, carol, 2n);
    await move.erc20(owner, alice, 3n);
    await move.erc20(owner, carol, 4n);
    await waitForIndexed(database.db, NETWORK, anvil.client);
    await delivered(store, crowd.id, 7);
    expect(
      activityOf(receiver, crowd.id)
        .slice(5)
        .map((items) => items.map((item) => [item.toAddress, item.rawContract.rawValue])),
    ).toEqual([[[carol.toLowerCase(), '0x2']], [[carol.toLowerCase(), '0x4']]]);
  }, 120_000);

  it('a reorg that undoes a delivered transfer sends it again marked removed', async () => {
    const { anvil, database, receiver, store, move, owner, alice, bob, start } = await setUp();
    const hook = await store.create(OWNER, { type: 'ADDRESS_ACTIVITY', network: NETWORK, url: receiver.url, addresses: [bob] });
    receiver.keys.set(hook.id, hook.signingKey);
    await move.erc20(owner, alice, 10n);
    start();
    await waitForIndexed(database.db, NETWORK, anvil.client);
    const fork = await anvil.client.snapshot();

    await move.erc20(alice, bob, 4n);
    await waitForIndexed(database.db, NETWORK, anvil.client);
    await delivered(store, hook.id, 1);
    const [undone] = activityOf(receiver, hook.id)[0]!;

    await anvil.client.revert({ id: fork });
    await move.erc20(alice, bob, 6n);
    await anvil.client.mine({ blocks: 2 });
    await waitForIndexed(database.db, NETWORK, anvil.client);
    await delivered(store, hook.id, 3);

    const blocks = activityOf(receiver, hook.id);
    expect(blocks.map((items) => items.map((item) => [item.rawContract.rawValue, item.removed, item.log?.removed]))).toEqual([
      [['0x4', false, false]],
      [['0x4', true, true]],
      [['0x6', false, false]],
    ]);
    expect(blocks[1]![0]).toEqual({ ...undone, removed: true, log: { ...undone!.log!, removed: true } });
    expect(receiver.received.every((entry) => entry.signatureValid && entry.timestampValid)).toBe(true);
  });
});
