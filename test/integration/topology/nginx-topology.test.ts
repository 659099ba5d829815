import { rm } from 'node:fs/promises';
import { createPublicClient, createWalletClient, http, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createAppStore } from '../../../src/apps/store.ts';
import type { DatabaseLocation } from '../../../src/config/database.ts';
import { openDatabase, type Database } from '../../../src/db/open.ts';
import { readCheckpoint } from '../../../src/indexer/checkpoints.ts';
import { createWebhookStore } from '../../../src/webhooks/store.ts';
import { randomAddress, startTestAnvil, type TestAnvil } from '../../support/anvil.ts';
import { databaseEnv, killHard, startWorkerProcess, until, type WorkerProcess } from '../../support/crash.ts';
import { writeFixtureDist, type FixtureDist } from '../../support/fixture-dist.ts';
import { indexSnapshot } from '../../support/index-snapshot.ts';
import { startNginx, type TestNginx } from '../../support/nginx.ts';
import { databaseEngines } from '../../support/postgres.ts';
import { startRedis, type TestRedis } from '../../support/redis.ts';
import { startBuiltSite, type BuiltSite } from '../../support/site.ts';
import { writeTokenHistory } from '../../support/token-history.ts';
import { firstReceipts, startReceiver, type TestReceiver } from '../webhooks/receiver.ts';
import { fetchFresh, rpcFresh } from './http.ts';

// What an operator runs at scale (docs/operating-at-scale.md), on this machine: nginx with
// deploy/nginx.conf in front of two Crucible server processes, the indexer and webhook delivery as
// two worker processes each, PostgreSQL and Redis. Under a bounded load of JSON-RPC (viem), REST and
// WebSocket clients through nginx, one server process is killed (SIGKILL), then the indexer's
// leader, then a webhook worker mid-delivery:
// - only requests in flight when the server died may fail, and only JSON-RPC POSTs (nginx resends
//   GETs to the other server); WebSocket clients reconnect through nginx and get heads again;
// - the demo key's burst and an app's monthly quota hold over both servers (Redis);
// - the surviving indexer takes the lease and the index then equals a fresh worker's;
// - every webhook delivery arrives, none lost; every transaction a client was given a hash for is mined.

const NETWORK = 'crucible-testnet';
const OWNER = 'acct_topology';
const CALL_CU = 10;
const DEMO_BURST_CALLS = 20;
const QUOTA_CALLS = 10;
/** The indexer's lease: short, so the survivor leads soon after the leader dies. */
const LEASE_MS = 1500;

const postgres = databaseEngines().find((engine) => engine.name === 'postgres')!;
let anvil: TestAnvil;
let redis: TestRedis;
let fixture: FixtureDist;
let location: DatabaseLocation;
let database: Database;
let receiver: TestReceiver;
let nginx: TestNginx;
const servers: BuiltSite[] = [];
const workers: Record<'indexer' | 'webhooks', WorkerProcess[]> = { indexer: [], webhooks: [] };
const stops: Array<() => Promise<unknown>> = [];

/** What every process of the topology shares: the database, Redis, the network's node. */
const sharedEnv = () => ({
  ...databaseEnv(location),
  REDIS_URL: redis.url,
  NODE_UPSTREAMS_CRUCIBLE_TESTNET: anvil.rpcUrl,
  INDEXER_NETWORKS: NETWORK,
});
const indexerEnv = () => ({
  ...sharedEnv(),
  INDEXER_MAX_BLOCK_RANGE: '4',
  INDEXER_BLOCKS_PER_STEP: '4',
  INDEXER_REORG_WINDOW: '4',
  INDEXER_POLL_INTERVAL_MS: '50',
  INDEXER_LEASE_MS: String(LEASE_MS),
});
const started = (worker: WorkerProcess) => async () => worker.output().includes('"message":"started"');

beforeAll(async () => {
  [anvil, redis, fixture, receiver, location] = await Promise.all([
    startTestAnvil({ chainId: 7357001 }),
    startRedis(),
    writeFixtureDist(),
    startReceiver(),
    postgres.location(),
  ]);
  database = await openDatabase(location);
}, 120_000);

