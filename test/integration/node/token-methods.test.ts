import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Alchemy } from 'alchemy-sdk';
import { createPublicClient, erc20Abi, getAddress, http, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAppStore } from '../../../src/apps/store.ts';
import { loadAppKeySecret } from '../../../src/apps/key-secret.ts';
import { DEMO_WALLET, WORLD_HOLDERS } from '../../../src/chain/world/actors.ts';
import { worldHoldings, type Erc20Id } from '../../../src/chain/world/history.ts';
import { MULTICALL3_ADDRESS, WORLD_ADDRESSES } from '../../../src/chain/world/manifest.ts';
import { openDatabase } from '../../../src/db/open.ts';
import { randomAddress } from '../../support/anvil.ts';
import { fixtureSite, writeFixtureDist, type FixtureDist } from '../../support/fixture-dist.ts';
import { startBuiltSite, type BuiltSite } from '../../support/site.ts';

// crucible_getTokenBalances and crucible_getTokenMetadata (docs/token-data.md#failures) through the production
// server in local mode, as `npm start` runs it: the server starts the network's devnet, which
// deploys the local world, its own transfer indexer follows it, and real clients (alchemy-sdk, viem)
// call {node_url}/v2/<key>. viem's reads go through the gateway's eth_call, the answers under test
// through Multicall3 and the index.

const NETWORK = 'base-sepolia';
const ERC20S = ['forge', 'cusd', 'ember', 'bare', 'slag'] as const satisfies readonly Erc20Id[];

let dir: string;
let fixture: FixtureDist;
let server: BuiltSite;
let key: string;

const nodeUrl = () => `${server.origin}/node/${NETWORK}/v2/${key}`;

async function rpc(method: string, params: unknown[]): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const response = await fetch(nodeUrl(), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
}

interface TokenBalances {
  address: string;
  tokenBalances: Array<{ contractAddress: string; tokenBalance: string | null; error: string | null }>;
  pageKey?: string;
}

const viemClient = () => createPublicClient({ transport: http(nodeUrl()) });

/** What viem reads for each contract at the head, one balanceOf eth_call each. */
async function balancesByViem(holder: Address, contracts: readonly string[]): Promise<Map<string, bigint>> {
  const client = viemClient();
  const entries = await Promise.all(
    contracts.map(
      async (contract) =>
        [
          contract.toLowerCase(),
          await client.readContract({ address: getAddress(contract), abi: erc20Abi, functionName: 'balanceOf', args: [holder] }),
        ] as const,
    ),
  );
  return new Map(entries);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'crucible-token-methods-'));
  fixture = await writeFixtureDist();
  const databasePath = join(dir, 'crucible.sqlite');
  const database = await openDatabase({ engine: 'sqlite', path: databasePath });
  const apps = createAppStore(database, {
    keySecret: await loadAppKeySecret({ engine: 'sqlite', path: databasePath, appKeySecret: null }),
    networks: [NETWORK],
  });
  ({ key } = await apps.create({ name: 'token methods test' }));
  await database.close();
  server = await startBuiltSite({
    distDir: fixture.distDir,
    env: { DATABASE_PATH: databasePath, ANVIL_BLOCK_TIME: '1', INDEXER_IN_SERVER: 'on', INDEXER_NETWORKS: NETWORK, INDEXER_POLL_INTERVAL_MS: '200' },
  });
  // The index has caught up with the world once it holds the chain's head as the world stands.
  const head = Number(await viemClient().getBlockNumber());
  await vi.waitFor(
    async () => {
      const status = (await (await fetch(`${server.origin}/api/indexer/status`)).json()) as {
        networks: Array<{ network: string; indexedBlock: number | null }>;
      };
      expect(status.networks.find((entry) => entry.network === NETWORK)?.indexedBlock).toBeGreaterThanOrEqual(head);
    },
    { timeout: 60_000, interval: 250 },
  );
});

