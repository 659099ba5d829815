import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { Alchemy, AssetTransfersCategory, type Network } from 'alchemy-sdk';
import { createPublicClient, erc20Abi, getAddress, http, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAppStore } from '../../../src/apps/store.ts';
import { DEMO_WALLET, WORLD_HOLDERS } from '../../../src/chain/world/actors.ts';
import { WORLD_ADDRESSES } from '../../../src/chain/world/manifest.ts';
import { openDatabase } from '../../../src/db/open.ts';
import { writeFixtureDist, type FixtureDist } from '../../support/fixture-dist.ts';
import { createResponseValidator, type ResponseValidator } from '../../support/openapi-validator.ts';
import { databaseEngines } from '../../support/postgres.ts';
import { startBuiltSite, type BuiltSite } from '../../support/site.ts';

// The portfolio API (docs/portfolio.md) through the production server in local mode, on SQLite and
// PostgreSQL, called by alchemy-sdk 3.6.5 with its url at <site origin>/data/v1/<key>: two of the
// local world's wallets on three devnets, each carrying the world. base-sepolia and ethereum-sepolia
// start before the tests (the world's prices are sampled on ethereum-sepolia); optimism-sepolia's
// devnet starts on the portfolio's first call, which waits for its index. What each answer must hold
// is read independently: balances from the node with viem, NFTs through the NFT endpoint, transactions
// through crucible_getAssetTransfers. Every devnet is followed from its first use (no INDEXER_NETWORKS).

const APP_KEY_SECRET = randomBytes(32).toString('hex');
const WALLETS = [DEMO_WALLET, WORLD_HOLDERS.ada] as const;
/** Ids and the incumbent's spellings of the same networks. */
const BASE = 'base-sepolia';
const ETH = 'ethereum-sepolia';
const OPT = 'optimism-sepolia';
const SPELLING: Record<string, string> = { [BASE]: 'BASE_SEPOLIA', [ETH]: 'eth-sepolia', [OPT]: 'opt-sepolia' };
const WORLD_TOKENS = ['forge', 'cusd', 'ember', 'bare', 'slag'] as const;
/** The symbols the world's manifest deploys them with (ember's as bytes32; the bare token has none). */
const SYMBOLS: Record<string, string | null> = { forge: 'FORGE', cusd: 'cUSD', ember: 'EMBR', bare: null, slag: 'SLAG' };

type Refusal = { error: { code: string; message: string; field?: string } };

/** A token's contract as the SDK hands it over: the wire's null (the coin) arrives as undefined. */
const tokenAddressOf = (token: object): string | undefined => (token as { tokenAddress?: string }).tokenAddress;

