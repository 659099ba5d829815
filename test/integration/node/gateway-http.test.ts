import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Alchemy } from 'alchemy-sdk';
import { JsonRpcProvider } from 'ethers';
import { createPublicClient, http, parseEther, webSocket, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAppKeySecret } from '../../../src/apps/key-secret.ts';
import { createAppStore, type AppStore } from '../../../src/apps/store.ts';
import { openDatabase, type Database } from '../../../src/db/open.ts';
import { randomAddress, startRpcProxy, startTestAnvil, type TestAnvil } from '../../support/anvil.ts';
import { fixtureSite, writeFixtureDist, type FixtureDist } from '../../support/fixture-dist.ts';
import { freePort, refusingPort } from '../../support/free-port.ts';
import { validateOpenRpc } from '../../support/openrpc-validator.ts';
import { startBuiltSite, type BuiltSite } from '../../support/site.ts';

// The node gateway through the real production server (`node src/server/main.ts`): every row of
// docs/errors.md#json-rpc-errors's table, the demo key, apps from the database, and real clients (viem, ethers,
// alchemy-sdk) pointed at `{node_url}/v2/<key>`. Behind it: the local devnet the faucet drips on
// (ethereum-sepolia), a test anvil behind a counting proxy (base-sepolia: cache, failover) and a
// network whose only upstream is a closed port (arbitrum-sepolia: 503).

const LOCAL = 'ethereum-sepolia';
const PROXIED = 'base-sepolia';
const DEAD = 'arbitrum-sepolia';
const DEV_TOKEN = 'XXXX.DUMMY.TOKEN.XXXX';
/** anvil's first dev account: funded at genesis on every devnet. */
const ANVIL_ACCOUNT: Address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

let dir: string;
let fixture: FixtureDist;
let server: BuiltSite;
let database: Database;
let apps: AppStore;
let chain: TestAnvil;
let proxy: { url: string; close(): Promise<void> };
const upstreamCalls: string[] = [];
let key: string;
let metricsPort: number;
let dead: Awaited<ReturnType<typeof refusingPort>>;

const nodeUrl = (network: string, appKey = key) => `${server.origin}/node/${network}/v2/${appKey}`;

async function rpc(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

const call = (method: string, params: unknown[] = [], id: unknown = 1) => ({ jsonrpc: '2.0', id, method, params });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'crucible-node-http-'));
  fixture = await writeFixtureDist();
  chain = await startTestAnvil({ chainId: 84532 });
  proxy = await startRpcProxy(chain.rpcUrl, async (c) => {
    upstreamCalls.push(c.method);
    return undefined;
  });
  const databasePath = join(dir, 'crucible.sqlite');
  database = await openDatabase({ engine: 'sqlite', path: databasePath });
  const networks = [LOCAL, PROXIED, DEAD, 'crucible-testnet'];
  apps = createAppStore(database, { keySecret: await loadAppKeySecret({ engine: 'sqlite', path: databasePath, appKeySecret: null }), networks });
  ({ key } = await apps.create({ name: 'gateway test' }));
  dead = await refusingPort();
  metricsPort = await freePort();
  server = await startBuiltSite({
    distDir: fixture.distDir,
    env: {
      DATABASE_PATH: databasePath,
      ANVIL_BLOCK_TIME: '1',
      NODE_UPSTREAMS_BASE_SEPOLIA: proxy.url,
      NODE_UPSTREAMS_ARBITRUM_SEPOLIA: `http://127.0.0.1:${dead.port}`,
      METRICS_PORT: String(metricsPort),
      // The demo key refills 10 CU a second here, so its limit is met however slowly the calls go.
      DEMO_KEY_COMPUTE_UNITS_PER_SECOND: '10',
      DEMO_KEY_COMPUTE_UNIT_BURST: '2000',
    },
  });
});

afterAll(async () => {
  await server?.stop();
  await database?.close();
  await Promise.all([proxy?.close(), chain?.stop(), dead?.release()]);
  if (fixture) await rm(fixture.root, { recursive: true, force: true });
  await rm(dir, { recursive: true, force: true });
});

