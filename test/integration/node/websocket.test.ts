import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { WebSocketProvider } from 'ethers';
import { createPublicClient, keccak256, parseAbiItem, toHex, webSocket, type Address, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { clientIp, normalizeIp } from '../../../src/api/client-ip.ts';
import type { Router } from '../../../src/api/router.ts';
import { isDemoKey } from '../../../src/apps/demo.ts';
import { loadAppKeySecret } from '../../../src/apps/key-secret.ts';
import { createAppStore, type AppStore } from '../../../src/apps/store.ts';
import { readNodeConfig, type WebSocketSettings } from '../../../src/config/node.ts';
import { openDatabase, type Database } from '../../../src/db/open.ts';
import { createMemoryQuotaCounter } from '../../../src/limits/memory-quota.ts';
import { createMemoryRateLimiter } from '../../../src/limits/memory-rate-limiter.ts';
import { createKeyLookup } from '../../../src/admission/callers.ts';
import type { UsageRecorder } from '../../../src/admission/admission.ts';
import { startNodeRuntime, type NodeRuntime } from '../../../src/runtime/node-gateway.ts';
import { attachNodeWebSockets, type NodeWebSocketOptions, type NodeWebSockets } from '../../../src/node/websocket/attach.ts';
import { SUBSCRIPTION_UPKEEP_METHOD } from '../../../src/node/websocket/connection.ts';
import { NOTIFICATION_METHOD } from '../../../src/node/websocket/notification-charges.ts';
import { createRedisWebSocketHolds } from '../../../src/node/websocket/redis-holds.ts';
import type { WebSocketLimits } from '../../../src/node/websocket/limits.ts';
import { connectRedis, type RedisClient } from '../../../src/store/redis.ts';
import { createServerLogger } from '../../../src/server/log.ts';
import { headerValue } from '../../../src/server/node-adapter.ts';
import { createSiteServer, listen } from '../../../src/server/server.ts';
import { openStaticSite } from '../../../src/server/static-site.ts';
import { loadSurfaceRules } from '../../../src/server/surface-rules.ts';
import { loadNetworks } from '../../../src/site/read-content.ts';
import { randomAddress, startTestAnvil, type TestAnvil } from '../../support/anvil.ts';
import { writeFixtureDist, type FixtureDist } from '../../support/fixture-dist.ts';
import { startRedis, type TestRedis } from '../../support/redis.ts';
import { RpcSocket, type RpcMessage } from '../../support/rpc-socket.ts';
import { startWsProxy, type WsProxy } from '../../support/ws-proxy.ts';

// JSON-RPC over WebSocket on `{node_url}/v2/<key>` (docs/json-rpc.md#websocket), in-process: the production
// server (createSiteServer) with the node runtime and the WebSocket attachment, apps in a real
// SQLite database, and a real anvil (one block a second) behind a WebSocket pass-through that
// counts the subscriptions the gateway makes upstream and can drop its connections.

const NETWORK = 'base-sepolia';
const CHAIN_ID = 84532;
/** anvil's first dev account: unlocked and funded, so tests send transactions to anvil directly. */
const ANVIL_ACCOUNT: Address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const PING_INTERVAL_MS = 300;
/** The server's request timeout in this test: an upgraded connection must outlive it. */
const REQUEST_TIMEOUT_MS = 1_000;
const wait = { timeout: 30_000, interval: 20 };

const projectRoot = fileURLToPath(new URL('../../..', import.meta.url));

let dir: string;
let fixture: FixtureDist;
let database: Database;
let apps: AppStore;
let chain: TestAnvil;
let proxy: WsProxy;
let runtime: NodeRuntime;
let server: Server;
let websockets: NodeWebSockets;
let site: Awaited<ReturnType<typeof openStaticSite>>;
let siteOrigin: string;
let keys: ReturnType<typeof createKeyLookup>;
/** What the demo key's bucket holds in this suite. */
const DEMO_BURST_CU = 200;

/** The WebSocket settings' defaults (.env.example). */
let settings: WebSocketSettings;
let origin: string;
let key: string;
const usage: Array<Parameters<UsageRecorder['record']>[0]> = [];
/** The server's request log lines (stdout). */
const requestLog: string[] = [];

const wsUrl = (appKey = key, network = NETWORK) => `${origin.replace(/^http/, 'ws')}/node/${network}/v2/${appKey}`;

const noApi: Router = {
  handle: () => {
    throw new Error('the site API is not part of this test');
  },
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'crucible-node-ws-'));
  fixture = await writeFixtureDist();
  chain = await startTestAnvil({ chainId: CHAIN_ID, blockTimeSeconds: 1 });
  proxy = await startWsProxy(chain.rpcUrl);
  const databasePath = join(dir, 'crucible.sqlite');
  database = await openDatabase({ engine: 'sqlite', path: databasePath });
  const networks = await loadNetworks(projectRoot);
  apps = createAppStore(database, {
    keySecret: await loadAppKeySecret({ engine: 'sqlite', path: databasePath, appKeySecret: null }),
    networks: networks.map((network) => network.id),
  });
  ({ key } = await apps.create({ name: 'websocket test', computeUnitsPerSecond: 100_000 }));
  const rules = await loadSurfaceRules(fixture.distDir);
  siteOrigin = rules.site;
  keys = createKeyLookup({ findApp: (appKey) => apps.findByKey(appKey), isDemoKey });
  // The demo key holds 20 messages of 10 CU here and refills one a second: a burst past them meets 429s however slowly the server reads it.
  const config = readNodeConfig(
    { NODE_UPSTREAMS_BASE_SEPOLIA: proxy.url, DEMO_KEY_COMPUTE_UNITS_PER_SECOND: '10', DEMO_KEY_COMPUTE_UNIT_BURST: String(DEMO_BURST_CU) },
    networks,
  );
  settings = config.webSocket;
  runtime = startNodeRuntime({
    networks,
    config,
    devnets: null,
    keys,
    rateLimiter: createMemoryRateLimiter(),
    quota: createMemoryQuotaCounter(async () => 0),
    usage: { record: (entry) => usage.push(entry) },
    siteOrigin: rules.site,
    ipv6PrefixLength: 64,
    pool: { probeIntervalMs: 500 },
  });
  const requestLines = new Writable({
    write: (chunk, _encoding, done) => {
      requestLog.push(String(chunk));
      done();
    },
  });
  const logger = createServerLogger({ requests: true, stdout: requestLines, stderr: new Writable({ write: (_chunk, _encoding, done) => done() }) });
  site = await openStaticSite(fixture.distDir, rules);
  server = createSiteServer({
    site,
    router: noApi,
    origin: rules.site,
    trustProxy: { mode: 'none' },
    logger,
    node: { gateway: runtime.gateway, nodeDomain: null },
    limits: { requestTimeoutMs: REQUEST_TIMEOUT_MS, headersTimeoutMs: REQUEST_TIMEOUT_MS, connectionsCheckingIntervalMs: 200 },
  });
  websockets = attachNodeWebSockets(server, {
    gateway: runtime.gateway,
    nodeDomain: null,
    clientIp: (req) => normalizeIp(req.socket.remoteAddress),
    ipv6PrefixLength: 64,
    settings,
    onKeysForgotten: runtime.onKeysForgotten,
    limits: { pingIntervalMs: PING_INTERVAL_MS, reconnectDelayMs: { min: 50, max: 500 }, upstreamIdleMs: 200 },
    logger,
  });
  origin = (await listen(server, 0, '127.0.0.1')).replace(/\/$/, '');
});

