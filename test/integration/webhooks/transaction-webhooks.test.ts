import { rm } from 'node:fs/promises';
import { Alchemy, Network, WebhookType } from 'alchemy-sdk';
import { createWalletClient, http, parseGwei, publicActions, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { sepolia } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/open.ts';
import { randomAddress, startTestAnvil, THIRD_PARTY_KEY, type TestAnvil } from '../../support/anvil.ts';
import { until } from '../../support/crash.ts';
import { writeFixtureDist, type FixtureDist } from '../../support/fixture-dist.ts';
import { databaseEngines } from '../../support/postgres.ts';
import { startBuiltSite, type BuiltSite } from '../../support/site.ts';
import { databaseEnv, prepareAccount, type NotifyAccount } from './notify-site.ts';
import { startReceiver, type Received, type TestReceiver } from './receiver.ts';

// MINED_TRANSACTION and DROPPED_TRANSACTION through the production server on both engines: an app's
// key broadcasts through the gateway (viem signing, as a wallet backend does), the webhooks made with
// alchemy-sdk's notify namespace hear, signed, on a receiver on loopback, when each transaction is
// mined, replaced by another of its sender and nonce, evicted from the node's mempool, or taken
// away by a reorg. The chain is a real anvil that mines only when a test says.

const NETWORK = 'ethereum-sepolia';
const DROPPED_AFTER_MS = 1500;

let fixture: FixtureDist;
beforeAll(async () => {
  fixture = await writeFixtureDist();
});
afterAll(async () => {
  if (fixture) await rm(fixture.root, { recursive: true, force: true });
});

interface TransactionPayload {
  appId: string;
  network: string;
  transaction: { hash: string; from: string; nonce: string; blockHash: string | null; blockNumber: string | null };
  removed?: boolean;
  reason?: 'replaced' | 'evicted';
}

describe.each(databaseEngines())('transaction webhooks through the server on $name', (engine) => {
  let anvil: TestAnvil;
  let server: BuiltSite;
  let database: Database;
  let account: NotifyAccount;
  let receiver: TestReceiver;
  let mined: string;
  let dropped: string;
  let serverEnv: Record<string, string>;
  beforeAll(async () => {
    anvil = await startTestAnvil({ chainId: sepolia.id, extraArgs: ['--no-mining'] });
    const location = await engine.location();
    ({ database, account } = await prepareAccount(location, [NETWORK]));
    receiver = await startReceiver();
    serverEnv = {
      ...databaseEnv(location),
      NODE_UPSTREAMS_ETHEREUM_SEPOLIA: anvil.rpcUrl,
      WEBHOOK_TX_POLL_INTERVAL_MS: '100',
      WEBHOOK_TX_DROPPED_AFTER_MS: String(DROPPED_AFTER_MS),
      WEBHOOK_TX_REORG_DEPTH: '4',
      WEBHOOK_POLL_INTERVAL_MS: '50',
      WEBHOOK_RETRY_DELAYS_MS: '50,50,50,50',
      PRICES_IN_SERVER: 'off',
      NFT_METADATA_IN_SERVER: 'off',
    };
    server = await startBuiltSite({ distDir: fixture.distDir, env: serverEnv });
    const alchemy = new Alchemy({ url: `${server.origin}/api/notify`, authToken: account.token, network: Network.ETH_SEPOLIA, maxRetries: 1 });
    const minedHook = await alchemy.notify.createWebhook(receiver.url, WebhookType.MINED_TRANSACTION, { appId: account.app.id });
    const droppedHook = await alchemy.notify.createWebhook(receiver.url, WebhookType.DROPPED_TRANSACTION, { appId: account.app.id });
    for (const hook of [minedHook, droppedHook]) receiver.keys.set(hook.id, hook.signingKey);
    mined = minedHook.id;
    dropped = droppedHook.id;
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
    await database?.close();
    await anvil?.stop();
  });

  /** A wallet on the app's key: every call it makes goes through the gateway. */
  const wallet = () =>
    createWalletClient({
      account: privateKeyToAccount(THIRD_PARTY_KEY),
      chain: sepolia,
      transport: http(`${server.origin}/node/${NETWORK}/v2/${account.app.key}`),
    }).extend(publicActions);
  const received = (hookId: string) => receiver.received.filter((entry) => entry.payload.webhookId === hookId);
  const eventOf = (entry: Received) => entry.payload.event as unknown as TransactionPayload;
  const heard = (hookId: string, hash: Hex, match: (event: TransactionPayload) => boolean = () => true) =>
    until(`a delivery to ${hookId} about ${hash}`, async () =>
      received(hookId).find((entry) => eventOf(entry).transaction.hash === hash.toLowerCase() && match(eventOf(entry))),
    );

  it('tells the app’s MINED_TRANSACTION webhook when its transaction is mined, with the node’s transaction', async () => {
    const client = wallet();
    const hash = await client.sendTransaction({ to: randomAddress(), value: 1n });
    await anvil.client.mine({ blocks: 1 });
    const entry = await heard(mined, hash);
    expect(entry.signatureValid && entry.timestampValid).toBe(true);
    expect(entry.payload.type).toBe('MINED_TRANSACTION');
    const receipt = await anvil.client.getTransactionReceipt({ hash });
    expect(eventOf(entry)).toMatchObject({
      appId: account.app.id,
      network: NETWORK,
      transaction: { hash, from: client.account.address.toLowerCase(), blockHash: receipt.blockHash, blockNumber: `0x${receipt.blockNumber.toString(16)}` },
    });
    expect(eventOf(entry).removed).toBeUndefined();
    expect(received(dropped).some((other) => eventOf(other).transaction.hash === hash)).toBe(false);
  });

  it('tells DROPPED_TRANSACTION when another transaction of the sender and nonce replaced it, and MINED of the other', async () => {
    const client = wallet();
    const nonce = await client.getTransactionCount({ address: client.account.address, blockTag: 'pending' });
    const first = await client.sendTransaction({ to: randomAddress(), value: 1n, nonce, gasPrice: parseGwei('2'), type: 'legacy' });
    const second = await client.sendTransaction({ to: randomAddress(), value: 2n, nonce, gasPrice: parseGwei('5'), type: 'legacy' });
    await anvil.client.mine({ blocks: 1 });
    const gone = await heard(dropped, first);
    expect(eventOf(gone)).toMatchObject({
      appId: account.app.id,
      network: NETWORK,
      reason: 'replaced',
      transaction: { hash: first, from: client.account.address.toLowerCase(), nonce: `0x${nonce.toString(16)}`, blockHash: null, blockNumber: null },
    });
    expect(gone.signatureValid && gone.timestampValid).toBe(true);
    await heard(mined, second);
    expect(received(mined).some((entry) => eventOf(entry).transaction.hash === first)).toBe(false);
  });

  it('tells DROPPED_TRANSACTION, evicted, when the node no longer knows it past WEBHOOK_TX_DROPPED_AFTER_MS', async () => {
    const client = wallet();
    const hash = await client.sendTransaction({ to: randomAddress(), value: 3n });
    await anvil.client.dropTransaction({ hash });
    const entry = await heard(dropped, hash);
    expect(eventOf(entry)).toMatchObject({ reason: 'evicted', transaction: { hash, from: client.account.address.toLowerCase(), blockHash: null } });
    expect(entry.signatureValid && entry.timestampValid).toBe(true);
  });

  it('tells MINED_TRANSACTION again, removed, when a reorg takes its block away', async () => {
    const client = wallet();
    const fork = await anvil.client.snapshot();
    const hash = await client.sendTransaction({ to: randomAddress(), value: 4n });
    await anvil.client.mine({ blocks: 1 });
    const first = await heard(mined, hash, (event) => event.removed === undefined);
    await anvil.client.revert({ id: fork });
    await anvil.client.mine({ blocks: 2 });
    const undone = await heard(mined, hash, (event) => event.removed === true);
    expect(eventOf(undone).transaction).toMatchObject({ hash, blockHash: eventOf(first).transaction.blockHash });
    expect(undone.signatureValid && undone.timestampValid).toBe(true);
    // Watched as pending again: mined again, or dropped once the node has forgotten it.
    await until('the transaction settled again', async () =>
      [...received(mined), ...received(dropped)].find(
        (entry) => eventOf(entry).transaction.hash === hash && entry.payload.id !== first.payload.id && entry.payload.id !== undone.payload.id,
      ),
    );
  });

  it('hears nothing of the demo key’s broadcasts, which are not recorded', async () => {
    const demo = createWalletClient({
      account: privateKeyToAccount(THIRD_PARTY_KEY),
      chain: sepolia,
      transport: http(`${server.origin}/node/${NETWORK}/v2/demo`),
    });
    const hash = await demo.sendTransaction({ to: randomAddress(), value: 5n });
    await anvil.client.mine({ blocks: 1 });
    const after = wallet();
    const marker = await after.sendTransaction({ to: randomAddress(), value: 6n });
    await anvil.client.mine({ blocks: 1 });
    await heard(mined, marker);
    expect(receiver.received.some((entry) => eventOf(entry).transaction?.hash === hash)).toBe(false);
    const recorded = await database.db.selectFrom('broadcast_transactions').select('hash').where('hash', '=', hash.toLowerCase()).execute();
    expect(recorded).toEqual([]);
  });

  it('settles after a restart what was broadcast before it: the server started again tells DROPPED_TRANSACTION and MINED_TRANSACTION', async () => {
    const client = wallet();
    // The one mined first in nonce order: the other, dropped, leaves no gap before it.
    const kept = await client.sendTransaction({ to: randomAddress(), value: 7n });
    const gone = await client.sendTransaction({ to: randomAddress(), value: 8n });
    await server.stop();
    // While no server runs: the node forgets one and mines the other.
    await anvil.client.dropTransaction({ hash: gone });
    await anvil.client.mine({ blocks: 1 });
    server = await startBuiltSite({ distDir: fixture.distDir, env: serverEnv });
    const evicted = await heard(dropped, gone);
    expect(eventOf(evicted)).toMatchObject({ reason: 'evicted', transaction: { hash: gone, blockHash: null } });
    const settled = await heard(mined, kept);
    expect(eventOf(settled).transaction.blockNumber).not.toBeNull();
    expect([evicted, settled].every((entry) => entry.signatureValid && entry.timestampValid)).toBe(true);
  });
});