afterAll(async () => {
  for (const stop of stops.reverse()) await stop().catch(() => undefined);
  await Promise.all(servers.map((server) => server.stop()));
  await Promise.all([...workers.indexer, ...workers.webhooks].map((worker) => killHard(worker.child)));
  await nginx?.stop();
  await receiver?.close();
  await database?.close();
  await redis?.stop();
  await anvil?.stop();
  if (fixture) await rm(fixture.root, { recursive: true, force: true });
});

describe('nginx in front of two server processes, workers apart, PostgreSQL and Redis', () => {
  it('loses nothing acknowledged when a server process, the indexer’s leader and a webhook worker are killed under load', async () => {
    // The chain's NFT history, the apps and the webhook, before any process starts.
    const history = await writeTokenHistory(anvil.client, { blocks: 20, emptyBlocks: 5 });
    const apps = createAppStore(database, { keySecret: Buffer.from(databaseEnv(location).APP_KEY_SECRET!, 'hex'), networks: [NETWORK] });
    const { key } = await apps.create({ name: 'load', computeUnitsPerSecond: 1_000_000 });
    const { key: quotaKey } = await apps.create({ name: 'quota', computeUnitsPerSecond: 1_000_000, monthlyComputeUnitQuota: QUOTA_CALLS * CALL_CU });
    const hook = await createWebhookStore(database.db, { networks: [NETWORK], urlRules: { local: true } }).create(OWNER, {
      type: 'NFT_ACTIVITY',
      network: NETWORK,
      url: receiver.url,
      filters: { contractAddresses: [] },
    });
    receiver.keys.set(hook.id, hook.signingKey);

    const serverEnv = {
      ...sharedEnv(),
      TRUST_PROXY: '1',
      SERVER_PROCESSES: '1',
      INDEXER_IN_SERVER: 'off',
      WEBHOOKS_IN_SERVER: 'off',
      PRICES_IN_SERVER: 'off',
      NFT_METADATA_IN_SERVER: 'off',
      DEMO_KEY_COMPUTE_UNITS_PER_SECOND: '1',
      DEMO_KEY_COMPUTE_UNIT_BURST: String(DEMO_BURST_CALLS * CALL_CU),
    };
    servers.push(...(await Promise.all([0, 1].map(() => startBuiltSite({ distDir: fixture.distDir, env: serverEnv })))));
    nginx = await startNginx(servers.map((server) => new URL(server.origin).host));
    for (const name of ['indexer', 'webhooks'] as const) {
      for (let index = 0; index < 2; index++) {
        const env =
          name === 'indexer'
            ? indexerEnv()
            : { ...sharedEnv(), WEBHOOK_POLL_INTERVAL_MS: '20', WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_CLAIM_MS: '1500', WEBHOOK_RETRY_DELAYS_MS: '50,50,50,50' };
        workers[name].push(startWorkerProcess(name, env));
      }
    }
    for (const worker of [...workers.indexer, ...workers.webhooks]) await until('a worker to start', started(worker));
    for (const server of servers) expect((await fetchFresh(`${server.origin}/readyz`)).status).toBe(200);
    const ready = JSON.parse((await fetchFresh(`${nginx.origin}/readyz`)).body) as { ready: boolean; checks: Array<{ part: string }> };
    expect(ready).toEqual({ ready: true, checks: ['database', 'redis', `upstream:${NETWORK}`].map((part) => ({ part, ok: true })) });

    // The history's deployer, who holds NFTs, funds the transaction sender.
    const [funder] = await anvil.client.getAddresses();
    // The load: JSON-RPC readers, REST readers, a transaction sender (its blocks are the WebSocket clients' heads), WebSocket subscribers.
    const nodeUrl = `${nginx.origin}/node/${NETWORK}/v2/${key}`;
    const counts = { rpcOk: 0, rpcFailed: 0, restOk: 0, restFailed: [] as number[], inFlight: 0 };
    let loading = true;
    const tracked = async <T>(call: () => Promise<T>): Promise<T> => {
      counts.inFlight++;
      try {
        return await call();
      } finally {
        counts.inFlight--;
      }
    };
    const reader = createPublicClient({ transport: http(nodeUrl, { retryCount: 0 }) });
    const rpcLoop = async () => {
      while (loading) {
        try {
          await tracked(() => reader.getBlockNumber({ cacheTime: 0 }));
          counts.rpcOk++;
        } catch {
          counts.rpcFailed++;
        }
      }
    };
    const restLoop = async () => {
      while (loading) {
        const answer = await tracked(() =>
          fetch(`${nodeUrl}/getNFTs?owner=${funder}`).then(async (response) => ({ status: response.status, body: await response.text() })),
        );
        if (answer.status === 200) counts.restOk++;
        else counts.restFailed.push(answer.status);
      }
    };
    const sender = privateKeyToAccount(generatePrivateKey());
    await anvil.client.waitForTransactionReceipt({
      hash: await anvil.client.sendTransaction({ account: funder!, chain: null, to: sender.address, value: 10n ** 18n }),
    });
    const wallet = createWalletClient({ account: sender, transport: http(nodeUrl, { retryCount: 0 }) });
    const acknowledged: Hex[] = [];
    let sendFailures = 0;
    const sendLoop = async () => {
      while (loading) {
        try {
          acknowledged.push(await tracked(() => wallet.sendTransaction({ to: randomAddress(), value: 1n, chain: null, gas: 21_000n })));
        } catch {
          sendFailures++;
        }
        // One block at a time: the next once every open subscriber has seen this one.
        const head = await anvil.client.getBlockNumber({ cacheTime: 0 });
        await until(
          'every open subscriber to see the head',
          async () => subscribers.every((subscriber) => !subscriber.open || subscriber.lastHead >= head),
          30_000,
        ).catch(() => undefined);
      }
    };
    interface Subscriber {
      open: boolean;
      connections: number;
      lastHead: bigint;
      socket: WebSocket | null;
    }
    const subscribers: Subscriber[] = Array.from({ length: 3 }, () => ({ open: false, connections: 0, lastHead: -1n, socket: null }));
    const subscribe = (subscriber: Subscriber) => {
      const socket = new WebSocket(nodeUrl.replace(/^http/, 'ws'));
      subscriber.socket = socket;
      socket.on('open', () => {
        subscriber.connections++;
        socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }));
      });
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as { id?: number; result?: string; params?: { result: { number: Hex } } };
        if (message.id === 1 && message.result) subscriber.open = true;
        if (message.params) subscriber.lastHead = BigInt(message.params.result.number);
      });
      socket.on('error', () => undefined);
      // Closed by a dying server (through nginx) or refused: a client reconnects to the same URL.
      socket.on('close', () => {
        subscriber.open = false;
        if (loading) setImmediate(() => subscribe(subscriber));
      });
    };
    subscribers.forEach(subscribe);
    const loops = [rpcLoop(), rpcLoop(), restLoop(), sendLoop()];

    await until(
      'the load under way',
      async () => counts.rpcOk >= 30 && counts.restOk >= 5 && acknowledged.length >= 3 && subscribers.every((s) => s.open && s.lastHead >= 0n),
    );

    // Limits over both servers, kept in Redis: the demo key's burst (plus at most its refill at 1 CU/s), an app's monthly quota exactly.
    const limitsFrom = Date.now();
    const demo = [];
    for (let id = 0; id < 2 * DEMO_BURST_CALLS; id++) demo.push((await rpcFresh(`${nginx.origin}/node/${NETWORK}/v2/demo`, 'eth_blockNumber', [], id)).status);
    const refilledCalls = Math.ceil((Date.now() - limitsFrom) / 1000 / CALL_CU);
    expect(demo.filter((status) => status === 200).length).toBeGreaterThanOrEqual(DEMO_BURST_CALLS);
    expect(demo.filter((status) => status === 200).length).toBeLessThanOrEqual(DEMO_BURST_CALLS + refilledCalls);
    expect(demo.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    const quota = [];
    for (let id = 0; id < 2 * QUOTA_CALLS; id++)
      quota.push((await rpcFresh(`${nginx.origin}/node/${NETWORK}/v2/${quotaKey}`, 'eth_blockNumber', [], id)).status);
    expect(quota.filter((status) => status === 200)).toHaveLength(QUOTA_CALLS);
    expect(quota.filter((status) => status !== 200 && status !== 429)).toEqual([]);

    // 1. A server process dies. At most what was in flight then fails, and only JSON-RPC (POST); GETs are resent by nginx.
    const failedBefore = counts.rpcFailed + sendFailures;
    const inFlightAtKill = counts.inFlight;
    const okAtKill = counts.rpcOk;
    const headAtKill = await anvil.client.getBlockNumber({ cacheTime: 0 });
    await servers[0]!.kill();
    await until(
      'the load to go on through the surviving server, every subscriber on it',
      async () => counts.rpcOk >= okAtKill + 30 && subscribers.every((subscriber) => subscriber.open && subscriber.lastHead > headAtKill + 1n),
    );
    expect(counts.rpcFailed + sendFailures - failedBefore).toBeLessThanOrEqual(inFlightAtKill);
    expect(counts.restFailed).toEqual([]);
    expect(subscribers.some((subscriber) => subscriber.connections > 1)).toBe(true);
    // The quota spent through both servers stays spent on the survivor.
    expect((await rpcFresh(`${nginx.origin}/node/${NETWORK}/v2/${quotaKey}`, 'eth_blockNumber')).status).toBe(429);

    // 2. The indexer's leader dies: the other worker takes the lease.
    const lease = () => database.db.selectFrom('indexer_leases').select(['holder', 'expires_at']).where('network', '=', NETWORK).executeTakeFirst();
    const holderPid = async () => {
      const held = await lease();
      return held ? Number(held.holder.split(':')[1]) : null;
    };
    const leaderPid = await until('an indexer to lead', holderPid);
    const leader = workers.indexer.find((worker) => worker.child.pid === leaderPid)!;
    const survivor = workers.indexer.find((worker) => worker !== leader)!;
    expect(leader).toBeDefined();
    await killHard(leader.child);
    // The dead leader's lease as it left it: the survivor may take it only once it has expired.
    const deadLease = (await lease())!;
    await until('the surviving indexer to lead', async () => (await holderPid()) === survivor.child.pid);
    const taken = (await lease())!;
    expect(Number(taken.expires_at) - LEASE_MS).toBeGreaterThanOrEqual(Number(deadLease.expires_at));

    loading = false;
    for (const subscriber of subscribers) subscriber.socket?.close();
    await Promise.all(loops);

    // 3. A webhook worker dies as the receiver holds a delivery of new NFT blocks; the other delivers the rest.
    const deliveredBefore = receiver.received.length;
    let killedWebhooks: Promise<void> | undefined;
    receiver.respond = (count) => {
      if (killedWebhooks || count <= deliveredBefore) return 200;
      killedWebhooks = killHard(workers.webhooks[0]!.child);
      return 'hold';
    };
    const more = await writeTokenHistory(anvil.client, { blocks: 10, emptyBlocks: 0 });
    await until('a webhook worker killed mid-delivery', async () => killedWebhooks !== undefined);
    await killedWebhooks;

    // The index reaches the head and every outbox row is delivered.
    const head = await anvil.client.getBlock({ blockTag: 'latest' });
    await until('the index at the head and every delivery delivered', async () => {
      const checkpoint = await readCheckpoint(database.db, NETWORK);
      if (checkpoint?.block?.hash.toLowerCase() !== head.hash.toLowerCase()) return false;
      const rows = await database.db.selectFrom('webhook_deliveries').select(['id', 'status']).execute();
      return rows.length >= history.nftBlocks.length + more.nftBlocks.length && rows.every((row) => row.status === 'delivered');
    });
    const rows = await database.db.selectFrom('webhook_deliveries').select(['id', 'block_number']).orderBy('seq').execute();
    expect(rows.map((row) => Number(row.block_number))).toEqual([...history.nftBlocks, ...more.nftBlocks].map((block) => block.number));
    expect(new Set(firstReceipts(receiver.received))).toEqual(new Set(rows.map((row) => row.id)));
    expect(receiver.received.every((entry) => entry.signatureValid)).toBe(true);

    // Every transaction a client was given a hash for is mined.
    for (const hash of acknowledged) expect((await anvil.client.getTransactionReceipt({ hash })).status).toBe('success');

    // The index equals the one a fresh worker builds of the same chain in a database of its own.
    const freshLocation = await postgres.location();
    const fresh = await openDatabase(freshLocation);
    stops.push(() => fresh.close());
    const clean = startWorkerProcess('indexer', { ...indexerEnv(), ...databaseEnv(freshLocation) });
    stops.push(() => killHard(clean.child));
    await until('a fresh index at the head', async () => (await readCheckpoint(fresh.db, NETWORK))?.block?.hash.toLowerCase() === head.hash.toLowerCase());
    expect(await indexSnapshot(database.db, NETWORK)).toEqual(await indexSnapshot(fresh.db, NETWORK));
  }, 600_000);
});