afterAll(async () => {
  await websockets?.close();
  if (server) {
    const closed = new Promise((resolve) => server.close(resolve));
    server.closeAllConnections();
    await closed;
  }
  runtime?.close();
  await database?.close();
  await Promise.all([proxy?.close(), chain?.stop()]);
  if (fixture) await rm(fixture.root, { recursive: true, force: true });
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** An upgrade the server must refuse: its HTTP status and body. */
function refusedUpgrade(url: string, options?: WebSocket.ClientOptions): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, options);
    ws.once('open', () => reject(new Error(`${url} was upgraded`)));
    ws.once('error', () => undefined);
    ws.once('unexpected-response', (_request, response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.once('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
  });
}

const upstreamSubscriptions = (kind: string) => proxy.requests.filter((request) => request.method === 'eth_subscribe' && request.params[0] === kind).length;
const upstreamUnsubscriptions = () => proxy.requests.filter((request) => request.method === 'eth_unsubscribe').length;
/** newHeads notifications carry block headers. */
const headsOf = (results: unknown[]) => results as Array<{ number: string; hash: string }>;
const blockNumbers = (results: unknown[]) => headsOf(results).map((head) => Number(head.number));
const isConsecutive = (numbers: number[]) => numbers.every((value, i) => i === 0 || value === numbers[i - 1]! + 1);

describe('fan-out: one upstream subscription per topic', () => {
  it('two connections × newHeads make one upstream eth_subscribe, cancelled when the last subscriber leaves', async () => {
    const before = upstreamSubscriptions('newHeads');
    const unsubscribedBefore = upstreamUnsubscriptions();
    const [first, second] = await Promise.all([RpcSocket.open(wsUrl()), RpcSocket.open(wsUrl())]);
    const [a, b] = await Promise.all([first.subscribe('newHeads'), second.subscribe('newHeads')]);
    expect(a).toMatch(/^0x[0-9a-f]{32}$/);
    expect(b).toMatch(/^0x[0-9a-f]{32}$/);
    expect(a).not.toBe(b);
    const [headsA, headsB] = await Promise.all([first.until(a, 2), second.until(b, 2)]);
    expect(upstreamSubscriptions('newHeads') - before).toBe(1);
    // The same heads reach both, each under its own id.
    const common = headsOf(headsA).filter((head) => headsOf(headsB).some((other) => other.hash === head.hash));
    expect(common.length).toBeGreaterThanOrEqual(1);
    expect(first.binaryMessages + second.binaryMessages).toBe(0);

    await first.close();
    await second.until(b, headsB.length + 1);
    expect(upstreamUnsubscriptions()).toBe(unsubscribedBefore);
    expect((await second.call('eth_unsubscribe', [b])).result).toBe(true);
    await vi.waitFor(() => expect(upstreamUnsubscriptions()).toBe(unsubscribedBefore + 1), wait);
    // With nothing left to serve, the upstream connection itself is closed.
    await vi.waitFor(() => expect(proxy.openConnections()).toBe(0), wait);
    await second.close();
  });

  it('logs filters spelled differently share one upstream subscription', async () => {
    const before = upstreamSubscriptions('logs');
    const address = randomAddress();
    const client = await RpcSocket.open(wsUrl());
    const one = await client.subscribe('logs', { address });
    const other = await client.subscribe('logs', { address: [address.toLowerCase(), address], topics: [null] });
    expect(one).not.toBe(other);
    expect(upstreamSubscriptions('logs') - before).toBe(1);
    await client.subscribe('logs', { address: randomAddress() });
    expect(upstreamSubscriptions('logs') - before).toBe(2);
    await client.close();
  });

  it('after the upstream connection drops, subscribers get heads again under their own ids without subscribing again', async () => {
    const client = await RpcSocket.open(wsUrl());
    const id = await client.subscribe('newHeads');
    const before = await client.until(id, 1);
    const subscribedBefore = upstreamSubscriptions('newHeads');
    proxy.dropConnections();
    // The gateway reconnects and subscribes again upstream; the client sends nothing.
    await vi.waitFor(() => expect(upstreamSubscriptions('newHeads')).toBe(subscribedBefore + 1), wait);
    const after = await client.until(id, before.length + 2);
    expect(isConsecutive(blockNumbers(after.slice(-2)))).toBe(true);
    expect(client.messages.filter((message) => message.method === undefined)).toHaveLength(1);
    await client.close();
  });
});

describe('clients written for other providers, by their URL alone', () => {
  it('viem webSocket transport: getBlockNumber, and watchBlocks receives several heads in order', async () => {
    const client = createPublicClient({ transport: webSocket(wsUrl()) });
    expect(await client.getBlockNumber()).toBeGreaterThan(0n);
    expect(await client.getChainId()).toBe(CHAIN_ID);
    const blocks: bigint[] = [];
    const unwatch = client.watchBlocks({ onBlock: (block) => void blocks.push(block.number) });
    await vi.waitFor(() => expect(blocks.length).toBeGreaterThanOrEqual(3), wait);
    unwatch();
    expect(blocks.slice(0, 3).every((number, i) => i === 0 || number === blocks[i - 1]! + 1n)).toBe(true);
    await (await client.transport.getRpcClient()).close();
  });

  it('viem watchEvent receives the log a transaction emits', async () => {
    const client = createPublicClient({ transport: webSocket(wsUrl()) });
    const address = await deployPingEmitter();
    const logs: Array<{ address: string; transactionHash: Hex | null }> = [];
    const unwatch = client.watchEvent({ address, event: parseAbiItem('event Ping()'), onLogs: (found) => void logs.push(...found) });
    // The subscription is made before the transaction is sent: wait until the gateway holds it upstream.
    await vi.waitFor(
      () =>
        expect(proxy.requests.some((request) => request.method === 'eth_subscribe' && JSON.stringify(request.params).includes(address.toLowerCase()))).toBe(
          true,
        ),
      wait,
    );
    const hash = await chain.client.sendTransaction({ account: ANVIL_ACCOUNT, to: address, chain: null });
    await vi.waitFor(() => expect(logs.map((log) => log.transactionHash)).toContain(hash), wait);
    expect(logs[0]!.address.toLowerCase()).toBe(address.toLowerCase());
    unwatch();
    await (await client.transport.getRpcClient()).close();
  });

  it('ethers v6 WebSocketProvider: getBlockNumber and on("block")', async () => {
    const provider = new WebSocketProvider(wsUrl());
    expect(await provider.getBlockNumber()).toBeGreaterThan(0);
    const blocks: number[] = [];
    await provider.on('block', (number: number) => void blocks.push(number));
    await vi.waitFor(() => expect(blocks.length).toBeGreaterThanOrEqual(2), wait);
    expect(blocks[1]).toBeGreaterThan(blocks[0]!);
    await provider.destroy();
  });

  it('newPendingTransactions announces a transaction sent to the node', async () => {
    const client = await RpcSocket.open(wsUrl());
    const id = await client.subscribe('newPendingTransactions');
    const hash = await chain.client.sendTransaction({ account: ANVIL_ACCOUNT, to: randomAddress(), value: 1n, chain: null });
    await vi.waitFor(() => expect(client.notifications(id)).toContain(hash), wait);
    await client.close();
  });
});

describe('subscriptions on one connection', () => {
  it('after eth_unsubscribe answers true, no notification of that id follows; unknown and foreign ids answer false', async () => {
    const client = await RpcSocket.open(wsUrl());
    const stopped = await client.subscribe('newHeads');
    const clock = await client.subscribe('newHeads');
    await client.until(stopped, 1);
    const answer = await client.call('eth_unsubscribe', [stopped]);
    expect(answer.result).toBe(true);
    const answeredAt = client.messages.indexOf(answer);
    const ticks = client.notifications(clock).length;
    await client.until(clock, ticks + 2);
    expect(client.messages.slice(answeredAt).filter((message) => message.params?.subscription === stopped)).toEqual([]);

    expect((await client.call('eth_unsubscribe', [stopped])).result).toBe(false);
    expect((await client.call('eth_unsubscribe', ['0x0123456789abcdef0123456789abcdef'])).result).toBe(false);
    const other = await RpcSocket.open(wsUrl());
    expect((await other.call('eth_unsubscribe', [clock])).result).toBe(false);
    await Promise.all([client.close(), other.close()]);
  });

  it('holds at most 100 subscriptions: the 101st is refused with -32005 until one is cancelled', async () => {
    const client = await RpcSocket.open(wsUrl());
    client.ws.send(JSON.stringify(Array.from({ length: 100 }, (_, id) => ({ jsonrpc: '2.0', id: `s${id}`, method: 'eth_subscribe', params: ['newHeads'] }))));
    const ids = await Promise.all(Array.from({ length: 100 }, (_, i) => client.answer(`s${i}`)));
    expect(ids.every((answer) => /^0x[0-9a-f]{32}$/.test(String(answer.result)))).toBe(true);
    expect(new Set(ids.map((answer) => answer.result)).size).toBe(100);
    const refused = await client.call('eth_subscribe', ['newPendingTransactions']);
    expect(refused.error?.code).toBe(-32005);
    expect(refused.error?.message).toMatch(/100/);
    expect((await client.call('eth_unsubscribe', [ids[0]!.result])).result).toBe(true);
    expect((await client.call('eth_subscribe', ['newPendingTransactions'])).result).toMatch(/^0x[0-9a-f]{32}$/);
    await client.close();
  });
});

describe('the same methods and errors as over HTTP', () => {
  it('answers calls, batches, malformed JSON (-32700), binary messages (-32600), unknown methods and bad params', async () => {
    const client = await RpcSocket.open(wsUrl());
    expect((await client.call('eth_chainId')).result).toBe(toHex(CHAIN_ID));
    client.ws.send('[{"jsonrpc":"2.0","id":"x","method":"eth_chainId","params":[]},{"jsonrpc":"2.0","id":"y","method":"eth_madeUp","params":[]}]');
    expect((await client.answer('x')).result).toBe(toHex(CHAIN_ID));
    expect((await client.answer('y')).error?.code).toBe(-32601);
    client.ws.send('{"jsonrpc": "2.0", ');
    await vi.waitFor(() => expect(client.messages.find((message) => message.error?.code === -32700)).toMatchObject({ id: null }), wait);
    client.ws.send(Buffer.from('{"jsonrpc":"2.0","id":9,"method":"eth_chainId","params":[]}'), { binary: true });
    await vi.waitFor(() => expect(client.messages.find((message) => message.error?.code === -32600)?.error?.message).toMatch(/binary/), wait);
    expect((await client.call('eth_getBalance', ['0x1234', 'latest'])).error?.code).toBe(-32602);
    expect((await client.call('eth_sendTransaction', [{}])).error?.code).toBe(-32601);
    expect((await client.call('eth_subscribe', ['syncing'])).error?.code).toBe(-32602);
    await client.close();
  });

  it('many messages at once are all answered, in any order, none refused', async () => {
    const client = await RpcSocket.open(wsUrl());
    for (let id = 0; id < 250; id++) client.ws.send(JSON.stringify({ jsonrpc: '2.0', id, method: 'eth_blockNumber', params: [] }));
    const answers = await Promise.all(Array.from({ length: 250 }, (_, id) => client.answer(id)));
    expect(answers.every((answer) => typeof answer.result === 'string')).toBe(true);
    await client.close();
  });

  it('eth_subscribe over HTTP is refused with -32601 pointing to WebSocket', async () => {
    const response = await fetch(`${origin}/node/${NETWORK}/v2/${key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }),
    });
    const body = (await response.json()) as RpcMessage;
    expect(body.error?.code).toBe(-32601);
    expect(body.error?.message).toMatch(/WebSocket/);
  });

  it('request log lines name the app (or demo) and never carry the key (docs/hosts-and-paths.md#route-families)', async () => {
    const logged = await apps.create({ name: 'logged app' });
    const before = requestLog.length;
    const call = (appKey: string) =>
      fetch(`${origin}/node/${NETWORK}/v2/${appKey}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      });
    expect((await call(logged.key)).status).toBe(200);
    expect((await call('demo')).status).toBe(200);
    expect((await call('not-a-key')).status).toBe(401);
    const nodeLines = () =>
      requestLog
        .slice(before)
        .map((line) => JSON.parse(line) as { path: string; status: number; app?: string })
        .filter((line) => line.path.includes('/v2/'));
    // A line is written when its response closes, which may come after the client has read it.
    await vi.waitFor(() => expect(nodeLines().length).toBeGreaterThanOrEqual(3), wait);
    const lines = nodeLines();
    expect(lines).toHaveLength(3);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: `/node/${NETWORK}/v2/<key>`, status: 200, app: logged.app.id }),
        expect.objectContaining({ path: `/node/${NETWORK}/v2/<key>`, status: 200, app: 'demo' }),
        expect.objectContaining({ path: `/node/${NETWORK}/v2/<key>`, status: 401 }),
      ]),
    );
    expect(lines.find((line) => line.status === 401)).not.toHaveProperty('app');
    expect(requestLog.join('')).not.toContain(logged.key);
  });

  it('the demo key works over WebSocket', async () => {
    const client = await RpcSocket.open(wsUrl('demo'));
    expect((await client.call('eth_chainId')).result).toBe(toHex(CHAIN_ID));
    await client.close();
  });

  it('a message over 2 MiB closes the connection with 1009', async () => {
    const client = await RpcSocket.open(wsUrl());
    client.ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: ['x'.repeat(3 * 1024 * 1024)] }));
    expect((await client.closed).code).toBe(1009);
  });

  it('a rate-limited request is answered 429 under its own id, so the client can match it', async () => {
    const slow = await apps.create({ name: 'slow websocket', computeUnitsPerSecond: 1 });
    const client = await RpcSocket.open(wsUrl(slow.key));
    expect((await client.call('eth_blockNumber')).result).toMatch(/^0x/);
    const limited = await client.call('eth_blockNumber');
    expect(limited.error?.code).toBe(429);
    expect(limited.error?.message).toMatch(/compute units per second/);
    await client.close();
  });

  it('a request costing more than the bucket holds is answered under its own id, refused for good (-32600, not 429)', async () => {
    // 1 CU/s: a bucket of 10 CU; eth_getLogs costs 75.
    const small = await apps.create({ name: 'small websocket', computeUnitsPerSecond: 1 });
    const client = await RpcSocket.open(wsUrl(small.key));
    const refused = await client.call('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }]);
    expect(refused.error).toMatchObject({ code: -32600, data: { limit: 'app-rate', computeUnits: 75, burst: 10 } });
    expect(refused.error?.message).toMatch(/costs 75 compute units, more than the 10 that this app's bucket holds/);
    await client.close();
  });
});

