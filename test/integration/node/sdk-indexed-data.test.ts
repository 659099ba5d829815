import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Alchemy } from 'alchemy-sdk';
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAppStore } from '../../../src/apps/store.ts';
import { DEMO_WALLET, WORLD_HOLDERS } from '../../../src/chain/world/actors.ts';
import { worldHoldings, type Erc20Id } from '../../../src/chain/world/history.ts';
import { WORLD_ADDRESSES } from '../../../src/chain/world/manifest.ts';
import { openDatabase, type Database } from '../../../src/db/open.ts';
import { writeFixtureDist, type FixtureDist } from '../../support/fixture-dist.ts';
import { startPostgres, type TestPostgres } from '../../support/postgres.ts';
import { startBuiltSite, type BuiltSite } from '../../support/site.ts';

// Every network serves the index's data by default (docs/token-data.md#which-networks): the
// production server in local mode with no INDEXER_NETWORKS, as a fresh `npm start` runs it, on
// SQLite and on PostgreSQL. Networks other than ethereum-sepolia start nowhere until first used;
// the first token and NFT answers on one wait for its index to reach the head instead of
// answering 503. Real alchemy-sdk 3.6.5 clients call {node_url}/v2/<key>.

const TOKENS_NETWORK = 'base-sepolia';
const NFTS_NETWORK = 'arbitrum-sepolia';
const UNUSED_NETWORK = 'optimism-sepolia';
const ERC20S = ['forge', 'cusd', 'ember', 'bare', 'slag'] as const satisfies readonly Erc20Id[];

interface IndexStatus {
  network: string;
  state: string;
  indexedBlock: number | null;
}

interface Engine {
  name: string;
  /** The server's database settings, with the database opened for the test's own writes. */
  open(dir: string): Promise<{ env: Record<string, string>; database: Database; stop(): Promise<void> }>;
}

const APP_KEY_SECRET = randomBytes(32).toString('hex');

const engines: Engine[] = [
  {
    name: 'SQLite',
    async open(dir) {
      const path = join(dir, 'crucible.sqlite');
      return { env: { DATABASE_PATH: path, APP_KEY_SECRET }, database: await openDatabase({ engine: 'sqlite', path }), stop: async () => {} };
    },
  },
  {
    name: 'PostgreSQL',
    async open(dir) {
      const postgres: TestPostgres = await startPostgres();
      return {
        // The devnets' chains go beside DATABASE_PATH, in the test's folder.
        env: { DATABASE_URL: postgres.url, DATABASE_PATH: join(dir, 'unused.sqlite'), APP_KEY_SECRET },
        database: await openDatabase({ engine: 'postgres', url: postgres.url }),
        stop: () => postgres.stop(),
      };
    },
  },
];

