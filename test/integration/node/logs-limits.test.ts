import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadAppKeySecret } from '../../../src/apps/key-secret.ts';
import { createAppStore } from '../../../src/apps/store.ts';
import { openDatabase, type Database } from '../../../src/db/open.ts';
import { randomAddress, startRpcProxy, startTestAnvil, type TestAnvil } from '../../support/anvil.ts';
import { writeFixtureDist, type FixtureDist } from '../../support/fixture-dist.ts';
import { startBuiltSite, type BuiltSite } from '../../support/site.ts';

// The log filter limits through the production server (`node src/server/main.ts`): a block range
// of more than 10,000 blocks, its tags (latest, safe, finalized, pending) resolved against the
// chain's head, is refused for eth_getLogs and eth_newFilter alike, as are address and topic lists
// over their caps; every refusal is -32602 naming the limit and reaches no upstream. Behind the
// gateway: a real anvil whose chain starts at block 20,000 (a genesis numbered so, so a range of
// more than 10,000 blocks exists without mining them), behind a proxy that records every call.

const NETWORK = 'base-sepolia';
/** The documented limits (the RPC method reference). */
const MAX_LOGS_BLOCK_RANGE = 10_000;
const MAX_LOGS_FILTER_ADDRESSES = 1_000;
const MAX_LOGS_FILTER_TOPICS = 1_000;
const GENESIS_NUMBER = 20_000n;

let dir: string;
let fixture: FixtureDist;
let server: BuiltSite;
let database: Database;
let chain: TestAnvil;
let proxy: { url: string; close(): Promise<void> };
/** Every method the upstream was sent, batches included. */
const upstreamCalls: string[] = [];
/** The tags of the eth_getBlockByNumber calls the upstream was sent. */
const blockAsks: string[] = [];
let key: string;
/** The chain's blocks as anvil names them, read before the server starts (nothing mines after). */
const head = { latest: 0n, safe: 0n, finalized: 0n };

const hex = (n: bigint) => `0x${n.toString(16)}`;

async function rpcAt(url: string, method: string, params: unknown[]) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
}

const gateway = (method: string, params: unknown[]) => rpcAt(`${server.origin}/node/${NETWORK}/v2/${key}`, method, params);

/** What the upstream was sent while `run` ran. */
async function upstreamDuring(run: () => Promise<void>): Promise<string[]> {
  const before = upstreamCalls.length;
  await run();
  return upstreamCalls.slice(before);
}

const rangeRefusal = (method: string, blocks: bigint) =>
  method === 'eth_getLogs'
    ? `invalid params: [0] filter spans ${blocks} blocks; eth_getLogs is limited to ${MAX_LOGS_BLOCK_RANGE} blocks per call (split the range)`
    : `invalid params: [0] filter spans ${blocks} blocks; ${method} is limited to ${MAX_LOGS_BLOCK_RANGE} blocks per filter (split the range)`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'crucible-logs-limits-'));
  const genesis = join(dir, 'genesis.json');
  await writeFile(
    genesis,
    JSON.stringify({ config: { chainId: 84532 }, number: hex(GENESIS_NUMBER), gasLimit: '0x1c9c380', baseFeePerGas: '0x3b9aca00', alloc: {} }),
  );
  chain = await startTestAnvil({ chainId: 84532, extraArgs: ['--init', genesis] });
  // Past anvil's safe (32 blocks) and finalized (64) depths, so both name blocks of this chain.
  await rpcAt(chain.rpcUrl, 'anvil_mine', ['0x80']);
  for (const tag of ['latest', 'safe', 'finalized'] as const) {
    const block = (await rpcAt(chain.rpcUrl, 'eth_getBlockByNumber', [tag, false])).result as { number: string };
    head[tag] = BigInt(block.number);
  }
  proxy = await startRpcProxy(chain.rpcUrl, async (call) => {
    upstreamCalls.push(call.method);
    if (call.method === 'eth_getBlockByNumber') blockAsks.push(String(call.params[0]));
    return undefined;
  });
  fixture = await writeFixtureDist();
  const databasePath = join(dir, 'crucible.sqlite');
  database = await openDatabase({ engine: 'sqlite', path: databasePath });
  const apps = createAppStore(database, {
    keySecret: await loadAppKeySecret({ engine: 'sqlite', path: databasePath, appKeySecret: null }),
    networks: [NETWORK],
  });
  ({ key } = await apps.create({ name: 'logs limits test' }));
  server = await startBuiltSite({
    distDir: fixture.distDir,
    env: { DATABASE_PATH: databasePath, NODE_UPSTREAMS_BASE_SEPOLIA: proxy.url, PRICES_IN_SERVER: 'off' },
  });
});