describe('authorization before the upgrade', () => {
  it('a missing or unknown key is a plain HTTP 401 with the JSON-RPC error body; nothing is upgraded', async () => {
    for (const url of [wsUrl('x'.repeat(32)), `${origin.replace(/^http/, 'ws')}/node/${NETWORK}/v2`]) {
      const refused = await refusedUpgrade(url);
      expect(refused.status).toBe(401);
      expect(JSON.parse(refused.body)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid API key' } });
    }
  });

  it('a foreign Origin, a disabled app and a network the app may not use are 403 saying which', async () => {
    const narrow = await apps.create({ name: 'narrow', allowedNetworks: [NETWORK], allowedDomains: ['app.example.com'] });
    const disabled = await apps.create({ name: 'disabled' });
    await apps.setState(disabled.app.id, 'disabled');
    const cases: Array<[string, WebSocket.ClientOptions | undefined, RegExp]> = [
      [wsUrl(narrow.key), { origin: 'https://evil.example.net' }, /origin https:\/\/evil\.example\.net/],
      [wsUrl(disabled.key), undefined, /disabled/],
      [wsUrl(narrow.key, 'ethereum-sepolia'), undefined, /not allowed on network ethereum-sepolia/],
    ];
    for (const [url, options, message] of cases) {
      const refused = await refusedUpgrade(url, options);
      expect(refused.status).toBe(403);
      const body = JSON.parse(refused.body) as RpcMessage;
      expect(body.error?.code).toBe(-32600);
      expect(body.error?.message).toMatch(message);
    }
    const allowed = await RpcSocket.open(wsUrl(narrow.key), { origin: 'https://app.example.com' });
    expect((await allowed.call('eth_chainId')).result).toBe(toHex(CHAIN_ID));
    await allowed.close();
  });

  it('an unknown network and paths that are not /v2/<key> are 404; the server keeps serving', async () => {
    const unknown = await refusedUpgrade(wsUrl(key, 'no-such-net'));
    expect(unknown.status).toBe(404);
    expect((JSON.parse(unknown.body) as { error: { code: string } }).error.code).toBe('not_found');
    for (const path of [`/node/${NETWORK}/openrpc.json`, `/node/${NETWORK}/v2/${key}/getNFTs`, '/blog/', '/%zz']) {
      expect((await refusedUpgrade(`${origin.replace(/^http/, 'ws')}${path}`)).status).toBeGreaterThanOrEqual(400);
    }
    const client = await RpcSocket.open(wsUrl());
    expect((await client.call('eth_chainId')).result).toBe(toHex(CHAIN_ID));
    await client.close();
  });

  it('an open connection whose app is disabled is closed with 1008 at the next keepalive', async () => {
    const app = await apps.create({ name: 'disabled later' });
    const client = await RpcSocket.open(wsUrl(app.key));
    expect((await client.call('eth_chainId')).result).toBe(toHex(CHAIN_ID));
    await apps.setState(app.app.id, 'disabled');
    const closed = await client.closed;
    expect(closed.code).toBe(1008);
    expect(closed.reason).toMatch(/disabled/);
  });
});

describe('keepalive', () => {
  it('a client that answers pings stays connected past the server’s request timeout', async () => {
    const client = await RpcSocket.open(wsUrl());
    let pings = 0;
    client.ws.on('ping', () => pings++);
    // Enough pings to span several request timeouts.
    await vi.waitFor(() => expect(pings * PING_INTERVAL_MS).toBeGreaterThan(3 * REQUEST_TIMEOUT_MS), wait);
    expect(client.ws.readyState).toBe(WebSocket.OPEN);
    expect((await client.call('eth_chainId')).result).toBe(toHex(CHAIN_ID));
    await client.close();
  });

  it('a client that does not answer pings is cut off', async () => {
    const silent = await RpcSocket.open(wsUrl(), { autoPong: false });
    expect((await silent.closed).code).toBe(1006);
  });
});

describe('compute units for notifications', () => {
  it('each notification delivered is metered at eth_subscribe’s notification price', async () => {
    const metered = await apps.create({ name: 'metered', computeUnitsPerSecond: 10_000 });
    const client = await RpcSocket.open(wsUrl(metered.key));
    const id = await client.subscribe('newHeads');
    await client.until(id, 3);
    expect((await client.call('eth_unsubscribe', [id])).result).toBe(true);
    const delivered = client.notifications(id).length;
    // A record stands for the notifications charged together (one here: one subscriber), each 10 CU.
    const records = usage.filter((entry) => entry.appId === metered.app.id && entry.method === NOTIFICATION_METHOD);
    expect(records.reduce((sum, entry) => sum + (entry.calls ?? 1), 0)).toBe(delivered);
    expect(records.every((entry) => entry.computeUnits === 10 * (entry.calls ?? 1) && entry.network === NETWORK)).toBe(true);
    expect(usage.filter((entry) => entry.appId === metered.app.id && entry.method === 'eth_subscribe')).toHaveLength(1);
    await client.close();
  });

  it('over the app’s rate, notifications are dropped uncharged and the connection stays open', async () => {
    // 1 CU/s: eth_subscribe (10 CU) takes the whole burst; the next 10 CU take 10 s to refill.
    const starved = await apps.create({ name: 'starved', computeUnitsPerSecond: 1 });
    const client = await RpcSocket.open(wsUrl(starved.key));
    const id = await client.subscribe('newHeads');
    const clock = await RpcSocket.open(wsUrl());
    const tick = await clock.subscribe('newHeads');
    await clock.until(tick, 3);
    expect(client.notifications(id)).toEqual([]);
    expect(client.ws.readyState).toBe(WebSocket.OPEN);
    expect(usage.filter((entry) => entry.appId === starved.app.id && entry.method === NOTIFICATION_METHOD)).toEqual([]);
    await Promise.all([client.close(), clock.close()]);
  });
});

describe('notifications charged together', () => {
  it('one head to many subscribers of an app is charged as single charges would be: those that fit are sent and metered, the others dropped uncharged; every connection stays open', async () => {
    // 15 CU/s and a bucket of 150 CU: four subscribers' 40 CU a head soon outrun the refill, and then a head reaches some of them and not the others.
    const shared = await apps.create({ name: 'shared', computeUnitsPerSecond: 15 });
    const clients = await Promise.all([1, 2, 3, 4].map(() => RpcSocket.open(wsUrl(shared.key))));
    const ids: string[] = [];
    for (const client of clients) ids.push(await client.subscribe('newHeads'));
    // Heads after this one were offered to all four subscribers.
    const subscribedAt = Number((await clients[0]!.call('eth_blockNumber')).result);
    const receivedBy = () => clients.map((client, i) => new Set(blockNumbers(client.notifications(ids[i]!)).filter((number) => number > subscribedAt)));
    await vi.waitFor(() => {
      const received = receivedBy();
      const heads = new Set(received.flatMap((numbers) => [...numbers]));
      expect([...heads].some((head) => received.some((numbers) => !numbers.has(head)))).toBe(true);
    }, wait);
    expect(clients.every((client) => client.ws.readyState === WebSocket.OPEN)).toBe(true);
    // The bucket is empty, so the clients cannot unsubscribe (that message would be refused 429): the counts are
    // compared between heads, when none is on its way. A dropped notification that was charged would keep them apart.
    const records = () => usage.filter((entry) => entry.appId === shared.app.id && entry.method === NOTIFICATION_METHOD);
    await vi.waitFor(() => {
      const delivered = clients.reduce((sum, client, i) => sum + client.notifications(ids[i]!).length, 0);
      expect(records().reduce((sum, entry) => sum + (entry.calls ?? 1), 0)).toBe(delivered);
      expect(records().reduce((sum, entry) => sum + entry.computeUnits, 0)).toBe(10 * delivered);
    }, wait);
    // A head that reached several subscribers was charged and metered as one batch.
    expect(records().some((entry) => (entry.calls ?? 1) > 1)).toBe(true);
    await Promise.all(clients.map((client) => client.close()));
  });
});

describe('messages are charged before they are read', () => {
  it('a message nested deeper than the limit is answered -32600 without being parsed; brackets in strings do not count', async () => {
    const client = await RpcSocket.open(wsUrl());
    client.ws.send(`${'['.repeat(65)}${']'.repeat(65)}`);
    const refused = await vi.waitFor(() => {
      const found = client.messages.find((message) => message.error?.code === -32600);
      if (!found) throw new Error('no -32600 yet');
      return found;
    }, wait);
    expect(refused.id).toBeNull();
    expect(refused.error?.message).toMatch(/nests arrays and objects more than 64 deep/);
    // Brackets inside a string are text: the call is read and answered as the unknown method it is.
    client.ws.send(JSON.stringify({ jsonrpc: '2.0', id: 'brackets', method: '['.repeat(200), params: [] }));
    expect((await client.answer('brackets')).error?.code).toBe(-32601);
    // The connection stays open.
    expect((await client.call('eth_chainId')).result).toBe(toHex(CHAIN_ID));
    await client.close();
  });

  it('each message takes its least cost from the app’s bucket before it is read: a malformed one pays, a refused one is not parsed', async () => {
    // 1 CU/s: a burst of 10 CU, what one message costs at least.
    const app = await apps.create({ name: 'pays per message', computeUnitsPerSecond: 1 });
    const client = await RpcSocket.open(wsUrl(app.key));
    client.ws.send('{"jsonrpc": "2.0", ');
    client.ws.send(JSON.stringify({ jsonrpc: '2.0', id: 'after', method: 'eth_blockNumber', params: [] }));
    // Unparsed, it would be -32700; refused before reading, it is 429.
    client.ws.send('['.repeat(100_000));
    const after = await client.answer('after');
    expect(after.error?.code).toBe(429);
    expect(after.error?.message).toMatch(/1 compute units per second/);
    const unmatched = await vi.waitFor(() => {
      const found = client.messages.filter((message) => message.id === null);
      if (found.length < 2) throw new Error(`${found.length} of 2 answers yet`);
      return found;
    }, wait);
    expect(unmatched.map((message) => message.error?.code).sort()).toEqual([-32700, 429]);
    expect(client.ws.readyState).toBe(WebSocket.OPEN);
    await client.close();
  });

  it('the demo key pays the least a message costs from its per-IP bucket per message, malformed or not', async () => {
    const client = await RpcSocket.open(wsUrl('demo'));
    // More messages than the demo key's burst pays for at 10 CU each, all at once.
    const count = DEMO_BURST_CU / 10 + 40;
    for (let i = 0; i < count; i++) client.ws.send('{"jsonrpc": ');
    const answers = await vi.waitFor(() => {
      if (client.messages.length < count) throw new Error(`${client.messages.length} of ${count} answers yet`);
      return client.messages;
    }, wait);
    const codes = answers.map((message) => message.error?.code);
    expect(codes.filter((code) => code === 429).length).toBeGreaterThan(0);
    expect(codes.every((code) => code === 429 || code === -32700)).toBe(true);
    await client.close();
  });
});

/** Another server over the same runtime with WebSocket limits of its own; client addresses come from X-Forwarded-For (one trusted proxy). */
async function serveWebSockets(options: { settings?: Partial<WebSocketSettings>; limits?: Partial<WebSocketLimits>; holds?: NodeWebSocketOptions['holds'] }) {
  const quiet = createServerLogger({
    requests: false,
    stdout: new Writable({ write: (_c, _e, done) => done() }),
    stderr: new Writable({ write: (_c, _e, done) => done() }),
  });
  const extra = createSiteServer({
    site,
    router: noApi,
    origin: siteOrigin,
    trustProxy: { mode: 'none' },
    logger: quiet,
    node: { gateway: runtime.gateway, nodeDomain: null },
  });
  const attached = attachNodeWebSockets(extra, {
    gateway: runtime.gateway,
    nodeDomain: null,
    clientIp: (req) => clientIp({ socketAddress: req.socket.remoteAddress, header: (name) => headerValue(req, name) }, { mode: 'hops', hops: 1 }),
    ipv6PrefixLength: 64,
    onKeysForgotten: runtime.onKeysForgotten,
    settings: { ...settings, ...options.settings },
    ...(options.holds && { holds: options.holds }),
    // No keepalive during a test: whatever closes a connection here is not the key's 30-second re-check.
    limits: { pingIntervalMs: 600_000, ...options.limits },
    logger: quiet,
  });
  const base = (await listen(extra, 0, '127.0.0.1')).replace(/\/$/, '').replace(/^http/, 'ws');
  return {
    url: (appKey: string) => `${base}/node/${NETWORK}/v2/${appKey}`,
    /** The options of a client behind the trusted proxy at `ip`. */
    from: (ip: string): WebSocket.ClientOptions => ({ headers: { 'x-forwarded-for': ip } }),
    async close() {
      await attached.close();
      await new Promise((resolve) => {
        extra.close(resolve);
        extra.closeAllConnections();
      });
    },
  };
}

/** Opens a connection once the server takes it (a place freed by a close is given back when the server sees the close). */
const openWhenFree = (url: string, options?: WebSocket.ClientOptions) => vi.waitFor(() => RpcSocket.open(url, options), wait);

describe('connection and subscription limits per key', () => {
  let limited: Awaited<ReturnType<typeof serveWebSockets>>;
  beforeAll(async () => {
    limited = await serveWebSockets({
      settings: { maxConnectionsPerKey: 2, maxTopicsPerKey: 3, subscriptionComputeUnitsPerMinute: 10 },
      limits: { subscriptionChargeIntervalMs: 200 },
    });
  });
  afterAll(() => limited?.close());

  it('an app holds at most maxConnectionsPerKey connections: one more is refused 429 with the JSON-RPC error body; another app is not affected; a close frees a place', async () => {
    const app = await apps.create({ name: 'two sockets' });
    const other = await apps.create({ name: 'other sockets' });
    const open = [await RpcSocket.open(limited.url(app.key)), await RpcSocket.open(limited.url(app.key))];
    const refused = await refusedUpgrade(limited.url(app.key));
    expect(refused.status).toBe(429);
    const body = JSON.parse(refused.body) as RpcMessage;
    expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: 429 } });
    expect(body.error?.message).toMatch(/2 WebSocket connections/);
    const bystander = await RpcSocket.open(limited.url(other.key));
    expect((await bystander.call('eth_chainId')).result).toBe(toHex(CHAIN_ID));
    await open[0]!.close();
    const again = await openWhenFree(limited.url(app.key));
    expect((await again.call('eth_chainId')).result).toBe(toHex(CHAIN_ID));
    await Promise.all([open[1]!.close(), again.close(), bystander.close()]);
  });

  it('the demo key counts per client IP, IPv6 per /64', async () => {
    const demo = limited.url('demo');
    const v4 = [await RpcSocket.open(demo, limited.from('198.51.100.7')), await RpcSocket.open(demo, limited.from('198.51.100.7'))];
    const refused = await refusedUpgrade(demo, limited.from('198.51.100.7'));
    expect(refused.status).toBe(429);
    expect((JSON.parse(refused.body) as RpcMessage).error?.message).toMatch(/2 WebSocket connections .*client IP/);
    const elsewhere = await RpcSocket.open(demo, limited.from('198.51.100.8'));
    const v6 = [await RpcSocket.open(demo, limited.from('2001:db8:1:2::1')), await RpcSocket.open(demo, limited.from('2001:db8:1:2:ffff::9'))];
    expect((await refusedUpgrade(demo, limited.from('2001:db8:1:2:abcd::1'))).status).toBe(429);
    const otherPrefix = await RpcSocket.open(demo, limited.from('2001:db8:1:3::1'));
    await Promise.all([...v4, elsewhere, ...v6, otherPrefix].map((client) => client.close()));
  });

  it('an app holds at most maxTopicsPerKey distinct upstream topics across its connections; subscriptions sharing a topic count once', async () => {
    const app = await apps.create({ name: 'three topics' });
    const [first, second] = [await RpcSocket.open(limited.url(app.key)), await RpcSocket.open(limited.url(app.key))];
    const addresses = Array.from({ length: 5 }, () => randomAddress());
    for (const address of addresses.slice(0, 3)) await first.subscribe('logs', { address });
    const over = await first.call('eth_subscribe', ['logs', { address: addresses[3] }]);
    expect(over.error?.code).toBe(-32005);
    expect(over.error?.message).toMatch(/3 distinct subscriptions/);
    // The same topic, spelled otherwise or on another connection of the app, is not a new one.
    await first.subscribe('logs', { address: [addresses[0]!.toLowerCase()] });
    const shared = await second.subscribe('logs', { address: addresses[1] });
    expect((await second.call('eth_subscribe', ['logs', { address: addresses[4] }])).error?.code).toBe(-32005);
    // A topic is given back when its last subscription of the app ends.
    expect((await second.call('eth_unsubscribe', [shared])).result).toBe(true);
    expect((await second.call('eth_subscribe', ['logs', { address: addresses[4] }])).error?.code).toBe(-32005);
    await first.close();
    await vi.waitFor(async () => expect((await second.call('eth_subscribe', ['logs', { address: addresses[4] }])).error).toBeUndefined(), wait);
    await second.close();
  });

  it('an open subscription is charged every interval while open, from the app’s bucket, metered as its own method', async () => {
    const app = await apps.create({ name: 'upkeep', computeUnitsPerSecond: 100_000 });
    const client = await RpcSocket.open(limited.url(app.key));
    // A logs filter nothing matches: no notification is charged, only the open subscription.
    const id = await client.subscribe('logs', { address: randomAddress() });
    const upkeep = () => usage.filter((entry) => entry.appId === app.app.id && entry.method === SUBSCRIPTION_UPKEEP_METHOD);
    await vi.waitFor(() => expect(upkeep().length).toBeGreaterThanOrEqual(2), wait);
    expect(upkeep().every((entry) => entry.computeUnits === 10 && entry.network === NETWORK)).toBe(true);
    expect(client.notifications(id)).toEqual([]);
    expect(client.ws.readyState).toBe(WebSocket.OPEN);
    await client.close();
  });

  it('a connection whose subscriptions’ charge is refused is closed with 1013 saying why', async () => {
    // eth_subscribe takes the whole burst (10 CU); the next charge does not fit.
    const app = await apps.create({ name: 'cannot keep up', computeUnitsPerSecond: 1 });
    const client = await RpcSocket.open(limited.url(app.key));
    await client.subscribe('logs', { address: randomAddress() });
    const closed = await client.closedByServer();
    expect(closed.code).toBe(1013);
    expect(closed.reason).toMatch(/subscription/);
  });
});