afterAll(async () => {
  await server?.stop();
  if (fixture) await rm(fixture.root, { recursive: true, force: true });
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('crucible_getTokenBalances through the gateway', () => {
  it('"erc20" lists every ERC-20 the demo wallet ever held, each balance equal to viem\'s read and to the world\'s history', async () => {
    const alchemy = new Alchemy({ url: nodeUrl() });
    const answer = await alchemy.core.getTokenBalances(DEMO_WALLET);
    expect(answer.address.toLowerCase()).toBe(DEMO_WALLET.toLowerCase());
    const held = worldHoldings().get(DEMO_WALLET)!.erc20;
    const expected = ERC20S.filter((id) => held[id] !== undefined).map((id) => WORLD_ADDRESSES[id].toLowerCase());
    const listed = answer.tokenBalances.map((balance) => balance.contractAddress.toLowerCase());
    // Every ERC-20 of the world the wallet touched, in address order, and nothing else (not the punks' ERC-20-shaped Transfer).
    expect(listed).toEqual([...expected].sort());
    const byViem = await balancesByViem(DEMO_WALLET, listed);
    for (const balance of answer.tokenBalances) {
      expect(balance.error, balance.contractAddress).toBeNull();
      expect(balance.tokenBalance).toMatch(/^0x[0-9a-f]{64}$/);
      expect(BigInt(balance.tokenBalance!), balance.contractAddress).toBe(byViem.get(balance.contractAddress.toLowerCase()));
    }
    for (const id of ERC20S.filter((token) => held[token] !== undefined)) {
      const balance = answer.tokenBalances.find((entry) => entry.contractAddress.toLowerCase() === WORLD_ADDRESSES[id].toLowerCase())!;
      expect(BigInt(balance.tokenBalance!), id).toBe(held[id]);
    }
  });

  it('pages "erc20" with pageKey and maxCount: the pages join up to the whole list', async () => {
    const whole = (await rpc('alchemy_getTokenBalances', [DEMO_WALLET])).result as TokenBalances;
    const pages: TokenBalances[] = [];
    let pageKey: string | undefined;
    do {
      const page = (await rpc('crucible_getTokenBalances', [DEMO_WALLET, 'erc20', { maxCount: 2, ...(pageKey && { pageKey }) }])).result as TokenBalances;
      expect(page.tokenBalances.length).toBeLessThanOrEqual(2);
      pages.push(page);
      pageKey = page.pageKey;
    } while (pageKey);
    expect(pages.length).toBe(Math.ceil(whole.tokenBalances.length / 2));
    expect(pages.flatMap((page) => page.tokenBalances)).toEqual(whole.tokenBalances);
  });

  it("a list of contracts is answered in its order, with the reverting token's error for its 0xff holder", async () => {
    const contracts = [WORLD_ADDRESSES.slag, WORLD_ADDRESSES.cusd, WORLD_ADDRESSES.forge, WORLD_ADDRESSES.cusd];
    const fay = (await rpc('alchemy_getTokenBalances', [WORLD_HOLDERS.fay, contracts])).result as TokenBalances;
    expect(fay.tokenBalances.map((balance) => balance.contractAddress)).toEqual(contracts.map((contract) => contract.toLowerCase()));
    expect(fay.tokenBalances[0]).toMatchObject({ tokenBalance: null, error: expect.stringMatching(/revert/i) });
    const byViem = await balancesByViem(WORLD_HOLDERS.fay, contracts.slice(1));
    for (const balance of fay.tokenBalances.slice(1)) expect(BigInt(balance.tokenBalance!)).toBe(byViem.get(balance.contractAddress));
    const ada = (await rpc('alchemy_getTokenBalances', [WORLD_HOLDERS.ada, [WORLD_ADDRESSES.slag]])).result as TokenBalances;
    expect(ada.tokenBalances[0]!.error).toBeNull();
    expect(BigInt(ada.tokenBalances[0]!.tokenBalance!)).toBe(
      (await balancesByViem(WORLD_HOLDERS.ada, [WORLD_ADDRESSES.slag])).get(WORLD_ADDRESSES.slag.toLowerCase()),
    );
  });

  it('a contract that is not a token and an address without code get an error each; the others still answer', async () => {
    const answer = (await rpc('crucible_getTokenBalances', [DEMO_WALLET, [MULTICALL3_ADDRESS, randomAddress(), WORLD_ADDRESSES.forge]]))
      .result as TokenBalances;
    expect(answer.tokenBalances[0]).toMatchObject({ tokenBalance: null, error: expect.any(String) });
    expect(answer.tokenBalances[1]).toMatchObject({ tokenBalance: null, error: expect.stringMatching(/not a contract/) });
    expect(answer.tokenBalances[2]!.error).toBeNull();
  });

  it('"NATIVE_TOKEN" is one entry at the zero address holding the native balance', async () => {
    const answer = (await rpc('crucible_getTokenBalances', [WORLD_HOLDERS.ada, 'NATIVE_TOKEN'])).result as TokenBalances;
    expect(answer.tokenBalances).toEqual([{ contractAddress: '0x0000000000000000000000000000000000000000', tokenBalance: expect.any(String), error: null }]);
    expect(BigInt(answer.tokenBalances[0]!.tokenBalance!)).toBe(await viemClient().getBalance({ address: WORLD_HOLDERS.ada }));
  });

  it('bad input gets -32602 naming the param: a bad address, 101 contracts, a bad pageKey, an unknown spec', async () => {
    const cases: Array<[unknown[], RegExp]> = [
      [['0x1234'], /\[0\] address must be a 20-byte address/],
      [[DEMO_WALLET, Array.from({ length: 101 }, () => WORLD_ADDRESSES.forge)], /\[1\] spec must be/],
      [[DEMO_WALLET, 'erc20', { pageKey: 'not-a-page-key' }], /\[2\] options\.pageKey/],
      [[DEMO_WALLET, 'DEFAULT_TOKENS'], /\[1\] spec must be "erc20", "NATIVE_TOKEN"/],
    ];
    for (const [params, message] of cases) {
      const answer = await rpc('alchemy_getTokenBalances', params);
      expect(answer.error?.code, JSON.stringify(params).slice(0, 80)).toBe(-32602);
      expect(answer.error?.message).toMatch(message);
    }
  });
});

describe('crucible_getTokenMetadata through the gateway', () => {
  it('alchemy-sdk reads name, symbol, decimals and the listed logo; bytes32 names decode; a token without metadata functions is all null', async () => {
    const alchemy = new Alchemy({ url: nodeUrl() });
    expect(await alchemy.core.getTokenMetadata(WORLD_ADDRESSES.cusd)).toEqual({
      name: 'Crucible USD',
      symbol: 'cUSD',
      decimals: 6,
      logo: `${fixtureSite}/tokens/cusd.svg`,
    });
    expect(await alchemy.core.getTokenMetadata(WORLD_ADDRESSES.ember)).toMatchObject({ name: 'Ember', symbol: 'EMBR', decimals: 18 });
    expect(await alchemy.core.getTokenMetadata(WORLD_ADDRESSES.bare)).toEqual({ name: null, symbol: null, decimals: null, logo: null });
    expect((await rpc('crucible_getTokenMetadata', [randomAddress()])).result).toEqual({ name: null, symbol: null, decimals: null, logo: null });
    expect((await rpc('crucible_getTokenMetadata', ['0xnope'])).error?.code).toBe(-32602);
  });
});
