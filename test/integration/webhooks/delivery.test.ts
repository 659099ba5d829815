import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/open.ts';
import { NON_PUBLIC_ADDRESSES } from '../../../src/net/blocked-addresses.ts';
import type { NftMetadataRecord } from '../../../src/nfts/nft-sources.ts';
import { enqueueMetadataUpdate } from '../../../src/webhooks/outbox.ts';
import { pausedForFailuresReason, type DeliveryWorkerOptions } from '../../../src/webhooks/delivery-worker.ts';
import { createWebhookStore, type WebhookStore } from '../../../src/webhooks/store.ts';
import { databaseEngines } from '../../support/postgres.ts';
import { waitFor } from '../indexer/token-chain.ts';
import { startFastWorker } from './fast-worker.ts';
import { CONTRACT, fillOutbox } from './outbox-fill.ts';
import { firstReceipts, startReceiver, type TestReceiver } from './receiver.ts';

// The delivery worker against a real receiver on loopback, on both engines: retries in order,
// attempts recorded, a webhook paused after repeated failures, and production's address rule.
// Retry delays are milliseconds here (configuration), never minutes.

const NETWORK = 'crucible-testnet';
const OWNER = 'acct_test';

describe.each(databaseEngines())('webhook delivery on $name', (engine) => {
  let database: Database;
  let store: WebhookStore;
  let receiver: TestReceiver;
  const stops: Array<() => Promise<unknown>> = [];

  async function setUp() {
    database = await engine.open();
    store = createWebhookStore(database.db, { networks: [NETWORK], urlRules: { local: true } });
    receiver = await startReceiver();
    stops.push(
      () => database.close(),
      () => receiver.close(),
    );
  }
  afterEach(async () => {
    for (const stop of stops.reverse()) await stop();
    stops.length = 0;
  });

  function worker(options: Partial<DeliveryWorkerOptions> = {}) {
    const running = startFastWorker(database, options);
    stops.push(() => running.stop());
    return running;
  }

  async function webhook() {
    const created = await store.create(OWNER, { type: 'NFT_ACTIVITY', network: NETWORK, url: receiver.url });
    receiver.keys.set(created.id, created.signingKey);
    return created;
  }

  it('a receiver failing three times, then recovering, gets every event once delivered, in order, each attempt recorded', async () => {
    await setUp();
    const hook = await webhook();
    await fillOutbox(database, NETWORK, [10, 11, 12, 13, 14]);
    receiver.respond = (count) => (count <= 3 ? 500 : 200);
    worker();
    await waitFor(async () => (await store.deliveries(OWNER, hook.id, { limit: 10, status: 'delivered' })).deliveries.length === 5);

    const order = (await store.deliveries(OWNER, hook.id, { limit: 10 })).deliveries.reverse();
    expect(order.map((delivery) => delivery.blockNumber)).toEqual([10, 11, 12, 13, 14]);
    // The first delivery four times (three failures, then success), and nothing else before it succeeded.
    expect(receiver.received.slice(0, 4).map((entry) => entry.payload.id)).toEqual(Array(4).fill(order[0]!.id));
    expect(firstReceipts(receiver.received)).toEqual(order.map((delivery) => delivery.id));
    expect(receiver.received).toHaveLength(8);
    expect(receiver.received.every((entry) => entry.signatureValid && entry.timestampValid)).toBe(true);
    expect(receiver.received.every((entry) => entry.timestampValid)).toBe(true);
    expect(receiver.received.map((entry) => Number(BigInt((entry.payload.event.activity as Array<{ blockNum: string }>)[0]!.blockNum)))).toEqual([
      10, 10, 10, 10, 11, 12, 13, 14,
    ]);

    const first = await store.delivery(OWNER, hook.id, order[0]!.id);
    expect(first).toMatchObject({ status: 'delivered', attempts: 4, lastHttpStatus: 200, lastError: null });
    expect(first.attemptList.map((attempt) => [attempt.attempt, attempt.outcome, attempt.httpStatus, attempt.error])).toEqual([
      [1, 'failed', 500, 'HTTP 500'],
      [2, 'failed', 500, 'HTTP 500'],
      [3, 'failed', 500, 'HTTP 500'],
      [4, 'delivered', 200, null],
    ]);
    expect(first.attemptList.every((attempt) => attempt.durationMs !== null && attempt.durationMs >= 0)).toBe(true);
    expect(first.payload).toEqual(JSON.parse(receiver.received[0]!.body));
    expect(await store.get(OWNER, hook.id)).toMatchObject({ state: 'active', consecutiveFailures: 0 });
  });

  it('signs each attempt with the time it is sent, so a receiver refuses a delivery replayed after its 5-minute window', async () => {
    await setUp();
    const hook = await webhook();
    await fillOutbox(database, NETWORK, [20]);
    // One clock for the worker and the receiver: the first attempt at t, its retry 6 minutes later
    // (the retry is due only once the clock moves).
    const t = Date.now();
    let clock = t;
    receiver.now = () => clock;
    receiver.respond = (count) => (count === 1 ? 500 : 200);
    worker({ now: () => clock });
    const attempts = async () => (await store.delivery(OWNER, hook.id, (await store.deliveries(OWNER, hook.id, { limit: 1 })).deliveries[0]!.id)).attemptList;
    await waitFor(async () => (await attempts())[0]?.outcome === 'failed');
    clock = t + 6 * 60_000;
    await waitFor(async () => (await attempts())[1]?.outcome === 'delivered');

    const [first, retry] = receiver.received;
    expect(first!.headers['x-crucible-timestamp']).toBe(String(Math.floor(t / 1000)));
    expect(retry!.headers['x-crucible-timestamp']).toBe(String(Math.floor(clock / 1000)));
    expect(retry!.body).toBe(first!.body);
    expect([first, retry].map((entry) => [entry!.signatureValid, entry!.timestampValid])).toEqual([
      [true, true],
      [true, true],
    ]);

    // Someone who captured the first attempt posts it again now: its body signature still matches,
    // its timestamp is 6 minutes old; with a fresh timestamp, the timestamped signature no longer matches.
    const signed = ['x-crucible-signature', 'x-alchemy-signature', 'x-crucible-timestamp'];
    const captured = Object.fromEntries(signed.map((name) => [name, String(first!.headers[name])]));
    const replay = (headers: Record<string, string>) =>
      fetch(receiver.url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: first!.body });
    await replay(captured);
    await replay({ ...captured, 'x-crucible-timestamp': String(Math.floor(clock / 1000)) });
    expect(receiver.received.slice(2).map((entry) => [entry.signatureValid, entry.timestampValid])).toEqual([
      [true, false],
      [true, false],
    ]);
  });

  it('a delivery that fails every retry is recorded as failed; repeated failures pause the webhook and say why', async () => {
    await setUp();
    const hook = await webhook();
    await fillOutbox(database, NETWORK, [1, 2, 3]);
    receiver.respond = () => 503;
    worker({ retryDelaysMs: [5, 5], pauseAfterFailures: 2 });
    await waitFor(async () => (await store.get(OWNER, hook.id)).state === 'paused');

    expect(await store.get(OWNER, hook.id)).toMatchObject({ state: 'paused', pausedReason: pausedForFailuresReason(2), consecutiveFailures: 2 });
    const page = await store.deliveries(OWNER, hook.id, { limit: 10 });
    expect(page.deliveries.map((delivery) => [delivery.blockNumber, delivery.status, delivery.attempts])).toEqual([
      [3, 'pending', 0],
      [2, 'failed', 3],
      [1, 'failed', 3],
    ]);
    // Paused: the third waits, unsent.
    expect(receiver.received).toHaveLength(6);

    // Resumed with a receiver that works: the queue goes on.
    receiver.respond = () => 200;
    expect(await store.resume(OWNER, hook.id)).toMatchObject({ state: 'active', pausedReason: null, consecutiveFailures: 0 });
    await waitFor(async () => (await store.deliveries(OWNER, hook.id, { limit: 1 })).deliveries[0]!.status === 'delivered');
    expect(receiver.received).toHaveLength(7);
  });

  it('a receiver that does not answer in time fails the attempt with the reason', async () => {
    await setUp();
    const hook = await webhook();
    await fillOutbox(database, NETWORK, [7]);
    receiver.respond = (count) => (count === 1 ? 'hold' : 200);
    worker({ timeoutMs: 300 });
    await waitFor(async () => (await store.deliveries(OWNER, hook.id, { limit: 1 })).deliveries[0]!.status === 'delivered');
    const [delivery] = (await store.deliveries(OWNER, hook.id, { limit: 1 })).deliveries;
    const detail = await store.delivery(OWNER, hook.id, delivery!.id);
    expect(detail.attemptList.map((attempt) => [attempt.outcome, attempt.error])).toEqual([
      ['failed', 'no answer within 300 ms'],
      ['delivered', null],
    ]);
  });

  it('in production no delivery connects to a loopback address, by name or by IP', async () => {
    await setUp();
    const byIp = await webhook();
    const byName = await store.create(OWNER, { type: 'NFT_ACTIVITY', network: NETWORK, url: receiver.url.replace('127.0.0.1', 'localhost') });
    await fillOutbox(database, NETWORK, [5]);
    worker({ blockedAddresses: NON_PUBLIC_ADDRESSES, retryDelaysMs: [] });
    for (const hook of [byIp, byName]) {
      await waitFor(async () => (await store.deliveries(OWNER, hook.id, { limit: 1 })).deliveries[0]!.status === 'failed');
    }
    expect(receiver.received).toHaveLength(0);
    const [ipDelivery] = (await store.deliveries(OWNER, byIp.id, { limit: 1 })).deliveries;
    expect(ipDelivery!.lastError).toBe('blocked address 127.0.0.1');
    const [nameDelivery] = (await store.deliveries(OWNER, byName.id, { limit: 1 })).deliveries;
    expect(nameDelivery!.lastError).toMatch(/^blocked address (127\.0\.0\.1|::1)$/);
  });

  it('in production no delivery connects to an IPv6 form of a non-public IPv4 (NAT64 of loopback)', async () => {
    await setUp();
    const nat64 = await store.create(OWNER, { type: 'NFT_ACTIVITY', network: NETWORK, url: receiver.url.replace('127.0.0.1', '[64:ff9b::7f00:1]') });
    await fillOutbox(database, NETWORK, [6]);
    worker({ blockedAddresses: NON_PUBLIC_ADDRESSES, retryDelaysMs: [], timeoutMs: 2_000 });
    await waitFor(async () => (await store.deliveries(OWNER, nat64.id, { limit: 1 })).deliveries[0]!.status === 'failed');
    expect((await store.deliveries(OWNER, nat64.id, { limit: 1 })).deliveries[0]!.lastError).toBe('blocked address 64:ff9b::7f00:1');
    expect(receiver.received).toHaveLength(0);
  });

  it('a metadata change queued in its store’s transaction reaches NFT_METADATA_UPDATE webhooks of that network and contract only', async () => {
    await setUp();
    const everyContract = await store.create(OWNER, { type: 'NFT_METADATA_UPDATE', network: NETWORK, url: receiver.url });
    const other = await store.create(OWNER, {
      type: 'NFT_METADATA_UPDATE',
      network: NETWORK,
      url: receiver.url,
      filters: { contractAddresses: ['0x0000000000000000000000000000000000000bad'] },
    });
    const activity = await webhook();
    receiver.keys.set(everyContract.id, everyContract.signingKey);
    const record = (name: string, at: number): NftMetadataRecord => ({
      tokenUri: 'https://example.com/1.json',
      rawTokenUri: 'https://example.com/{id}.json',
      metadata: { name },
      error: null,
      name,
      description: null,
      image: { cachedUrl: null, thumbnailUrl: null, pngUrl: null, contentType: null, size: null, originalUrl: 'https://example.com/1.png' },
      timeLastUpdated: at,
    });
    await database.db.transaction().execute(async (trx) => {
      await enqueueMetadataUpdate(trx, {
        network: NETWORK,
        contract: CONTRACT,
        tokenId: '1',
        kind: 'erc1155',
        before: record('Old', 0),
        after: record('New', 1000),
      });
    });
    worker();
    await waitFor(() => receiver.received.length === 1);
    await waitFor(async () => (await store.deliveries(OWNER, everyContract.id, { limit: 1 })).deliveries[0]!.status === 'delivered');

    const [entry] = receiver.received;
    expect(entry!.signatureValid).toBe(true);
    expect(entry!.payload).toMatchObject({
      webhookId: everyContract.id,
      type: 'NFT_METADATA_UPDATE',
      event: {
        network: NETWORK,
        metadataUpdates: [
          {
            contractAddress: CONTRACT,
            tokenId: '1',
            category: 'erc1155',
            before: { name: 'Old', metadata: { name: 'Old' }, imageUrl: 'https://example.com/1.png', timeLastUpdated: '1970-01-01T00:00:00.000Z' },
            after: { name: 'New', timeLastUpdated: '1970-01-01T00:00:01.000Z' },
          },
        ],
      },
    });
    for (const hook of [other, activity]) expect((await store.deliveries(OWNER, hook.id, { limit: 1 })).deliveries).toEqual([]);
  });
});