describe.each(databaseEngines())('the portfolio API through the production server on $name', (engine) => {
  let fixture: FixtureDist;
  let server: BuiltSite;
  let key: string;
  /** An app only the metering test calls, so its usage holds that test's calls alone. */
  let metered: { key: string; appId: string };
  let validator: ResponseValidator;
  let databaseLocation: Awaited<ReturnType<typeof engine.location>>;
  const dataUrl = (apiKey = key) => `${server.origin}/data/v1/${apiKey}`;
  const nodeUrl = (network: string) => `${server.origin}/node/${network}/v2/${key}`;
  const nftUrl = (network: string) => `${server.origin}/node/${network}/nft/v3/${key}`;
  const viem = (network: string) => createPublicClient({ transport: http(nodeUrl(network)) });
  const portfolio = () => new Alchemy({ url: dataUrl() }).portfolio;
  const pairs = (networks: string[], wallets: readonly Address[] = WALLETS) =>
    wallets.map((address) => ({ address, networks: networks.map((network) => SPELLING[network] ?? network) as Network[] }));

  /** A POST as the SDK sends it, its answer checked against /openapi.json. */
  async function post(path: string, body: unknown, apiKey = key) {
    const response = await fetch(`${dataUrl(apiKey)}/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const json = (await response.json()) as Record<string, unknown>;
    const checked = validator.check('POST', `/data/v1/{apiKey}/${path}`, response.status, response.headers.get('content-type'), json);
    expect(checked.errors, JSON.stringify(json)).toEqual([]);
    return { status: response.status, json };
  }

  async function waitForIndex(networks: string[]): Promise<void> {
    const heads = new Map(await Promise.all(networks.map(async (network) => [network, Number(await viem(network).getBlockNumber({ cacheTime: 0 }))] as const)));
    await vi.waitFor(
      async () => {
        const status = (await (await fetch(`${server.origin}/api/indexer/status`)).json()) as {
          networks: Array<{ network: string; indexedBlock: number | null }>;
        };
        for (const [network, head] of heads) expect(status.networks.find((entry) => entry.network === network)?.indexedBlock).toBeGreaterThanOrEqual(head);
      },
      { timeout: 120_000, interval: 250 },
    );
  }

  beforeAll(async () => {
    fixture = await writeFixtureDist();
    databaseLocation = await engine.location();
    const database = await openDatabase(databaseLocation);
    const apps = createAppStore(database, { keySecret: Buffer.from(APP_KEY_SECRET, 'hex'), networks: [BASE, ETH, OPT] });
    const created = await apps.create({ name: 'portfolio', computeUnitsPerSecond: 1_000_000 });
    ({ key } = created);
    const meteredApp = await apps.create({ name: 'portfolio metering', computeUnitsPerSecond: 1_000_000 });
    metered = { key: meteredApp.key, appId: meteredApp.app.id };
    await database.close();
    server = await startBuiltSite({
      distDir: fixture.distDir,
      env: {
        ...(databaseLocation.engine === 'postgres' ? { DATABASE_URL: databaseLocation.url } : { DATABASE_PATH: databaseLocation.path }),
        APP_KEY_SECRET,
        ANVIL_BLOCK_TIME: '1',
        INDEXER_IN_SERVER: 'on',
        INDEXER_POLL_INTERVAL_MS: '200',
        INDEXER_CATCH_UP_WAIT_MS: '180000',
        PRICES_SAMPLE_SECONDS: '1',
      },
    });
    validator = createResponseValidator(await (await fetch(`${server.origin}/openapi.json`)).json());
    await waitForIndex([BASE, ETH]);
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
    if (fixture) await rm(fixture.root, { recursive: true, force: true });
  });

  it("waits for a fresh devnet's index, then lists every wallet's coin and tokens on every network, with metadata and prices", async () => {
    // optimism-sepolia's devnet and index start with this call: its answer waits for the index instead of answering nothing.
    const { data } = await portfolio().getTokensByWallet(pairs([ETH, OPT]));
    expect(data.pageKey).toBeUndefined(); // null on the wire: the SDK makes it undefined
    for (const wallet of WALLETS) {
      for (const network of [ETH, OPT]) {
        const client = viem(network);
        const mine = data.tokens.filter((token) => token.address === wallet && token.network === SPELLING[network]);
        const coin = mine.find((token) => tokenAddressOf(token) === undefined);
        expect(BigInt(coin!.tokenBalance)).toBe(await client.getBalance({ address: wallet }));
        expect(coin!.tokenMetadata).toMatchObject({ symbol: 'ETH', decimals: 18 });
        for (const id of WORLD_TOKENS) {
          const contract = WORLD_ADDRESSES[id];
          const balance = await client.readContract({ address: contract, abi: erc20Abi, functionName: 'balanceOf', args: [wallet] });
          const listed = mine.find((token) => tokenAddressOf(token) === contract.toLowerCase());
          if (balance === 0n && !listed) continue; // never held: not in the index's list
          expect(BigInt(listed!.tokenBalance), `${id} of ${wallet} on ${network}`).toBe(balance);
          expect(listed!.tokenMetadata?.symbol ?? null).toBe(SYMBOLS[id]);
        }
      }
    }
    const forge = data.tokens.find((token) => tokenAddressOf(token) === WORLD_ADDRESSES.forge.toLowerCase())!;
    expect(forge).toBeDefined();
    // Prices: the world's feeds and pools, sampled every second; the demo wallet's FORGE is priced once the sampler has run.
    await vi.waitFor(
      async () => {
        const again = await portfolio().getTokensByWallet([{ address: DEMO_WALLET, networks: ['eth-sepolia' as Network] }]);
        const priced = again.data.tokens.find((token) => tokenAddressOf(token) === WORLD_ADDRESSES.forge.toLowerCase());
        expect(priced?.tokenPrices).toEqual([{ currency: 'usd', value: '2.5', lastUpdatedAt: expect.any(String) }]);
        expect(again.data.tokens[0]!.tokenPrices[0]?.value).toBe('3000');
      },
      { timeout: 120_000, interval: 500 },
    );
    // Without metadata and prices, and without the coins.
    const bare = await portfolio().getTokensByWallet(pairs([BASE]), false, false, false);
    expect(bare.data.tokens.length).toBeGreaterThan(0);
    for (const token of bare.data.tokens) {
      expect(token.tokenMetadata).toBeUndefined();
      expect(token.tokenPrices).toEqual([]);
      expect(tokenAddressOf(token)).toMatch(/^0x[0-9a-f]{40}$/);
    }
  });

  it('lists balances alone in the same order, and answers in the shapes /openapi.json declares', async () => {
    const full = await portfolio().getTokensByWallet(pairs([BASE, ETH]), false, false, true);
    const { data } = await portfolio().getTokenBalancesByWallet(pairs([BASE, ETH]));
    expect(data.tokens.map((token) => [token.network, token.address, token.tokenAddress ?? null, token.tokenBalance])).toEqual(
      full.data.tokens.map((token) => [token.network, token.address, tokenAddressOf(token) ?? null, token.tokenBalance]),
    );
    // Wallet by wallet, network by network, as asked.
    const order = data.tokens.map((token) => `${token.address} ${token.network}`);
    const expected = WALLETS.flatMap((wallet) => [BASE, ETH].map((network) => `${wallet} ${SPELLING[network]}`));
    expect([...new Set(order)]).toEqual(expected);
    const raw = await post('assets/tokens/balances/by-address', { addresses: pairs([BASE, ETH]), includeNativeTokens: true });
    expect(raw.status).toBe(200);
    expect((raw.json.data as { pageKey: unknown }).pageKey).toBeNull();
  });

  it('lists the NFTs of two wallets on two networks page by page, as the NFT endpoint lists each', async () => {
    const expected: string[] = [];
    for (const wallet of WALLETS)
      for (const network of [BASE, ETH]) {
        const all = await new Alchemy({ url: nftUrl(network) }).nft.getNftsForOwner(wallet, { omitMetadata: true, pageSize: 100 });
        expected.push(...all.ownedNfts.map((owned) => `${wallet} ${SPELLING[network]} ${getAddress(owned.contractAddress)} ${owned.tokenId}`));
      }
    expect(expected.length).toBeGreaterThan(10);

    const seen: string[] = [];
    let pageKey: string | undefined;
    let pages = 0;
    do {
      const { data } = await portfolio().getNftsByWallet(pairs([BASE, ETH]), true, pageKey, 7);
      expect(data.totalCount).toBe(expected.length);
      expect(data.ownedNfts.length).toBeLessThanOrEqual(7);
      for (const owned of data.ownedNfts) {
        expect(owned.name === undefined || typeof owned.name === 'string').toBe(true);
        expect(owned.contract.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
        seen.push(`${(owned as { address?: string }).address} ${owned.network} ${getAddress(owned.contract.address)} ${owned.tokenId}`);
      }
      pageKey = data.pageKey;
      pages += 1;
    } while (pageKey !== undefined && pages < 50);
    expect(pageKey).toBeUndefined();
    expect(seen).toEqual(expected);
  });

  it("lists the NFT collections of two wallets on two networks, page by page, with each wallet's holdings", async () => {
    const expected = new Map<string, number>();
    for (const wallet of WALLETS)
      for (const network of [BASE, ETH]) {
        const all = await new Alchemy({ url: nftUrl(network) }).nft.getNftsForOwner(wallet, { omitMetadata: true, pageSize: 100 });
        for (const owned of all.ownedNfts) {
          const entry = `${wallet} ${SPELLING[network]} ${getAddress(owned.contractAddress)}`;
          expected.set(entry, (expected.get(entry) ?? 0) + 1);
        }
      }
    const seen = new Map<string, number>();
    let pageKey: string | undefined;
    for (let pages = 0; pages < 50; pages++) {
      const { data } = (await portfolio().getNftCollectionsByWallet(pairs([BASE, ETH]), true, pageKey, 2)) as unknown as {
        data: {
          contracts: Array<{
            network: string;
            address: string;
            contract: { address: string; name?: string; tokenType: string; numDistinctTokensOwned: number };
          }>;
          totalCount: number;
          pageKey?: string;
        };
      };
      expect(data.totalCount).toBe(expected.size);
      for (const { network, address, contract } of data.contracts) {
        expect(contract.tokenType).toMatch(/^(ERC721|ERC1155|NO_SUPPORTED_NFT_STANDARD)$/);
        seen.set(`${address} ${network} ${getAddress(contract.address)}`, contract.numDistinctTokensOwned);
      }
      pageKey = data.pageKey;
      if (pageKey === undefined) break;
    }
    expect(pageKey).toBeUndefined();
    expect(seen).toEqual(expected);
  });

  it('lists the transactions of two wallets on two networks, newest first, forward and back', async () => {
    const expected: string[] = [];
    for (const wallet of WALLETS)
      for (const network of [BASE, ETH]) {
        const core = new Alchemy({ url: nodeUrl(network) }).core;
        const category = Object.values(AssetTransfersCategory);
        const [sent, received] = await Promise.all([
          core.getAssetTransfers({ fromAddress: wallet, category, excludeZeroValue: false, maxCount: 1000 }),
          core.getAssetTransfers({ toAddress: wallet, category, excludeZeroValue: false, maxCount: 1000 }),
        ]);
        const byHash = new Map([...sent.transfers, ...received.transfers].map((transfer) => [transfer.hash, Number(transfer.blockNum)]));
        const hashes = [...byHash].sort((a, b) => b[1] - a[1]).map(([hash]) => hash);
        expected.push(...hashes.map((hash) => `${wallet} ${SPELLING[network]} ${hash}`));
      }
    expect(expected.length).toBeGreaterThan(8);

    const listed: string[] = [];
    const places: Array<{ pair: string; block: number }> = [];
    const pages: Array<{ before?: string; after?: string; entries: string[] }> = [];
    let after: string | undefined;
    for (let i = 0; i < 100; i++) {
      const answer = await portfolio().getTransactionsByWallet(pairs([BASE, ETH]), undefined, after, 4);
      expect(answer.totalCount).toBe(expected.length);
      const entries = answer.transactions.map((transaction) => {
        const body = transaction as unknown as {
          network: string;
          address: string;
          hash: string;
          blockNumber: number;
          from: string;
          status: number;
          logs: unknown[];
        };
        expect(body.status).toBe(1);
        places.push({ pair: `${body.address} ${body.network}`, block: body.blockNumber });
        return `${body.address} ${body.network} ${body.hash}`;
      });
      listed.push(...entries);
      pages.push({ before: answer.before, after: answer.after, entries });
      after = answer.after;
      if (after === undefined) break;
    }
    // Every transaction once; the pairs in the order asked, each newest first (a block may hold several, in either order here).
    expect(listed.length).toBe(expected.length);
    expect(new Set(listed)).toEqual(new Set(expected));
    const pairOrder = WALLETS.flatMap((wallet) => [BASE, ETH].map((network) => `${wallet} ${SPELLING[network]}`));
    expect([...new Set(places.map((place) => place.pair))]).toEqual(pairOrder);
    for (const [i, place] of places.entries()) if (i > 0 && places[i - 1]!.pair === place.pair) expect(place.block).toBeLessThanOrEqual(places[i - 1]!.block);
    expect(pages[0]!.before).toBeUndefined();
    // Back from the third page: the second again.
    const back = await portfolio().getTransactionsByWallet(pairs([BASE, ETH]), pages[2]!.before, undefined, 4);
    expect(
      back.transactions.map((transaction) => {
        const body = transaction as unknown as { network: string; address: string; hash: string };
        return `${body.address} ${body.network} ${body.hash}`;
      }),
    ).toEqual(pages[1]!.entries);
    // A transaction's receipt and the wallet's logs.
    const first = (await post('transactions/history/by-address', { addresses: pairs([BASE], [DEMO_WALLET]), limit: 1 })).json as {
      transactions: Array<{ hash: string; blockNumber: number; gasUsed: string; fromAddress: string }>;
    };
    const receipt = await viem(BASE).getTransactionReceipt({ hash: first.transactions[0]!.hash as `0x${string}` });
    expect(first.transactions[0]).toMatchObject({
      blockNumber: Number(receipt.blockNumber),
      gasUsed: receipt.gasUsed.toString(),
      fromAddress: getAddress(receipt.from),
    });
  });

  it('refuses bad input with the Error body before reading anything', async () => {
    const cases: Array<[string, unknown, string]> = [
      ['assets/tokens/by-address', { addresses: [{ address: DEMO_WALLET, networks: ['moon-mainnet'] }] }, 'addresses.0.networks.0'],
      ['assets/tokens/by-address', { addresses: [{ address: DEMO_WALLET, networks: ['eth-sepolia', 'ethereum-sepolia'] }] }, 'addresses.0.networks.1'],
      ['assets/tokens/by-address', { addresses: [{ address: '0x1234', networks: ['eth-sepolia'] }] }, 'addresses.0.address'],
      ['assets/tokens/by-address', { addresses: [1, 2, 3].map(() => ({ address: DEMO_WALLET, networks: ['eth-sepolia'] })) }, 'addresses'],
      ['assets/tokens/balances/by-address', { addresses: [{ address: DEMO_WALLET, networks: ['a', 'b', 'c', 'd', 'e', 'f'] }] }, 'addresses.0.networks'],
      ['assets/nfts/by-address', { addresses: [{ address: DEMO_WALLET, networks: ['eth-sepolia'] }], pageKey: 'not-a-key' }, 'pageKey'],
      ['assets/nfts/by-address', { addresses: [{ address: DEMO_WALLET, networks: ['eth-sepolia'] }], pageSize: 101 }, 'pageSize'],
      ['assets/nfts/contracts/by-address', { addresses: [{ address: DEMO_WALLET, networks: ['eth-sepolia'] }], pageKey: 'eyJ4Ijo' }, 'pageKey'],
      ['transactions/history/by-address', { addresses: [{ address: DEMO_WALLET, networks: ['eth-sepolia'] }], before: 'a', after: 'b' }, 'before'],
      ['transactions/history/by-address', { addresses: [{ address: DEMO_WALLET, networks: ['eth-sepolia'] }], after: 'WyJ0b2tlbnMiLDAsbnVsbF0' }, 'after'],
      ['transactions/history/by-address', { addresses: [] }, 'addresses'],
    ];
    for (const [path, body, field] of cases) {
      const { status, json } = await post(path, body);
      expect(status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect((json as Refusal).error.code).toBe('bad_request');
      expect((json as Refusal).error.field ?? (json as Refusal).error.message, JSON.stringify(json)).toContain(field);
    }
    // The SDK sees the status and the body.
    await expect(portfolio().getTokensByWallet([{ address: DEMO_WALLET, networks: ['moon-mainnet' as Network] }])).rejects.toThrow(/^400: .*moon-mainnet/);
    const unknownKey = await post('assets/tokens/by-address', { addresses: pairs([ETH]) }, 'no-such-key-0123456789abcdefghij');
    expect(unknownKey.status).toBe(401);
    const nowhere = await fetch(`${dataUrl()}/assets/everything`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(nowhere.status).toBe(404);
    expect(((await nowhere.json()) as Refusal).error.code).toBe('not_found');
    const read = await fetch(`${dataUrl()}/assets/tokens/by-address`);
    expect(read.status).toBe(405);
    expect(read.headers.get('allow')).toContain('POST');
  });

  it("charges each call's compute units to the app, under the portfolio", async () => {
    // The metered app is called by this test alone: the meter flushes in the background, so an
    // app other tests call could still be flushing their calls when a "before" is read.
    expect(await usage()).toEqual(new Map());
    // Sent as they are, not through the SDK, which would send a call again after a 503 or 429.
    const balances = (addresses: unknown) => post('assets/tokens/balances/by-address', { addresses }, metered.key);
    expect((await balances(pairs([ETH]))).status).toBe(200);
    expect((await balances([{ address: DEMO_WALLET, networks: ['moon-mainnet'] }])).status).toBe(400);
    await vi.waitFor(async () => expect((await usage()).get('portfolio/token-balances')).toEqual({ requests: 2, computeUnits: 200 }), {
      timeout: 60_000,
      interval: 500,
    });
  });

  /** The metered app's usage under the portfolio, by method, as the usage meter stored it. */
  async function usage(): Promise<Map<string, { requests: number; computeUnits: number }>> {
    const database = await openDatabase(databaseLocation);
    try {
      const rows = await database.db
        .selectFrom('usage_minutes')
        .select(['method', 'requests', 'compute_units'])
        .where('app_id', '=', metered.appId)
        .where('network', '=', 'portfolio')
        .execute();
      const totals = new Map<string, { requests: number; computeUnits: number }>();
      for (const row of rows) {
        const total = totals.get(row.method) ?? { requests: 0, computeUnits: 0 };
        totals.set(row.method, { requests: total.requests + Number(row.requests), computeUnits: total.computeUnits + Number(row.compute_units) });
      }
      return totals;
    } finally {
      await database.close();
    }
  }
});