describe('a changed key closes its connections at once in this process', () => {
  let limited: Awaited<ReturnType<typeof serveWebSockets>>;
  beforeAll(async () => {
    limited = await serveWebSockets({});
  });
  afterAll(() => limited?.close());

  it('disabling, rotating or deleting an app closes its open connections with 1008; other apps’ stay open', async () => {
    const [disabled, rotated, deleted, bystander] = await Promise.all(['disabled', 'rotated', 'deleted', 'bystander'].map((name) => apps.create({ name })));
    const [a, b, c, d] = await Promise.all([disabled, rotated, deleted, bystander].map((app) => RpcSocket.open(limited.url(app!.key))));
    // What the dashboard does after each change (src/dashboard/app-operations.ts: keysChanged).
    await apps.setState(disabled!.app.id, 'disabled');
    runtime.forgetKeys();
    expect(await a!.closedByServer()).toMatchObject({ code: 1008, reason: expect.stringMatching(/disabled/) });
    await apps.rotate(rotated!.app.id);
    runtime.forgetKeys();
    expect(await b!.closedByServer()).toMatchObject({ code: 1008, reason: 'Invalid API key' });
    await apps.delete(deleted!.app.id);
    runtime.forgetKeys();
    expect(await c!.closedByServer()).toMatchObject({ code: 1008, reason: 'Invalid API key' });
    expect((await d!.call('eth_chainId')).result).toBe(toHex(CHAIN_ID));
    await d!.close();
  });
});

