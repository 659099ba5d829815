import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { Alchemy } from 'alchemy-sdk';
import { JsonRpcProvider } from 'ethers';
import { createPublicClient, http } from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAppStore, type AppStore } from '../../../src/apps/store.ts';
import { createUsageMeter } from '../../../src/apps/usage-meter.ts';
import { openDatabase, type Database } from '../../../src/db/open.ts';
import { startTestAnvil, type TestAnvil } from '../../support/anvil.ts';
import { writeFixtureDist, type FixtureDist } from '../../support/fixture-dist.ts';
import { startPostgres, type TestPostgres } from '../../support/postgres.ts';
import { startRedis, type TestRedis } from '../../support/redis.ts';
import { startBuiltSite, type BuiltSite } from '../../support/site.ts';

// Two production servers sharing PostgreSQL (apps, usage) and Redis (limits), as a deployment
// with several processes runs: the clients work on PostgreSQL, and an
// app's rate and quota hold across both processes.

const NETWORK = 'base-sepolia';
const APP_KEY_SECRET = randomBytes(32).toString('hex');

let fixture: FixtureDist;
let postgres: TestPostgres;
let redis: TestRedis;
let chain: TestAnvil;
let database: Database;
let apps: AppStore;
let servers: BuiltSite[] = [];

const nodeUrl = (server: BuiltSite, key: string) => `${server.origin}/node/${NETWORK}/v2/${key}`;
const blockNumber = (server: BuiltSite, key: string) =>
  fetch(nodeUrl(server, key), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
  }).then(async (response) => ({ status: response.status, body: (await response.json()) as { result?: string; error?: { message: string } } }));

beforeAll(async () => {
  fixture = await writeFixtureDist();
  [postgres, redis, chain] = await Promise.all([startPostgres(), startRedis(), startTestAnvil({ chainId: 84532 })]);
  database = await openDatabase({ engine: 'postgres', url: postgres.url });
  apps = createAppStore(database, { keySecret: Buffer.from(APP_KEY_SECRET, 'hex'), networks: [NETWORK] });
  const env = { DATABASE_URL: postgres.url, APP_KEY_SECRET, REDIS_URL: redis.url, NODE_UPSTREAMS_BASE_SEPOLIA: chain.rpcUrl };
  servers = await Promise.all([startBuiltSite({ distDir: fixture.distDir, env }), startBuiltSite({ distDir: fixture.distDir, env })]);
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await database?.close();
  await Promise.all([postgres?.stop(), redis?.stop(), chain?.stop()]);
  if (fixture) await rm(fixture.root, { recursive: true, force: true });
});

describe('on PostgreSQL and Redis, with two server processes', () => {
  it('viem, ethers and alchemy-sdk work through either process', async () => {
    const { key } = await apps.create({ name: 'clients' });
    for (const server of servers) {
      const viem = createPublicClient({ transport: http(nodeUrl(server, key)) });
      expect(await viem.getChainId()).toBe(84532);
      const ethers = new JsonRpcProvider(nodeUrl(server, key), undefined, { staticNetwork: true });
      expect(await ethers.getBlockNumber()).toBe(Number(await viem.getBlockNumber()));
      ethers.destroy();
      expect((await new Alchemy({ url: nodeUrl(server, key) }).core.getGasPrice()).toBigInt()).toBeGreaterThan(0n);
    }
  });

  it('an app’s CU rate is one bucket for both processes', async () => {
    // 1 CU/s with 10 s of burst: 10 CU, one eth_blockNumber call (10 CU), wherever it lands, and one
    // more per 10 s the calls took (a bucket per process would serve the first call on each).
    const { key } = await apps.create({ name: 'shared rate', computeUnitsPerSecond: 1 });
    const started = Date.now();
    const statuses = [];
    for (let i = 0; i < 3; i++) for (const server of servers) statuses.push((await blockNumber(server, key)).status);
    const refills = Math.floor((Date.now() - started) / 10_000);
    expect(statuses[0]).toBe(200);
    expect(statuses.filter((status) => status !== 429).every((status) => status === 200)).toBe(true);
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(1 + refills);
  });

  it('an app’s monthly quota is counted across both processes', async () => {
    const { key } = await apps.create({ name: 'shared quota', monthlyComputeUnitQuota: 30 });
    const statuses = [];
    for (let i = 0; i < 3; i++) for (const server of servers) statuses.push((await blockNumber(server, key)).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
  });

  it('usage from both processes lands in one table, per app, network and method', async () => {
    const { app, key } = await apps.create({ name: 'metered' });
    for (const server of servers) for (let i = 0; i < 2; i++) expect((await blockNumber(server, key)).status).toBe(200);
    const meter = createUsageMeter(database);
    const from = Date.now() - 3_600_000;
    let points: Awaited<ReturnType<typeof meter.usageSeries>> = [];
    // Each process stores what it metered every few seconds.
    await vi.waitFor(
      async () => {
        points = await meter.usageSeries(app.id, { from, to: Date.now() + 60_000, bucket: 'hour' });
        expect(points.reduce((sum, point) => sum + point.requests, 0)).toBeGreaterThanOrEqual(4);
      },
      { timeout: 60_000, interval: 250 },
    );
    await meter.close();
    expect(points.map(({ network, method, requests, computeUnits }) => ({ network, method, requests, computeUnits }))).toEqual([
      { network: NETWORK, method: 'eth_blockNumber', requests: 4, computeUnits: 40 },
    ]);
  });

  it('a rotated key stops working in both processes', async () => {
    const { app, key } = await apps.create({ name: 'rotated' });
    for (const server of servers) expect((await blockNumber(server, key)).status).toBe(200);
    const { key: newKey } = await apps.rotate(app.id);
    for (const server of servers) {
      // Each process remembers a key it has looked up for at most a second.
      await vi.waitFor(async () => expect((await blockNumber(server, key)).status).not.toBe(200), { timeout: 30_000, interval: 200 });
      expect((await blockNumber(server, key)).status).toBe(401);
      expect((await blockNumber(server, newKey)).status).toBe(200);
    }
  });

  it('a server that stops stores the usage it metered last, before its database closes', async () => {
    const { app, key } = await apps.create({ name: 'metered at shutdown' });
    const last = servers.pop()!;
    for (let i = 0; i < 3; i++) expect((await blockNumber(last, key)).status).toBe(200);
    await last.stop();
    const meter = createUsageMeter(database);
    const points = await meter.usageSeries(app.id, { from: Date.now() - 3_600_000, to: Date.now() + 60_000, bucket: 'hour' });
    await meter.close();
    expect(points.reduce((sum, point) => sum + point.requests, 0)).toBe(3);
  });
});