describe('clients written for other providers work by changing only their URL', () => {
  it('viem reads the block number, the chain id and the balance of an address the faucet just dripped', async () => {
    const client = createPublicClient({ transport: http(nodeUrl(LOCAL)) });
    const address = randomAddress();
    const drip = await fetch(`${server.origin}/api/faucets/${LOCAL}/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ address, turnstileToken: DEV_TOKEN }),
    });
    expect(drip.status).toBe(200);
    const { transactionHash } = (await drip.json()) as { transactionHash: `0x${string}` };
    const receipt = await client.waitForTransactionReceipt({ hash: transactionHash, pollingInterval: 200 });
    expect(receipt.status).toBe('success');
    expect(await client.getBalance({ address })).toBe(parseEther('0.1'));
    expect(await client.getChainId()).toBe(11155111);
    // viem keeps the number it read while waiting for the receipt for 4 s (its cacheTime): ask again.
    expect(await client.getBlockNumber({ cacheTime: 0 })).toBeGreaterThanOrEqual(receipt.blockNumber);
  });

  it('ethers v6 JsonRpcProvider', async () => {
    const provider = new JsonRpcProvider(nodeUrl(LOCAL), undefined, { staticNetwork: true });
    expect(Number((await provider.getNetwork()).chainId)).toBe(11155111);
    expect(await provider.getBlockNumber()).toBeGreaterThanOrEqual(0);
    expect(await provider.getBalance('0x000000000000000000000000000000000000dEaD')).toBe(0n);
    provider.destroy();
  });

  it('alchemy-sdk 3.6.5 with its url setting', async () => {
    const alchemy = new Alchemy({ url: nodeUrl(LOCAL) });
    expect(await alchemy.core.getBlockNumber()).toBeGreaterThanOrEqual(0);
    expect((await alchemy.core.getGasPrice()).toBigInt()).toBeGreaterThan(0n);
    expect((await alchemy.core.getBalance(ANVIL_ACCOUNT)).toBigInt()).toBeGreaterThan(0n);
  });
});

describe('WebSocket on the same path, through the production server', () => {
  it('viem’s webSocket transport reads the chain and watches new heads', async () => {
    const transport = webSocket(nodeUrl(LOCAL).replace(/^http/, 'ws'));
    const client = createPublicClient({ transport });
    expect(await client.getChainId()).toBe(11155111);
    const heads = await new Promise<bigint[]>((resolve, reject) => {
      const seen: bigint[] = [];
      const stop = client.watchBlocks({
        onBlock: (block) => {
          seen.push(block.number);
          if (seen.length === 2) {
            stop();
            resolve(seen);
          }
        },
        onError: reject,
      });
    });
    expect(heads[1]! - heads[0]!).toBe(1n);
    await (await client.transport.getRpcClient()).close();
  });
});

describe('docs/errors.md#json-rpc-errors: statuses and error codes', () => {
  it('success is 200 with the node result and the caller’s id echoed', async () => {
    const answer = await rpc(nodeUrl(LOCAL), call('eth_chainId', [], 'abc'));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ jsonrpc: '2.0', id: 'abc', result: '0xaa36a7' });
  });

  it('a node-side error of a valid call is 200 with the node’s own code and message', async () => {
    const answer = await rpc(nodeUrl(LOCAL), call('eth_getBlockByNumber', ['0xffffffff', false]));
    expect(answer.status).toBe(200);
    expect(answer.body.result).toBeNull();
    const reverted = await rpc(nodeUrl(LOCAL), call('eth_call', [{ to: '0x000000000000000000000000000000000000dEaD', data: '0x', gas: '0x1' }, 'latest']));
    expect(reverted.status).toBe(200);
    expect(reverted.body.error.code).not.toBe(-32602);
    expect(typeof reverted.body.error.message).toBe('string');
  });

  it('a body that is not JSON is 400 -32700', async () => {
    const answer = await rpc(nodeUrl(LOCAL), '{"jsonrpc": "2.0", ');
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe(-32700);
    expect(answer.body.id).toBeNull();
  });

  it.each([
    ['jsonrpc is not "2.0"', { jsonrpc: '1.0', id: 1, method: 'eth_chainId', params: [] }, 'jsonrpc'],
    ['no method', { jsonrpc: '2.0', id: 1, params: [] }, 'method'],
    ['params not a list', { jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: { address: '0x0' } }, 'params'],
    ['an empty batch', [], 'empty'],
    ['a batch of 101', Array.from({ length: 101 }, (_, i) => call('eth_chainId', [], i)), '100'],
  ])('%s is 400 -32600 naming the field', async (_, body, named) => {
    const answer = await rpc(nodeUrl(LOCAL), body);
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe(-32600);
    expect(answer.body.error.message).toContain(named);
  });

  it.each([
    'eth_madeUp',
    'eth_sendTransaction',
    'eth_sign',
    'personal_unlockAccount',
    'anvil_setBalance',
    'evm_mine',
    'debug_setHead',
    'debug_getRawBlock',
    'trace_replayTransaction',
    'admin_peers',
  ])('%s is refused with -32601 and a docs link, and never reaches the node', async (method) => {
    const before = upstreamCalls.length;
    const answer = await rpc(nodeUrl(PROXIED), call(method, []));
    expect(answer.status).toBe(200);
    expect(answer.body.error.code).toBe(-32601);
    expect(answer.body.error.message).toMatch(new RegExp(`^Unsupported method: ${method}\\. See https?://`));
    expect(upstreamCalls.slice(before)).not.toContain(method);
  });

  it('anvil_setBalance through the gateway changes nothing on the devnet', async () => {
    const address = randomAddress();
    await rpc(nodeUrl(LOCAL), call('anvil_setBalance', [address, '0x56bc75e2d63100000']));
    const balance = await rpc(nodeUrl(LOCAL), call('eth_getBalance', [address, 'latest']));
    expect(balance.body.result).toBe('0x0');
  });

  it('eth_accounts answers [] (no node-held accounts are exposed)', async () => {
    const answer = await rpc(nodeUrl(LOCAL), call('eth_accounts'));
    expect(answer.body.result).toEqual([]);
  });

  it('invalid params are -32602 naming the parameter', async () => {
    const answer = await rpc(nodeUrl(LOCAL), call('eth_getBalance', ['0x1234', 'latest']));
    expect(answer.status).toBe(200);
    expect(answer.body.error.code).toBe(-32602);
    expect(answer.body.error.message).toMatch(/\[0\] address/);
  });

  it('a batch answers each item on its own, in order, and skips notifications', async () => {
    const answer = await rpc(nodeUrl(LOCAL), [
      call('eth_chainId', [], 1),
      { jsonrpc: '2.0', method: 'eth_blockNumber', params: [] },
      call('eth_madeUp', [], 2),
      { jsonrpc: '1.0', id: 3, method: 'eth_chainId' },
      call('eth_getBalance', ['nope'], 4),
    ]);
    expect(answer.status).toBe(200);
    expect(answer.body.map((item: { id: unknown }) => item.id)).toEqual([1, 2, 3, 4]);
    expect(answer.body[0].result).toBe('0xaa36a7');
    expect(answer.body.slice(1).map((item: { error: { code: number } }) => item.error.code)).toEqual([-32601, -32600, -32602]);
  });

  it('a notification alone gets no answer (204)', async () => {
    const answer = await rpc(nodeUrl(LOCAL), { jsonrpc: '2.0', method: 'eth_chainId', params: [] });
    expect(answer.status).toBe(204);
    expect(answer.body).toBeNull();
  });

  it('a missing or unknown key is 401 -32600 "Invalid API key"', async () => {
    for (const url of [`${server.origin}/node/${LOCAL}/v2/`, `${server.origin}/node/${LOCAL}/v2`, nodeUrl(LOCAL, 'x'.repeat(32))]) {
      const answer = await rpc(url, call('eth_chainId'));
      expect(answer.status).toBe(401);
      expect(answer.body.error).toEqual({ code: -32600, message: 'Invalid API key' });
    }
  });

  it('a disabled app, a network it is not allowed on, a foreign origin: 403 saying which', async () => {
    const disabled = await apps.create({ name: 'disabled' });
    await apps.setState(disabled.app.id, 'disabled');
    const narrow = await apps.create({ name: 'narrow', allowedNetworks: [PROXIED], allowedDomains: ['app.example.com', '*.example.org'] });
    const cases: Array<[string, Record<string, string>, RegExp]> = [
      [nodeUrl(LOCAL, disabled.key), {}, /disabled/],
      [nodeUrl(LOCAL, narrow.key), {}, /not allowed on network ethereum-sepolia/],
      [nodeUrl(PROXIED, narrow.key), { origin: 'https://evil.example.net' }, /origin https:\/\/evil\.example\.net/],
      [nodeUrl(PROXIED, narrow.key), { origin: 'https://example.org' }, /origin/],
    ];
    for (const [url, headers, message] of cases) {
      const answer = await rpc(url, call('eth_chainId'), headers);
      expect(answer.status).toBe(403);
      expect(answer.body.error.code).toBe(-32600);
      expect(answer.body.error.message).toMatch(message);
    }
    for (const origin of ['https://app.example.com', 'https://deep.sub.example.org']) {
      expect((await rpc(nodeUrl(PROXIED, narrow.key), call('eth_chainId'), { origin })).status).toBe(200);
    }
    // Scripts and servers send no Origin: the list does not apply to them.
    expect((await rpc(nodeUrl(PROXIED, narrow.key), call('eth_chainId'))).status).toBe(200);
  });

  it('over the app’s CU rate: 429 with Retry-After, saying which limit', async () => {
    const slow = await apps.create({ name: 'slow', computeUnitsPerSecond: 1 });
    expect((await rpc(nodeUrl(LOCAL, slow.key), call('eth_blockNumber'))).status).toBe(200);
    const answer = await rpc(nodeUrl(LOCAL, slow.key), call('eth_blockNumber'));
    expect(answer.status).toBe(429);
    expect(answer.body.error.code).toBe(429);
    expect(answer.body.error.message).toMatch(/compute units per second/);
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('over the monthly quota: 429 with Retry-After until the month ends', async () => {
    const small = await apps.create({ name: 'small quota', monthlyComputeUnitQuota: 25 });
    for (let i = 0; i < 2; i++) expect((await rpc(nodeUrl(LOCAL, small.key), call('eth_blockNumber'))).status).toBe(200);
    const answer = await rpc(nodeUrl(LOCAL, small.key), call('eth_blockNumber'));
    expect(answer.status).toBe(429);
    expect(answer.body.error.message).toMatch(/monthly quota of 25 compute units/);
    const now = new Date();
    const monthEnd = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan((monthEnd - Date.now()) / 1000 - 60);
  });

  it('a body over 2 MiB is 413 giving the limit', async () => {
    const answer = await rpc(nodeUrl(LOCAL), call('eth_chainId', ['x'.repeat(2 * 1024 * 1024)]));
    expect(answer.status).toBe(413);
    expect(answer.body.error.code).toBe(-32600);
    expect(answer.body.error.message).toMatch(/2 MiB/);
  });

  it('a network with no healthy upstream is 503 -32603 with retry advice', async () => {
    const answer = await rpc(nodeUrl(DEAD), call('eth_blockNumber'));
    expect(answer.status).toBe(503);
    expect(answer.body.error.code).toBe(-32603);
    expect(answer.body.error.message).toMatch(/retry/);
  });

  it('an unknown network is 404 with the Error body', async () => {
    const answer = await rpc(nodeUrl('no-such-net'), call('eth_chainId'));
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe('not_found');
    expect(answer.body.error.status).toBe(404);
  });
});

describe('the registry behind the gateway', () => {
  it('eth_getLogs over more than 10,000 blocks is -32602 naming the limit, tags resolved against the head', async () => {
    const wide = await rpc(nodeUrl(LOCAL), call('eth_getLogs', [{ fromBlock: '0x0', toBlock: '0x2710' }]));
    expect(wide.body.error.code).toBe(-32602);
    expect(wide.body.error.message).toMatch(/10000 blocks/);
    // The devnet holds the local world's logs: an address that never logged anything gets none.
    const narrow = await rpc(nodeUrl(LOCAL), call('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', address: randomAddress() }]));
    expect(narrow.body.result).toEqual([]);
  });

  it('rpc.discover and {node_url}/openrpc.json answer the same valid OpenRPC document', async () => {
    const discovered = (await rpc(nodeUrl(PROXIED), call('rpc.discover'))).body.result;
    expect(validateOpenRpc(discovered), JSON.stringify(validateOpenRpc.errors)).toBe(true);
    const served = await fetch(`${server.origin}/node/${PROXIED}/openrpc.json`);
    expect(served.status).toBe(200);
    expect(await served.json()).toEqual(discovered);
    // The document names the site’s canonical origin, as every built page does.
    expect(discovered.servers[0].url).toBe(`${fixtureSite}/node/${PROXIED}/v2/demo`);
    expect(discovered.methods.map((method: { name: string }) => method.name)).toEqual(
      expect.arrayContaining(['eth_blockNumber', 'eth_getLogs', 'eth_subscribe']),
    );
    expect(discovered.methods.map((method: { name: string }) => method.name)).not.toContain('eth_sendTransaction');
  });
});

describe('the demo key', () => {
  it('works on every network without an account, limited in compute units per client IP', async () => {
    const answer = await rpc(nodeUrl(LOCAL, 'demo'), call('eth_chainId'));
    expect(answer.body.result).toBe('0xaa36a7');
    expect((await rpc(nodeUrl(PROXIED, 'docs-demo'), call('eth_chainId'))).body.result).toBe('0x14a34');
    // 2,000 CU at once per client IP and network (10 of them spent above), refilled at 10 CU a second
    // here: eth_getLogs (75 CU) until refused, never served more than the bucket and its refill allow
    // in the time the calls took.
    const logs = call('eth_getLogs', [{ fromBlock: 'latest', toBlock: 'latest' }]);
    const started = Date.now();
    const answers: Array<Awaited<ReturnType<typeof rpc>>> = [];
    while (answers.at(-1)?.status !== 429 && answers.length < 200) answers.push(await rpc(nodeUrl(PROXIED, 'demo'), logs));
    expect(answers.at(-1)?.status).toBe(429);
    expect(answers.slice(0, 20).every((answer) => answer.status === 200)).toBe(true);
    const served = answers.filter((answer) => answer.status === 200).length;
    expect(served).toBeLessThanOrEqual(Math.floor((2_000 + 10 * Math.ceil((Date.now() - started) / 1_000)) / 75));
    expect(answers.at(-1)?.body.error.message).toMatch(/demo key's 10 compute units per second per client IP/);
  });
});

describe('upstreams', () => {
  it('keeps immutable answers: a mined receipt is asked of the node once', async () => {
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    const hash = await chain.client.sendTransaction({ account: ANVIL_ACCOUNT, to: randomAddress(), value: 1n, chain: null });
    await client.waitForTransactionReceipt({ hash, pollingInterval: 100 });
    const before = upstreamCalls.filter((method) => method === 'eth_getTransactionReceipt').length;
    for (let i = 0; i < 3; i++) {
      const answer = await rpc(nodeUrl(PROXIED), call('eth_getTransactionReceipt', [hash]));
      expect(answer.body.result.transactionHash).toBe(hash);
    }
    expect(upstreamCalls.filter((method) => method === 'eth_getTransactionReceipt').length - before).toBe(1);
  });
});

describe('metrics', () => {
  it('are served in Prometheus format on their own port, not on the public one', async () => {
    await rpc(nodeUrl(LOCAL), call('eth_chainId'));
    await rpc(nodeUrl(LOCAL), call('eth_madeUp'));
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(text).toMatch(/crucible_node_calls_total\{network="ethereum-sepolia",method="eth_chainId",outcome="ok"\} [1-9]/);
    expect(text).toMatch(/crucible_node_request_duration_seconds_count\{network="ethereum-sepolia",transport="http",status="200"\} [1-9]/);
    expect(text).toMatch(/crucible_node_upstream_head\{network="base-sepolia",upstream="http:\/\/127\.0\.0\.1:\d+#0"\} \d+/);
    expect(text).toMatch(/crucible_node_upstream_consecutive_failures\{network="arbitrum-sepolia",[^}]*\} [1-9]/);
    expect((await fetch(`${server.origin}/metrics`)).status).toBe(404);
  });
});