describe.each(engines)('a fresh local server on $name, no INDEXER_NETWORKS', (engine) => {
  let dir: string;
  let fixture: FixtureDist;
  let server: BuiltSite;
  let key: string;
  let stopDatabase: () => Promise<void>;

  const nodeUrl = (network: string) => `${server.origin}/node/${network}/v2/${key}`;
  const statusOf = async (network: string): Promise<IndexStatus> => {
    const body = (await (await fetch(`${server.origin}/api/indexer/status`)).json()) as { networks: IndexStatus[] };
    return body.networks.find((entry) => entry.network === network)!;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'crucible-sdk-indexed-'));
    fixture = await writeFixtureDist();
    const opened = await engine.open(dir);
    stopDatabase = opened.stop;
    const apps = createAppStore(opened.database, { keySecret: Buffer.from(APP_KEY_SECRET, 'hex'), networks: [TOKENS_NETWORK, NFTS_NETWORK] });
    ({ key } = await apps.create({ name: 'sdk indexed data', computeUnitsPerSecond: 100_000 }));
    await opened.database.close();
    server = await startBuiltSite({
      distDir: fixture.distDir,
      // INDEXER_IN_SERVER is on by default; the test support turns it off, so it is turned back on. No INDEXER_NETWORKS.
      env: { ...opened.env, INDEXER_IN_SERVER: 'on', ANVIL_BLOCK_TIME: '1', INDEXER_POLL_INTERVAL_MS: '200', PRICES_IN_SERVER: 'off' },
    });
  });

  afterAll(async () => {
    await server?.stop();
    await stopDatabase?.();
    if (fixture) await rm(fixture.root, { recursive: true, force: true });
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("a network's index starts with its devnet's first use: before it, nothing follows it", async () => {
    for (const network of [TOKENS_NETWORK, NFTS_NETWORK, UNUSED_NETWORK]) {
      expect(await statusOf(network), network).toMatchObject({ state: 'waiting', indexedBlock: null });
    }
  });

  it('the first getTokenBalances on a fresh devnet waits for its index and lists every ERC-20 the demo wallet held', async () => {
    const alchemy = new Alchemy({ url: nodeUrl(TOKENS_NETWORK) });
    const answer = await alchemy.core.getTokenBalances(DEMO_WALLET);
    const held = worldHoldings().get(DEMO_WALLET)!.erc20;
    const expected = ERC20S.filter((id) => held[id] !== undefined).map((id) => WORLD_ADDRESSES[id].toLowerCase());
    expect(answer.tokenBalances.map((balance) => balance.contractAddress)).toEqual([...expected].sort());
    for (const id of ERC20S.filter((token) => held[token] !== undefined)) {
      const balance = answer.tokenBalances.find((entry) => entry.contractAddress === WORLD_ADDRESSES[id].toLowerCase())!;
      expect(BigInt(balance.tokenBalance!), id).toBe(held[id]);
    }
    // The index followed the devnet from its first use; a network no one used still runs nothing.
    expect((await statusOf(TOKENS_NETWORK)).indexedBlock).toBeGreaterThan(0);
    expect(await statusOf(UNUSED_NETWORK)).toMatchObject({ state: 'waiting', indexedBlock: null });
  });

  it('the first getNFTs on another fresh devnet waits for its index too, and lists the demo wallet’s NFTs', async () => {
    const response = await fetch(`${nodeUrl(NFTS_NETWORK)}/getNFTs?owner=${DEMO_WALLET}&withMetadata=false`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { ownedNfts: Array<{ contract: { address: string }; tokenId: string }>; totalCount: number };
    const relics = body.ownedNfts.filter((nft) => getAddress(nft.contract.address) === getAddress(WORLD_ADDRESSES.relics));
    expect(relics.map((nft) => BigInt(nft.tokenId)).sort((a, b) => Number(a - b))).toEqual(worldHoldings().get(DEMO_WALLET)!.items.relics);
    expect((await statusOf(NFTS_NETWORK)).indexedBlock).toBeGreaterThan(0);
    // The incumbent's name of the network reaches the same endpoint.
    const byAlias = await fetch(`${nodeUrl('arb-sepolia')}/getNFTs?owner=${DEMO_WALLET}&withMetadata=false`);
    expect(byAlias.status).toBe(200);
    expect(((await byAlias.json()) as typeof body).totalCount).toBe(body.totalCount);
  });

  it("getTokensForOwner works: every listed token with its metadata, and a holder whose token's balanceOf reverts gets the rest", async () => {
    const alchemy = new Alchemy({ url: nodeUrl(TOKENS_NETWORK) });
    const { tokens } = await alchemy.core.getTokensForOwner(DEMO_WALLET);
    const held = worldHoldings().get(DEMO_WALLET)!.erc20;
    const cusd = tokens.find((token) => token.contractAddress === WORLD_ADDRESSES.cusd.toLowerCase())!;
    expect(cusd).toMatchObject({ symbol: 'cUSD', decimals: 6, rawBalance: held.cusd!.toString() });
    expect(Number(cusd.balance)).toBeCloseTo(Number(held.cusd!) / 1e6);

    // fay's SLAG balance cannot be read: the SDK would throw on its null balance, so the listing leaves it out.
    const forFay = await alchemy.core.getTokensForOwner(WORLD_HOLDERS.fay);
    const listed = forFay.tokens.map((token) => token.contractAddress);
    expect(listed).toContain(WORLD_ADDRESSES.cusd.toLowerCase());
    expect(listed).not.toContain(WORLD_ADDRESSES.slag.toLowerCase());
  });
});

describe('INDEXER_CATCH_UP_WAIT_MS bounds the first answer’s wait', () => {
  let dir: string;
  let fixture: FixtureDist;
  let server: BuiltSite;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'crucible-sdk-wait-'));
    fixture = await writeFixtureDist();
    server = await startBuiltSite({
      distDir: fixture.distDir,
      env: {
        DATABASE_PATH: join(dir, 'crucible.sqlite'),
        INDEXER_IN_SERVER: 'on',
        INDEXER_CATCH_UP_WAIT_MS: '0',
        ANVIL_BLOCK_TIME: '1',
        PRICES_IN_SERVER: 'off',
      },
    });
  });

  afterAll(async () => {
    await server?.stop();
    if (fixture) await rm(fixture.root, { recursive: true, force: true });
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('with no wait, a fresh devnet’s first "erc20" answer is the documented 503, and later ones answer once its index holds blocks', async () => {
    const call = () =>
      fetch(`${server.origin}/node/${TOKENS_NETWORK}/v2/demo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'alchemy_getTokenBalances', params: [DEMO_WALLET] }),
      });
    const first = await call();
    expect(first.status).toBe(503);
    expect(((await first.json()) as { error: { code: number; message: string } }).error).toMatchObject({
      code: -32603,
      message: expect.stringMatching(/^The transfer index of network base-sepolia is not available here/),
    });
    await vi.waitFor(async () => expect((await call()).status).toBe(200), { timeout: 60_000, interval: 500 });
  });
});
