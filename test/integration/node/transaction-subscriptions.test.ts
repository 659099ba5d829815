import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Alchemy, AlchemySubscription, Network } from 'alchemy-sdk';
import type { Address, Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadAppKeySecret } from '../../../src/apps/key-secret.ts';
import { createAppStore } from '../../../src/apps/store.ts';
import { openDatabase } from '../../../src/db/open.ts';
import { randomAddress, startTestAnvil, type TestAnvil } from '../../support/anvil.ts';
import { writeFixtureDist, type FixtureDist } from '../../support/fixture-dist.ts';
import { RpcSocket } from '../../support/rpc-socket.ts';
import { startBuiltSite, type BuiltSite } from '../../support/site.ts';
import { startWsProxy, type WsProxy } from '../../support/ws-proxy.ts';

// The transactions subscriptions (docs/json-rpc.md#subscriptions): eth_subscribe
// "alchemy_pendingTransactions" and "alchemy_minedTransactions" (also crucible_…) through the
// production server (`node src/server/main.ts`), by alchemy-sdk's ws namespace and by a bare `ws`
// client, on real anvils that mine only when a test says so. Each anvil sits behind a WebSocket
// pass-through that counts the subscriptions the server makes upstream. A second network's
// pass-through drops the full-transactions flag of newPendingTransactions, as a node that announces
// hashes only would.

const NETWORK = 'base-sepolia';
const CHAIN_ID = 84532;
/** The network whose upstream announces pending transactions by hash only. */
const HASHES_NETWORK = 'optimism-sepolia';
const HASHES_CHAIN_ID = 11155420;
/** anvil's first two dev accounts: unlocked and funded, so tests send transactions to anvil directly. */
const SENDER: Address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const OTHER_SENDER: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
/** The most distinct subscriptions (topics) one key holds in this suite (NODE_WS_MAX_TOPICS_PER_KEY). */
const MAX_TOPICS = 12;
const wait = { timeout: 30_000, interval: 20 };

let dir: string;
let fixture: FixtureDist;
let chain: TestAnvil;
let proxy: WsProxy;
let hashesChain: TestAnvil;
let hashesProxy: WsProxy;
let server: BuiltSite;
/** One app per test, so each test's topics count on a key of its own. */
let keys: string[];
let nextKey = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'crucible-tx-subscriptions-'));
  fixture = await writeFixtureDist();
  [chain, hashesChain] = await Promise.all([
    startTestAnvil({ chainId: CHAIN_ID, extraArgs: ['--no-mining'] }),
    startTestAnvil({ chainId: HASHES_CHAIN_ID, extraArgs: ['--no-mining'] }),
  ]);
  [proxy, hashesProxy] = await Promise.all([startWsProxy(chain.rpcUrl), startWsProxy(hashesChain.rpcUrl, { pendingHashesOnly: true })]);
  const databasePath = join(dir, 'crucible.sqlite');
  const database = await openDatabase({ engine: 'sqlite', path: databasePath });
  const apps = createAppStore(database, {
    keySecret: await loadAppKeySecret({ engine: 'sqlite', path: databasePath, appKeySecret: null }),
    networks: [NETWORK, HASHES_NETWORK],
  });
  keys = [];
  for (let i = 0; i < 10; i++) keys.push((await apps.create({ name: `transactions subscriptions ${i}`, computeUnitsPerSecond: 100_000 })).key);
  await database.close();
  server = await startBuiltSite({
    distDir: fixture.distDir,
    env: {
      DATABASE_PATH: databasePath,
      NODE_UPSTREAMS_BASE_SEPOLIA: proxy.url,
      NODE_UPSTREAMS_OPTIMISM_SEPOLIA: hashesProxy.url,
      NODE_WS_MAX_TOPICS_PER_KEY: String(MAX_TOPICS),
    },
  });
});

