import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/open.ts';
import { createTransferIndexer } from '../../../src/indexer/indexer.ts';
import { webhookIndexHooks } from '../../../src/webhooks/outbox.ts';
import type { ActivityItem } from '../../../src/webhooks/payload.ts';
import { createWebhookStore, type WebhookStore } from '../../../src/webhooks/store.ts';
import { startTestAnvil } from '../../support/anvil.ts';
import { databaseEngines } from '../../support/postgres.ts';
import { deployTokenSet, devAccounts, tokenMoves, waitFor, waitForIndexed } from '../indexer/token-chain.ts';
import { startFastWorker } from './fast-worker.ts';
import { startReceiver, type TestReceiver } from './receiver.ts';

// Webhooks from the indexer's stream on a real anvil, on both engines: the transfer indexer runs with
// the outbox's hooks, the delivery worker POSTs to a receiver on loopback that checks every
// signature. ERC-721, ERC-1155 and legacy NFTs arrive (ERC-20 never), grouped per block, filtered;
// a reorg that undoes a delivered transfer sends it again with `log.removed: true`.

const NETWORK = 'crucible-testnet';
const CHAIN_ID = 7357001;
const OWNER = 'acct_chain';

describe.each(databaseEngines())('NFT_ACTIVITY webhooks from a real chain on $name', (engine) => {
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
    receiver.received.filter((entry) => entry.payload.webhookId === webhookId).map((entry) => entry.payload.event.activity as ActivityItem[]);
  const delivered = async (store: WebhookStore, webhookId: string, count: number) =>
    waitFor(async () => (await store.deliveries(OWNER, webhookId, { limit: 100, status: 'delivered' })).deliveries.length >= count);

  it('sends each block’s NFT transfers as one signed delivery, in block order, filtered, never ERC-20', async () => {
    const { anvil, database, receiver, store, tokens, move, owner, alice, bob, start } = await setUp();
    const all = await store.create(OWNER, { type: 'NFT_ACTIVITY', network: NETWORK, url: receiver.url });
    const relicTwo = await store.create(OWNER, {
      type: 'NFT_ACTIVITY',
      network: NETWORK,
      url: receiver.url,
      filters: { contractAddresses: [tokens.relics], tokenIds: ['0x2'] },
    });
    for (const hook of [all, relicTwo]) receiver.keys.set(hook.id, hook.signingKey);

    await move.mintRelics(owner, alice, [1n, 2n]);
    await move.erc20(owner, alice, 5n);
    await move.mintMaterials(owner, alice, [7n, 8n], [3n, 4n]);
    await move.assignPunks(owner, alice, [0n]);
    await move.moveRelic(alice, bob, 2n);
    start();
    await waitForIndexed(database.db, NETWORK, anvil.client);
    await delivered(store, all.id, 4);
    await delivered(store, relicTwo.id, 2);

    expect(receiver.received.every((entry) => entry.signatureValid && entry.timestampValid && entry.headers['content-type'] === 'application/json')).toBe(true);
    const blocks = activityOf(receiver, all.id);
    expect(blocks.map((items) => items.map((item) => [item.category, item.erc721TokenId, item.erc1155Metadata]))).toEqual([
      [
        ['erc721', '0x1', null],
        ['erc721', '0x2', null],
      ],
      [
        ['erc1155', null, [{ tokenId: '0x7', value: '0x3' }]],
        ['erc1155', null, [{ tokenId: '0x8', value: '0x4' }]],
      ],
      [['token', '0x0', null]],
      [['erc721', '0x2', null]],
    ]);
    const numbers = blocks.map((items) => Number(BigInt(items[0]!.blockNum)));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    const move2 = blocks[3]![0]!;
    expect(move2).toMatchObject({
      fromAddress: alice.toLowerCase(),
      toAddress: bob.toLowerCase(),
      contractAddress: tokens.relics.toLowerCase(),
      log: { address: tokens.relics.toLowerCase(), blockNumber: move2.blockNum, transactionHash: move2.hash, removed: false },
    });
    const receipt = await anvil.client.getTransactionReceipt({ hash: move2.hash as `0x${string}` });
    expect(Number(receipt.blockNumber)).toBe(Number(BigInt(move2.blockNum)));
    expect(activityOf(receiver, relicTwo.id).map((items) => items.map((item) => [item.erc721TokenId, item.toAddress]))).toEqual([
      [['0x2', alice.toLowerCase()]],
      [['0x2', bob.toLowerCase()]],
    ]);
    const first = receiver.received[0]!.payload;
    expect(Object.keys(first).sort()).toEqual(['createdAt', 'event', 'id', 'type', 'webhookId']);
    expect(first).toMatchObject({ type: 'NFT_ACTIVITY', event: { network: NETWORK } });
  });

  it('a reorg that undoes a delivered transfer sends it again with log.removed: true', async () => {
    const { anvil, database, receiver, store, move, owner, alice, bob, carol, start } = await setUp();
    const hook = await store.create(OWNER, { type: 'NFT_ACTIVITY', network: NETWORK, url: receiver.url });
    receiver.keys.set(hook.id, hook.signingKey);
    await move.mintRelics(owner, alice, [1n]);
    start();
    await waitForIndexed(database.db, NETWORK, anvil.client);
    await delivered(store, hook.id, 1);
    const fork = await anvil.client.snapshot();

    await move.moveRelic(alice, bob, 1n);
    await waitForIndexed(database.db, NETWORK, anvil.client);
    await delivered(store, hook.id, 2);
    const [undone] = activityOf(receiver, hook.id)[1]!;

    await anvil.client.revert({ id: fork });
    await move.moveRelic(alice, carol, 1n);
    await anvil.client.mine({ blocks: 2 });
    await waitForIndexed(database.db, NETWORK, anvil.client);
    await delivered(store, hook.id, 4);

    const blocks = activityOf(receiver, hook.id);
    expect(blocks.map((items) => items.map((item) => [item.toAddress, item.log.removed]))).toEqual([
      [[alice.toLowerCase(), false]],
      [[bob.toLowerCase(), false]],
      [[bob.toLowerCase(), true]],
      [[carol.toLowerCase(), false]],
    ]);
    expect(blocks[2]![0]).toEqual({ ...undone, log: { ...undone!.log, removed: true } });
    expect(receiver.received.every((entry) => entry.signatureValid && entry.timestampValid)).toBe(true);
  });
});