afterAll(async () => {
  await server?.stop();
  await database?.close();
  await Promise.all([proxy?.close(), chain?.stop()]);
  if (fixture) await rm(fixture.root, { recursive: true, force: true });
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the block range of a log filter, its tags resolved against the head', () => {
  it('the chain is as the tests assume: anvil names safe and finalized 32 and 64 blocks below latest', () => {
    expect(head.latest).toBe(GENESIS_NUMBER + 0x80n);
    expect(head.safe).toBe(head.latest - 32n);
    expect(head.finalized).toBe(head.latest - 64n);
  });

  it.each([
    ['safe', () => head.safe + 1n],
    ['finalized', () => head.finalized + 1n],
    ['latest', () => head.latest + 1n],
    ['pending', () => head.latest + 2n],
  ] as const)('eth_getLogs from earliest to %s is refused with -32602 naming the limit, and no upstream sees it', async (toBlock, blocks) => {
    const sent = await upstreamDuring(async () => {
      const answer = await gateway('eth_getLogs', [{ fromBlock: 'earliest', toBlock }]);
      expect(answer.error).toEqual({ code: -32602, message: rangeRefusal('eth_getLogs', blocks()) });
    });
    expect(sent).not.toContain('eth_getLogs');
  });

  it('counts a range ending at safe exactly: 10,000 blocks pass to the node, 10,001 are refused', async () => {
    const within = await upstreamDuring(async () => {
      const answer = await gateway('eth_getLogs', [{ fromBlock: hex(head.safe - 9_999n), toBlock: 'safe', address: randomAddress() }]);
      expect(answer.result).toEqual([]);
    });
    expect(within).toContain('eth_getLogs');
    const over = await upstreamDuring(async () => {
      const answer = await gateway('eth_getLogs', [{ fromBlock: hex(head.safe - 10_000n), toBlock: 'safe' }]);
      expect(answer.error).toEqual({ code: -32602, message: rangeRefusal('eth_getLogs', 10_001n) });
    });
    expect(over).not.toContain('eth_getLogs');
  });

  it('eth_newFilter over the range is refused at creation, so eth_getFilterLogs never spans the whole history', async () => {
    const sent = await upstreamDuring(async () => {
      expect((await gateway('eth_newFilter', [{ fromBlock: 'earliest' }])).error).toEqual({
        code: -32602,
        message: rangeRefusal('eth_newFilter', head.latest + 1n),
      });
      expect((await gateway('eth_newFilter', [{ fromBlock: 'earliest', toBlock: 'finalized' }])).error).toEqual({
        code: -32602,
        message: rangeRefusal('eth_newFilter', head.finalized + 1n),
      });
      // Numbers alone are measured at validation.
      expect((await gateway('eth_newFilter', [{ fromBlock: '0x0', toBlock: hex(GENESIS_NUMBER) }])).error).toEqual({
        code: -32602,
        message: rangeRefusal('eth_newFilter', GENESIS_NUMBER + 1n),
      });
    });
    expect(sent).not.toContain('eth_newFilter');
  });

  it('a filter within the range is made on the node and its logs are read', async () => {
    const made = await gateway('eth_newFilter', [{ fromBlock: 'finalized', toBlock: 'latest' }]);
    expect(made.result).toMatch(/^0x[0-9a-f]+$/);
    expect((await gateway('eth_getFilterLogs', [made.result])).result).toEqual([]);
  });
});

describe('address and topic lists', () => {
  const addresses = (count: number) => Array.from({ length: count }, () => randomAddress());
  const topics = (count: number) => Array.from({ length: count }, (_, i) => `0x${i.toString(16).padStart(64, '0')}`);

  it(`at most ${MAX_LOGS_FILTER_ADDRESSES} addresses: one more is -32602 naming the limit, before any upstream`, async () => {
    const blockHash = ((await rpcAt(chain.rpcUrl, 'eth_getBlockByNumber', ['latest', false])).result as { hash: string }).hash;
    // A block-hash filter has no range, whatever the chain's length.
    expect((await gateway('eth_getLogs', [{ blockHash, address: addresses(MAX_LOGS_FILTER_ADDRESSES) }])).result).toEqual([]);
    const sent = await upstreamDuring(async () => {
      for (const method of ['eth_getLogs', 'eth_newFilter']) {
        const answer = await gateway(method, [{ blockHash, address: addresses(MAX_LOGS_FILTER_ADDRESSES + 1) }]);
        expect(answer.error).toEqual({
          code: -32602,
          message: `invalid params: [0] filter.address has ${MAX_LOGS_FILTER_ADDRESSES + 1} addresses; a filter may name at most ${MAX_LOGS_FILTER_ADDRESSES}`,
        });
      }
    });
    expect(sent).not.toContain('eth_getLogs');
    expect(sent).not.toContain('eth_newFilter');
  });

  it(`at most ${MAX_LOGS_FILTER_TOPICS} topics in each position: one more is -32602 naming the position and the limit`, async () => {
    expect((await gateway('eth_getLogs', [{ fromBlock: 'latest', topics: [null, topics(MAX_LOGS_FILTER_TOPICS)] }])).result).toEqual([]);
    const sent = await upstreamDuring(async () => {
      const answer = await gateway('eth_getLogs', [{ fromBlock: 'latest', topics: [null, topics(MAX_LOGS_FILTER_TOPICS + 1)] }]);
      expect(answer.error).toEqual({
        code: -32602,
        message: `invalid params: [0] filter.topics[1] has ${MAX_LOGS_FILTER_TOPICS + 1} topics; a topic position may list at most ${MAX_LOGS_FILTER_TOPICS}`,
      });
    });
    expect(sent).not.toContain('eth_getLogs');
  });
});

describe('resolving safe and finalized', () => {
  const asked = (tag: string) => blockAsks.filter((asked) => asked === tag).length;

  it('asks the node once per head, and again when the head moves', async () => {
    // The calls above all met the same head: one ask each for safe and finalized.
    expect([asked('safe'), asked('finalized')]).toEqual([1, 1]);
    for (let i = 0; i < 3; i++) expect((await gateway('eth_getLogs', [{ fromBlock: 'safe', address: randomAddress() }])).result).toEqual([]);
    expect(asked('safe')).toBe(1);
    await rpcAt(chain.rpcUrl, 'anvil_mine', ['0x1']);
    // The gateway sees the new head at its next probe of the upstream.
    await vi.waitFor(
      async () => {
        expect((await gateway('eth_getLogs', [{ fromBlock: 'safe', address: randomAddress() }])).result).toEqual([]);
        expect(asked('safe')).toBe(2);
      },
      { timeout: 15_000, interval: 100 },
    );
  });
});