describe('with REDIS_URL, the counts hold across processes', () => {
  let redis: TestRedis;
  const clients: RedisClient[] = [];
  const holds: Array<ReturnType<typeof createRedisWebSocketHolds>> = [];
  const gateways: Array<Awaited<ReturnType<typeof serveWebSockets>>> = [];
  beforeAll(async () => {
    redis = await startRedis();
    // Two servers, each with its own Redis connection, as two processes would.
    for (let i = 0; i < 2; i++) {
      const client = await connectRedis(redis.url);
      clients.push(client);
      holds.push(createRedisWebSocketHolds(client));
      gateways.push(await serveWebSockets({ settings: { maxConnectionsPerKey: 2, maxTopicsPerKey: 3 }, holds: holds.at(-1)! }));
    }
  });
  afterAll(async () => {
    for (const gateway of gateways) await gateway.close();
    for (const held of holds) held.close();
    for (const client of clients) await client.quit();
    await redis?.stop();
  });

  it('an app’s connections and topics are counted over every server sharing the Redis', async () => {
    const app = await apps.create({ name: 'two servers' });
    const [x, y] = gateways as [(typeof gateways)[0], (typeof gateways)[0]];
    const onX = await RpcSocket.open(x.url(app.key));
    const onY = await RpcSocket.open(y.url(app.key));
    expect((await refusedUpgrade(x.url(app.key))).status).toBe(429);
    const addresses = Array.from({ length: 3 }, () => randomAddress());
    await onX.subscribe('logs', { address: addresses[0] });
    await onX.subscribe('logs', { address: addresses[1] });
    // Each server holds its own upstream subscription: the same topic on Y is one more.
    await onY.subscribe('logs', { address: addresses[0] });
    expect((await onY.call('eth_subscribe', ['logs', { address: addresses[2] }])).error?.code).toBe(-32005);
    await onY.close();
    const again = await openWhenFree(x.url(app.key));
    await Promise.all([onX.close(), again.close()]);
  });
});

/**
 * Deploys a contract that emits `Ping()` (one topic, no data) on every call: raw bytecode, so the
 * test needs no compiler. Runtime: PUSH32 topic, PUSH1 0, PUSH1 0, LOG1, STOP.
 */
async function deployPingEmitter(): Promise<Address> {
  const topic = keccak256(toHex('Ping()')).slice(2);
  const runtime = `7f${topic}60006000a100`;
  const initCode = `0x60${(runtime.length / 2).toString(16).padStart(2, '0')}80600b6000396000f3${runtime}` as Hex;
  const hash = await chain.client.sendTransaction({ account: ANVIL_ACCOUNT, data: initCode, chain: null });
  const receipt = await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 100 });
  if (!receipt.contractAddress) throw new Error('the Ping emitter was not deployed');
  return receipt.contractAddress;
}