afterAll(async () => {
  await server?.stop();
  await Promise.all([proxy?.close(), hashesProxy?.close()]);
  await Promise.all([chain?.stop(), hashesChain?.stop()]);
  if (fixture) await rm(fixture.root, { recursive: true, force: true });
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A key of its own for the test that asks. */
const freshKey = () => keys[nextKey++]!;
const nodeUrl = (key: string, network = NETWORK) => `${server.origin}/node/${network}/v2/${key}`;
const wsUrl = (key: string, network = NETWORK) => nodeUrl(key, network).replace(/^http/, 'ws');

/** Sends a value transfer to anvil (it stays pending until a test mines). */
const send = (from: Address, to: Address, on = chain) => on.client.sendTransaction({ account: from, to, value: 1n, chain: null });
const mine = (on = chain) => on.client.mine({ blocks: 1 });

interface NodeTransaction {
  hash: Hex;
  from: string;
  to: string | null;
  blockHash: string | null;
  blockNumber: string | null;
}
interface MinedNotification {
  removed: boolean;
  transaction: NodeTransaction;
}
const hashesOf = (results: unknown[]) =>
  results.map((result) => (typeof result === 'string' ? result : ((result as MinedNotification).transaction ?? (result as NodeTransaction)).hash));

/** An anvil method viem's test client does not name. */
const anvilCall = (method: string, params: unknown[]) =>
  fetch(chain.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });

/** alchemy-sdk's ws namespace on a key (its `network` must be the Network of the server's chain id). */
function sdkOn(key: string) {
  const alchemy = new Alchemy({ url: nodeUrl(key), network: Network.BASE_SEPOLIA });
  return {
    ws: alchemy.ws,
    /**
     * Waits until the server has answered `count` of the SDK's eth_subscribe calls. `ws.on` subscribes
     * in the background and offers nothing to wait on, so this reads its provider's subscription ids
     * (ethers' `_subIds`, one promise per subscription), as the SDK itself awaits them.
     */
    async subscribed(count: number) {
      const provider = (await alchemy.config.getWebSocketProvider()) as unknown as { _subIds: Record<string, Promise<string>> };
      const ids = await vi.waitFor(() => {
        const made = Object.values(provider._subIds);
        if (made.length < count) throw new Error(`${made.length} of ${count} subscriptions asked for yet`);
        return made;
      }, wait);
      await Promise.all(ids);
    },
    /** Hangs up (ws.removeAllListeners would send its eth_unsubscribe calls in the background, after the hang-up). */
    async close() {
      await (await alchemy.config.getWebSocketProvider()).destroy();
    },
  };
}

/** Collects what a listener receives. */
function collector<T>() {
  const received: T[] = [];
  return {
    received,
    listener: (value: T) => void received.push(value),
    until: (count: number) =>
      vi.waitFor(() => {
        if (received.length < count) throw new Error(`${received.length} of ${count} yet`);
        return received;
      }, wait),
  };
}

describe('one upstream feed per network', () => {
  it('many subscribers with many filters, by alchemy-sdk and bare clients, rest on one newPendingTransactions and one newHeads upstream', async () => {
    const key = freshKey();
    const recipient = randomAddress();
    const [first, second] = await Promise.all([RpcSocket.open(wsUrl(key)), RpcSocket.open(wsUrl(key))]);
    const sdk = sdkOn(key);
    const sdkPending = collector<NodeTransaction>();
    const sdkMined = collector<MinedNotification>();
    sdk.ws.on({ method: AlchemySubscription.PENDING_TRANSACTIONS, toAddress: recipient }, sdkPending.listener);
    sdk.ws.on({ method: AlchemySubscription.MINED_TRANSACTIONS, addresses: [{ to: recipient }] }, sdkMined.listener);
    await sdk.subscribed(2);
    const subscriptions = await Promise.all([
      first.subscribe('alchemy_pendingTransactions'),
      first.subscribe('alchemy_pendingTransactions', { fromAddress: SENDER, hashesOnly: true }),
      second.subscribe('crucible_pendingTransactions', { toAddress: [recipient, randomAddress()] }),
      first.subscribe('alchemy_minedTransactions'),
      second.subscribe('alchemy_minedTransactions', { addresses: [{ from: SENDER, to: recipient }], includeRemoved: true }),
      second.subscribe('crucible_minedTransactions', { addresses: [{ from: OTHER_SENDER }], hashesOnly: true }),
    ]);
    expect(new Set(subscriptions).size).toBe(subscriptions.length);

    // Every subscriber hears of the transaction: so every subscription is served.
    const hash = await send(SENDER, recipient);
    await Promise.all([sdkPending.until(1), ...subscriptions.slice(0, 3).map((id, i) => [first, first, second][i]!.until(id, 1))]);
    await mine();
    await Promise.all([sdkMined.until(1), first.until(subscriptions[3]!, 1), second.until(subscriptions[4]!, 1)]);
    expect(hashesOf([...sdkPending.received, ...sdkMined.received])).toEqual([hash, hash]);

    // The transactions kinds are never sent upstream as they are: the first subscriptions of the suite are these two.
    const upstream = proxy.requests.filter((request) => request.method === 'eth_subscribe').map((request) => request.params);
    expect(upstream).toHaveLength(2);
    expect(upstream).toEqual(expect.arrayContaining([['newPendingTransactions', true], ['newHeads']]));
    await Promise.all([first.close(), second.close(), sdk.close()]);
  });
});

describe('alchemy_pendingTransactions', () => {
  it('alchemy-sdk gets the whole pending transaction; hashesOnly sends its hash', async () => {
    const key = freshKey();
    const recipient = randomAddress();
    const sdk = sdkOn(key);
    const whole = collector<NodeTransaction>();
    const hashes = collector<string>();
    sdk.ws.on({ method: AlchemySubscription.PENDING_TRANSACTIONS, toAddress: recipient }, whole.listener);
    sdk.ws.on({ method: AlchemySubscription.PENDING_TRANSACTIONS, toAddress: recipient, hashesOnly: true }, hashes.listener);
    await sdk.subscribed(2);
    const client = await RpcSocket.open(wsUrl(key));
    const id = await client.subscribe('alchemy_pendingTransactions', { toAddress: recipient, hashesOnly: true });

    const hash = await send(SENDER, recipient);
    const [received] = await whole.until(1);
    expect(received).toMatchObject({ hash, from: SENDER.toLowerCase(), to: recipient.toLowerCase(), blockHash: null, blockNumber: null });
    expect(await hashes.until(1)).toEqual([hash]);
    expect(await client.until(id, 1)).toEqual([hash]);
    await mine();
    await Promise.all([sdk.close(), client.close()]);
  });

  it('a transaction the filter does not match is never sent: a later matching one is, alone', async () => {
    const client = await RpcSocket.open(wsUrl(freshKey()));
    const [watched, recipient] = [randomAddress(), randomAddress()];
    const bySender = await client.subscribe('alchemy_pendingTransactions', { fromAddress: [OTHER_SENDER], hashesOnly: true });
    const byRecipient = await client.subscribe('alchemy_pendingTransactions', { toAddress: watched.toLowerCase(), hashesOnly: true });
    const everything = await client.subscribe('alchemy_pendingTransactions', { hashesOnly: true });

    const unmatched = await send(SENDER, recipient);
    const toWatched = await send(SENDER, watched);
    const fromOther = await send(OTHER_SENDER, recipient);
    // Notifications keep the order of their events: the unfiltered subscription has all three.
    expect(await client.until(everything, 3)).toEqual([unmatched, toWatched, fromOther]);
    expect(await client.until(byRecipient, 1)).toEqual([toWatched]);
    expect(await client.until(bySender, 1)).toEqual([fromOther]);
    await mine();
    await client.close();
  });

  it('an upstream that announces hashes only: each transaction is read by hash and sent whole', async () => {
    const client = await RpcSocket.open(wsUrl(freshKey(), HASHES_NETWORK));
    const recipient = randomAddress();
    const whole = await client.subscribe('alchemy_pendingTransactions', { toAddress: recipient });
    const hash = await send(SENDER, recipient, hashesChain);
    const [received] = (await client.until(whole, 1)) as NodeTransaction[];
    expect(received).toMatchObject({ hash, from: SENDER.toLowerCase(), to: recipient.toLowerCase() });
    // The pass-through asked anvil for hashes, and the server read the transaction on the same upstream connection.
    expect(hashesProxy.requests).toContainEqual({ method: 'eth_getTransactionByHash', params: [hash] });
    await mine(hashesChain);
    await client.close();
  });
});

describe('alchemy_minedTransactions', () => {
  it('a transaction is sent once its block is mined, as {removed: false, transaction}; one the filter does not match never is', async () => {
    const key = freshKey();
    const recipient = randomAddress();
    const client = await RpcSocket.open(wsUrl(key));
    const sdk = sdkOn(key);
    const sdkMined = collector<MinedNotification>();
    sdk.ws.on({ method: AlchemySubscription.MINED_TRANSACTIONS, addresses: [{ from: SENDER, to: recipient }] }, sdkMined.listener);
    await sdk.subscribed(1);
    const pending = await client.subscribe('alchemy_pendingTransactions', { hashesOnly: true });
    const mined = await client.subscribe('alchemy_minedTransactions', { addresses: [{ from: SENDER, to: recipient }] });
    const hashesOnly = await client.subscribe('alchemy_minedTransactions', { addresses: [{ to: recipient }], hashesOnly: true });

    // Same sender, another recipient; and the recipient, from another sender (the pair does not match, {to} does).
    const unmatched = await send(SENDER, randomAddress());
    const otherSender = await send(OTHER_SENDER, recipient);
    await client.until(pending, 2);
    // Pending, not mined: nothing yet.
    expect(client.notifications(mined)).toEqual([]);
    await mine();
    const matched = await send(SENDER, recipient);
    await client.until(pending, 3);
    await mine();

    const [notification] = (await client.until(mined, 1)) as MinedNotification[];
    expect(notification).toMatchObject({ removed: false, transaction: { hash: matched, from: SENDER.toLowerCase(), to: recipient.toLowerCase() } });
    expect(notification!.transaction.blockHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await client.until(hashesOnly, 2)).toEqual([
      { removed: false, transaction: { hash: otherSender } },
      { removed: false, transaction: { hash: matched } },
    ]);
    expect(hashesOf(await sdkMined.until(1))).toEqual([matched]);
    // The matched transaction's block came after the unmatched one's: had that been sent, it would be here first.
    expect(hashesOf(client.notifications(mined))).toEqual([matched]);
    expect(hashesOf(sdkMined.received)).toEqual([matched]);
    expect(hashesOf(client.notifications(hashesOnly))).not.toContain(unmatched);
    await Promise.all([client.close(), sdk.close()]);
  });

  it('with includeRemoved, a reorganisation sends the transactions of the replaced block again with removed: true', async () => {
    const client = await RpcSocket.open(wsUrl(freshKey()));
    const recipient = randomAddress();
    const withRemoved = await client.subscribe('alchemy_minedTransactions', { addresses: [{ to: recipient }], includeRemoved: true });
    const withoutRemoved = await client.subscribe('alchemy_minedTransactions', { addresses: [{ to: recipient }], hashesOnly: true });

    const undone = await send(SENDER, recipient);
    await mine();
    await client.until(withRemoved, 1);
    await client.until(withoutRemoved, 1);
    // The block is replaced by an empty one at the same height: its transaction is gone from the chain.
    expect((await (await anvilCall('anvil_reorg', [1, []])).json()).error).toBeUndefined();
    const [, removed] = (await client.until(withRemoved, 2)) as MinedNotification[];
    expect(removed).toMatchObject({ removed: true, transaction: { hash: undone, to: recipient.toLowerCase() } });

    const kept = await send(SENDER, recipient);
    await mine();
    expect(hashesOf(await client.until(withRemoved, 3))).toEqual([undone, undone, kept]);
    expect((client.notifications(withRemoved) as MinedNotification[]).map((entry) => entry.removed)).toEqual([false, true, false]);
    // Without includeRemoved the removal is never sent: the next transaction follows the first.
    expect(await client.until(withoutRemoved, 2)).toEqual([
      { removed: false, transaction: { hash: undone } },
      { removed: false, transaction: { hash: kept } },
    ]);
    await client.close();
  });
});

describe('refusals', () => {
  it('bad filters are -32602 naming the field, before anything is subscribed upstream', async () => {
    const client = await RpcSocket.open(wsUrl(freshKey()));
    const subscribedBefore = proxy.requests.filter((request) => request.method === 'eth_subscribe').length;
    const refusals: Array<[unknown[], string]> = [
      [
        ['alchemy_pendingTransactions', { fromAddress: [SENDER, '0x1'] }],
        'invalid params: [1] options.fromAddress[1] must be a 20-byte address: "0x" and 40 hex digits',
      ],
      [['alchemy_pendingTransactions', { hashesOnly: 'yes' }], 'invalid params: [1] options.hashesOnly must be true or false'],
      [
        ['alchemy_pendingTransactions', true],
        'invalid params: [1] options must be a filter {"fromAddress", "toAddress", "hashesOnly"} for "alchemy_pendingTransactions"',
      ],
      [['alchemy_minedTransactions', { addresses: [{ from: SENDER }, {}] }], 'invalid params: [1] options.addresses[1] must have "from", "to" or both'],
      [['crucible_minedTransactions', { addresses: { to: SENDER } }], 'invalid params: [1] options.addresses must be a list of {"from", "to"}'],
      [['alchemy_minedTransactions', { includeRemoved: 1 }], 'invalid params: [1] options.includeRemoved must be true or false'],
      [
        ['alchemy_minedTransactions', { addresses: Array.from({ length: 1_001 }, () => ({ to: SENDER })) }],
        'invalid params: [1] options.addresses has 1001 addresses; a transactions filter may name at most 1000 in total',
      ],
      [
        ['alchemy_newFullPendingTransactions'],
        'invalid params: [0] subscription must be "newHeads", "logs", "newPendingTransactions", "crucible_pendingTransactions" or "crucible_minedTransactions" (also named alchemy_pendingTransactions, alchemy_minedTransactions)',
      ],
    ];
    for (const [params, message] of refusals) {
      const answer = await client.call('eth_subscribe', params);
      expect(answer.error, JSON.stringify(params).slice(0, 100)).toEqual({ code: -32602, message });
    }
    expect(proxy.requests.filter((request) => request.method === 'eth_subscribe').length).toBe(subscribedBefore);
    await client.close();
  });

  it('each distinct filter is one of the key’s topics; the same filter spelled differently is the same topic', async () => {
    const client = await RpcSocket.open(wsUrl(freshKey()));
    const recipients = Array.from({ length: MAX_TOPICS }, () => randomAddress());
    for (const recipient of recipients) await client.subscribe('alchemy_minedTransactions', { addresses: [{ to: recipient }] });
    // The same filter under the other name, with the address in another case: no new topic.
    await client.subscribe('crucible_minedTransactions', { addresses: [{ to: recipients[0]!.toLowerCase() }], includeRemoved: false });
    const refused = await client.call('eth_subscribe', ['alchemy_pendingTransactions', { toAddress: recipients[0] }]);
    expect(refused.error?.code).toBe(-32005);
    expect(refused.error?.message).toContain(String(MAX_TOPICS));
    await client.close();
  });
});
