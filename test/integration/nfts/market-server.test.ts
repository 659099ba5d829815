import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  Alchemy,
  NftSaleMarketplace,
  NftSaleTakerType,
  SortingOrder,
  type GetNftSalesOptions,
  type GetNftSalesOptionsByContractAddress,
  type GetNftSalesResponse,
} from 'alchemy-sdk';
import { createPublicClient, decodeEventLog, formatEther, getAddress, http, zeroAddress, type Address, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAppStore } from '../../../src/apps/store.ts';
import { WORLD_HOLDERS } from '../../../src/chain/world/actors.ts';
import { deployWorld } from '../../../src/chain/world/deploy.ts';
import { WORLD_ADDRESSES } from '../../../src/chain/world/manifest.ts';
import { type MarketSale, WORLD_MARKETPLACE, worldMarket } from '../../../src/chain/world/market.ts';
import { worldFloors, worldListings, type WorldListing } from '../../../src/chain/world/market-state.ts';
import type { DatabaseLocation } from '../../../src/config/database.ts';
import { openDatabase } from '../../../src/db/open.ts';
import { startTestAnvil, type TestAnvil } from '../../support/anvil.ts';
import { fixtureSite, writeFixtureDist, type FixtureDist } from '../../support/fixture-dist.ts';
import { createResponseValidator, type ResponseValidator } from '../../support/openapi-validator.ts';
import { databaseEngines } from '../../support/postgres.ts';
import { startBuiltSite, type BuiltSite } from '../../support/site.ts';

// getFloorPrice and getNFTSales through the production server (`npm start`'s), on SQLite and
// PostgreSQL, with the real alchemy-sdk 3.6.5 at {node_url}/v2/<key> and {node_url}/nft/v3/<key>.
// Two networks: ethereum-sepolia on the server's own devnet, which carries the local world and
// reads its marketplace by default; base-sepolia pointed at this test's anvil (NODE_UPSTREAMS) with
// the world deployed on it and its marketplace named by NFT_MARKETPLACES_BASE_SEPOLIA, where the
// test buys, cancels and reorgs. Expected values come from the world's plan (src/chain/world/market.ts).

const DEVNET = 'ethereum-sepolia';
const UPSTREAM = 'base-sepolia';
const APP_KEY_SECRET = '33'.repeat(32);
const { relics, materials, punks } = WORLD_ADDRESSES;

interface ErrorBody {
  error: { code: string; message: string; documentation_url: string };
}

/** A sale as the plan says it is, in the answer's terms. */
function expectedSale(sale: MarketSale) {
  const currency = sale.currency === 'native' ? zeroAddress : WORLD_ADDRESSES[sale.currency];
  const token = sale.currency === 'native' ? { symbol: 'ETH', decimals: 18 } : { symbol: 'cUSD', decimals: 6 };
  const fee = (amount: bigint) => ({ amount: amount.toString(), tokenAddress: getAddress(currency), ...token });
  return {
    marketplaceAddress: WORLD_MARKETPLACE.address,
    contractAddress: WORLD_ADDRESSES[sale.collection],
    tokenId: sale.tokenId.toString(),
    quantity: sale.quantity.toString(),
    buyerAddress: sale.buyer,
    sellerAddress: sale.seller,
    sellerFee: fee(sale.price - sale.marketplaceFee - sale.royaltyFee),
    protocolFee: fee(sale.marketplaceFee),
    royaltyFee: fee(sale.royaltyFee),
    bundleIndex: 0,
  };
}

const floorOf = (listing: WorldListing | null) => (listing ? Number(formatEther(listing.unitPrice)) : null);

describe.each(databaseEngines())('marketplace endpoints through the production server on $name', (engine) => {
  let anvil: TestAnvil;
  let fixture: FixtureDist;
  let dir: string;
  let server: BuiltSite;
  let key: string;
  let validator: ResponseValidator;
  const plan = worldMarket();

  const nodeUrl = (network: string) => `${server.origin}/node/${network}`;
  const sdk = (network: string, prefix: 'v2' | 'nft/v3') => new Alchemy({ url: `${nodeUrl(network)}/${prefix}/${key}`, maxRetries: 0 });

  /** GET under {node_url}/v2/<key>/, the answer checked against the node's OpenAPI document. */
  async function get<T>(network: string, path: string): Promise<{ status: number; body: T }> {
    const response = await fetch(`${nodeUrl(network)}/v2/${key}/${path}`);
    const body = (await response.json()) as T;
    const checked = validator.check('GET', `/v2/${key}/${path.split('?')[0]}`, response.status, response.headers.get('content-type'), body);
    expect(checked.errors, `${path} → ${response.status}`).toEqual([]);
    return { status: response.status, body };
  }
  const refused = async (network: string, path: string, message: RegExp) => {
    const { status, body } = await get<ErrorBody>(network, path);
    expect({ status, code: body.error.code }, body.error.message).toEqual({ status: 400, code: 'bad_request' });
    expect(body.error.message).toMatch(message);
    // The site's origin as the build names it.
    expect(body.error.documentation_url).toBe(`${fixtureSite}/node/${network}/openapi.json`);
  };

  /** Every sale of a query, paged to the end with the SDK (pageKey null on the last page becomes undefined). */
  async function allSales(
    alchemy: Alchemy,
    options: GetNftSalesOptions | GetNftSalesOptionsByContractAddress = {},
    limit = 2,
  ): Promise<GetNftSalesResponse['nftSales']> {
    const sales: GetNftSalesResponse['nftSales'] = [];
    let pageKey: string | undefined;
    for (let page = 0; page < 100; page++) {
      const answer = await alchemy.nft.getNftSales({ ...options, limit, ...(pageKey && { pageKey }) });
      expect(answer.nftSales.length).toBeLessThanOrEqual(limit);
      sales.push(...answer.nftSales);
      pageKey = answer.pageKey;
      if (!pageKey) return sales;
    }
    throw new Error('getNFTSales did not reach its last page in 100 pages');
  }

  /** Resolves once the index of `network` holds the node's head block `head` (by number and hash). */
  async function indexedAt(network: string, head: { number: bigint; hash: Hex }): Promise<void> {
    await vi.waitFor(
      async () => {
        const { body } = await get<{ validAt: { blockNumber: number; blockHash: string } }>(network, 'getNFTSales?limit=1');
        expect(body.validAt).toMatchObject({ blockNumber: Number(head.number), blockHash: head.hash });
      },
      { timeout: 60_000, interval: 200 },
    );
  }
  const upstreamHead = async () => {
    const block = await anvil.client.getBlock({ blockTag: 'latest' });
    return { number: block.number, hash: block.hash };
  };
  /** Sends a marketplace call from a keyless world holder (anvil impersonates it) and waits for it to be mined. */
  async function marketCall(from: Address, functionName: 'buy' | 'cancel', args: readonly bigint[], value?: bigint): Promise<void> {
    await anvil.client.impersonateAccount({ address: from });
    const hash = await anvil.client.writeContract({
      address: WORLD_MARKETPLACE.address,
      abi: WORLD_MARKETPLACE.artifact.abi,
      functionName,
      args,
      account: from,
      chain: null,
      ...(value !== undefined && { value }),
    } as never);
    expect((await anvil.client.waitForTransactionReceipt({ hash })).status).toBe('success');
    await anvil.client.stopImpersonatingAccount({ address: from });
  }
  const floorOn = async (network: string, collection: Address) =>
    (await sdk(network, 'v2').nft.getFloorPrice(collection)) as unknown as Record<string, { floorPrice?: number; error?: string }>;

  beforeAll(async () => {
    anvil = await startTestAnvil({ chainId: 84532 });
    await deployWorld(anvil.rpcUrl, { siteOrigin: fixtureSite });
    dir = await mkdtemp(join(tmpdir(), 'crucible-market-'));
    fixture = await writeFixtureDist();
    const location: DatabaseLocation =
      engine.name === 'postgres' ? ((await engine.location()) as DatabaseLocation) : { engine: 'sqlite', path: join(dir, 'crucible.sqlite') };
    const database = await openDatabase(location);
    const apps = createAppStore(database, { keySecret: Buffer.from(APP_KEY_SECRET, 'hex'), networks: [DEVNET, UPSTREAM] });
    // A rate no test here reaches: its calls are not made to wait.
    ({ key } = await apps.create({ name: 'marketplace test', computeUnitsPerSecond: 1_000_000 }));
    await database.close();
    server = await startBuiltSite({
      distDir: fixture.distDir,
      env: {
        ...(location.engine === 'postgres' ? { DATABASE_URL: location.url } : { DATABASE_PATH: location.path }),
        APP_KEY_SECRET,
        ANVIL_BLOCK_TIME: '1',
        INDEXER_IN_SERVER: 'on',
        INDEXER_NETWORKS: `${DEVNET},${UPSTREAM}`,
        INDEXER_POLL_INTERVAL_MS: '200',
        NODE_UPSTREAMS_BASE_SEPOLIA: anvil.rpcUrl,
        NFT_MARKETPLACES_BASE_SEPOLIA: `crucible:${WORLD_MARKETPLACE.address}`,
      },
    });
    validator = createResponseValidator(await (await fetch(`${nodeUrl(DEVNET)}/openapi.json`)).json());
    // The devnet has the whole world once its gateway answers; its index has it once it reaches that head.
    const devnetHead = Number(await createPublicClient({ transport: http(`${nodeUrl(DEVNET)}/v2/${key}`) }).getBlockNumber({ cacheTime: 0 }));
    await vi.waitFor(
      async () => {
        const { body } = await get<{ validAt: { blockNumber: number } }>(DEVNET, 'getNFTSales?limit=1');
        expect(body.validAt?.blockNumber).toBeGreaterThanOrEqual(devnetHead);
      },
      { timeout: 90_000, interval: 250 },
    );
    await indexedAt(UPSTREAM, await upstreamHead());
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await anvil?.stop();
    if (fixture) await rm(fixture.root, { recursive: true, force: true });
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("getFloorPrice answers each collection's cheapest open listing of the world's plan, at both paths", async () => {
    const floors = worldFloors();
    expect(floors.relics?.state).toBe('open');
    for (const prefix of ['v2', 'nft/v3'] as const) {
      const alchemy = sdk(DEVNET, prefix);
      for (const [collection, address] of [
        ['relics', relics],
        ['materials', materials],
      ] as const) {
        const answer = (await alchemy.nft.getFloorPrice(address)) as unknown as Record<string, Record<string, unknown>>;
        expect(answer.crucible, `${prefix} ${collection}`).toEqual({
          floorPrice: floorOf(floors[collection]),
          priceCurrency: 'ETH',
          collectionUrl: expect.stringMatching(/\/overviews\/local-world#marketplace$/),
          retrievedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        });
        // The SDK's own keys: never read, and the answer says so.
        expect(answer.openSea).toEqual({ error: expect.stringMatching(/OpenSea is not read.*crucible/) });
        expect(answer.looksRare).toEqual({ error: expect.stringMatching(/LooksRare is not read/) });
      }
    }
    // The plan's cheapest relic listing cannot be filled (its seller gave the token away), so it is not the floor.
    const cheapestListed = worldListings()
      .filter((listing) => listing.collection === 'relics' && listing.currency === 'native' && listing.state !== 'sold' && listing.state !== 'cancelled')
      .sort((a, b) => (a.unitPrice < b.unitPrice ? -1 : 1))[0]!;
    expect(cheapestListed.state).toBe('unfillable');
    expect(floorOf(floors.relics)).toBeGreaterThan(floorOf(cheapestListed)!);
    // A collection without listings has no floor, and says why.
    const { status, body } = await get<Record<string, { floorPrice: null; error: string }>>(DEVNET, `getFloorPrice?contractAddress=${punks}`);
    expect(status).toBe(200);
    expect(body.crucible).toEqual({
      floorPrice: null,
      priceCurrency: null,
      collectionUrl: null,
      retrievedAt: null,
      error: expect.stringMatching(/no open listing/),
    });
  });

  it("getNFTSales pages to the end with the SDK and lists the plan's sales in block order, at both paths", async () => {
    const expected = plan.sales.map(expectedSale);
    expect(expected.length).toBeGreaterThan(2);
    for (const prefix of ['v2', 'nft/v3'] as const) {
      const sales = await allSales(sdk(DEVNET, prefix));
      expect(sales.map(({ marketplace, taker, blockNumber, logIndex, transactionHash, ...rest }) => rest)).toEqual(expected);
      for (const sale of sales) {
        // The SDK knows no marketplace named crucible; the wire says the name (below).
        expect(sale).toMatchObject({ marketplace: NftSaleMarketplace.UNKNOWN, taker: NftSaleTakerType.BUYER });
        expect(sale.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
      }
      const blocks = sales.map((sale) => sale.blockNumber);
      expect(blocks).toEqual([...blocks].sort((a, b) => a - b));
    }
    const { body } = await get<{ nftSales: Array<{ marketplace: string; taker: string }>; pageKey: string | null; marketplaces: unknown }>(
      DEVNET,
      'getNFTSales',
    );
    expect(body.nftSales.map((sale) => [sale.marketplace, sale.taker])).toEqual(plan.sales.map(() => ['crucible', 'BUYER']));
    expect(body.pageKey).toBeNull();
    expect(body.marketplaces).toEqual([{ name: 'crucible', address: WORLD_MARKETPLACE.address }]);
  });

  it('filters sales by contract, token, buyer, seller, block range, order, taker and marketplace', async () => {
    const alchemy = sdk(DEVNET, 'nft/v3');
    const strip = (sales: GetNftSalesResponse['nftSales']) => sales.map(({ marketplace, taker, blockNumber, logIndex, transactionHash, ...rest }) => rest);
    const planned = (filter: (sale: MarketSale) => boolean) => plan.sales.filter(filter).map(expectedSale);

    expect(strip(await allSales(alchemy, { contractAddress: materials }))).toEqual(planned((sale) => sale.collection === 'materials'));
    expect(strip(await allSales(alchemy, { contractAddress: materials, tokenId: 2 }))).toEqual(
      planned((sale) => sale.collection === 'materials' && sale.tokenId === 2n),
    );
    expect(strip(await allSales(alchemy, { buyerAddress: WORLD_HOLDERS.cai }))).toEqual(planned((sale) => sale.buyer === WORLD_HOLDERS.cai));
    expect(strip(await allSales(alchemy, { sellerAddress: WORLD_HOLDERS.ada.toLowerCase() }))).toEqual(planned((sale) => sale.seller === WORLD_HOLDERS.ada));
    expect(strip(await allSales(alchemy, { order: SortingOrder.DESCENDING }))).toEqual(plan.sales.map(expectedSale).reverse());
    expect(await allSales(alchemy, { taker: NftSaleTakerType.SELLER })).toEqual([]);
    expect(strip(await allSales(alchemy, { taker: NftSaleTakerType.BUYER }))).toHaveLength(plan.sales.length);
    // alchemy-sdk's own marketplaces are not read here: none of their sales.
    expect(await allSales(alchemy, { marketplace: NftSaleMarketplace.SEAPORT })).toEqual([]);
    expect((await get<{ nftSales: unknown[] }>(DEVNET, 'getNFTSales?marketplace=crucible')).body.nftSales).toHaveLength(plan.sales.length);

    // The block range, from the chain's own Sold logs (read through the gateway, not the index).
    const chain = createPublicClient({ transport: http(`${nodeUrl(DEVNET)}/v2/${key}`) });
    const logs = await chain.getLogs({ address: WORLD_MARKETPLACE.address, fromBlock: 0n, toBlock: 'latest' });
    const soldBlocks = logs
      .map((log) => ({ log, event: decodeEventLog({ abi: WORLD_MARKETPLACE.artifact.abi, data: log.data, topics: log.topics }) }))
      .filter(({ event }) => event.eventName === 'Sold')
      .map(({ log }) => Number(log.blockNumber));
    expect(soldBlocks).toHaveLength(plan.sales.length);
    const [from, to] = [soldBlocks[1]!, soldBlocks[3]!];
    expect(strip(await allSales(alchemy, { fromBlock: from, toBlock: to }))).toEqual(plan.sales.slice(1, 4).map(expectedSale));
    expect(strip(await allSales(alchemy, { fromBlock: soldBlocks.at(-1)!, toBlock: 'latest' }))).toEqual(plan.sales.slice(-1).map(expectedSale));
    // Hexadecimal block numbers are accepted too.
    expect(
      (await get<{ nftSales: unknown[] }>(DEVNET, `getNFTSales?fromBlock=0x${from.toString(16)}&toBlock=0x${to.toString(16)}`)).body.nftSales,
    ).toHaveLength(3);
  });

  it('refuses bad input with the documented 400, named', async () => {
    await refused(DEVNET, 'getFloorPrice', /contractAddress is required/);
    await refused(DEVNET, 'getFloorPrice?contractAddress=0x1234', /contractAddress must be an address/);
    await refused(DEVNET, `getNFTSales?tokenId=1`, /tokenId needs contractAddress/);
    await refused(DEVNET, `getNFTSales?contractAddress=${relics}&tokenId=one`, /tokenId must be a token id/);
    await refused(DEVNET, 'getNFTSales?fromBlock=9&toBlock=3', /fromBlock \(9\) is after toBlock \(3\)/);
    await refused(DEVNET, 'getNFTSales?fromBlock=earliest', /fromBlock must be a block number/);
    await refused(DEVNET, 'getNFTSales?order=up', /order must be one of asc, desc/);
    await refused(DEVNET, 'getNFTSales?taker=maker', /taker must be buyer or seller/);
    await refused(DEVNET, 'getNFTSales?limit=0', /limit must be at least 1/);
    await refused(DEVNET, 'getNFTSales?limit=1001', /limit must be at most 1000/);
    await refused(DEVNET, 'getNFTSales?marketplace=bazaar', /marketplace bazaar is not one network ethereum-sepolia reads \(crucible\)/);
    await refused(DEVNET, `getNFTSales?buyerAddress=${WORLD_HOLDERS.cai}x`, /buyerAddress must be an address/);
    // A pageKey is for its own query: another order, another filter, or text it did not write.
    const { body: first } = await get<{ pageKey: string }>(DEVNET, 'getNFTSales?limit=1');
    expect(first.pageKey).toEqual(expect.any(String));
    await refused(DEVNET, `getNFTSales?limit=1&order=desc&pageKey=${first.pageKey}`, /pageKey is not one this endpoint gave/);
    await refused(DEVNET, `getNFTSales?limit=1&contractAddress=${relics}&pageKey=${first.pageKey}`, /pageKey is not one this endpoint gave/);
    await refused(DEVNET, 'getNFTSales?pageKey=bm90LWEta2V5', /pageKey is not one this endpoint gave/);
    expect((await get<{ nftSales: unknown[] }>(DEVNET, `getNFTSales?limit=1&pageKey=${first.pageKey}`)).status).toBe(200);
    // The SDK surfaces the Error body in its message.
    await expect(sdk(DEVNET, 'nft/v3').nft.getNftSales({ fromBlock: 9, toBlock: 3 })).rejects.toThrow(/^400: .*bad_request.*fromBlock \(9\) is after toBlock/);
  });

  // Once, not once per engine.
  if (engine.name === 'sqlite')
    it('is described in {node_url}/openapi.json beside the NFT endpoints, a document that lints with no errors under @redocly/cli', async () => {
      const document = (await (await fetch(`${nodeUrl(DEVNET)}/openapi.json`)).json()) as { paths: Record<string, unknown> };
      for (const operation of ['getFloorPrice', 'getNFTSales', 'getNFTMetadata'])
        for (const prefix of ['/v2/{apiKey}', '/nft/v3/{apiKey}']) expect(Object.keys(document.paths)).toContain(`${prefix}/${operation}`);
      const scratch = await mkdtemp(join(tmpdir(), 'crucible-market-openapi-'));
      const file = join(scratch, 'openapi.json');
      await writeFile(file, JSON.stringify(document));
      const cli = join(process.cwd(), 'node_modules/@redocly/cli/bin/cli.js');
      const result = await promisify(execFile)(process.execPath, [cli, 'lint', file, '--config', join(process.cwd(), 'redocly.yaml'), '--format', 'json'], {
        cwd: scratch,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        maxBuffer: 16 * 1024 * 1024,
      }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
      await rm(scratch, { recursive: true, force: true });
      const report = JSON.parse(result.stdout) as { totals: { errors: number }; problems: Array<{ severity: string; message: string }> };
      expect(report.problems.filter((problem) => problem.severity === 'error')).toEqual([]);
      expect(report.totals.errors).toBe(0);
    });

  it('a network on real nodes reads the marketplace its setting names, and says so', async () => {
    const floors = worldFloors();
    // Its collections are not the local world's guide's: the network's explorer shows them.
    expect((await floorOn(UPSTREAM, relics)).crucible).toMatchObject({
      floorPrice: floorOf(floors.relics),
      collectionUrl: expect.stringMatching(new RegExp(`^https://.*/token/${relics}$`)),
    });
    const { body } = await get<{ nftSales: unknown[]; marketplaces: unknown }>(UPSTREAM, 'getNFTSales');
    expect(body.nftSales).toHaveLength(plan.sales.length);
    expect(body.marketplaces).toEqual([{ name: 'crucible', address: WORLD_MARKETPLACE.address }]);
  });

  it('a reorg that drops a sale drops it from getNFTSales and reopens its listing', async () => {
    const before = (await sdk(UPSTREAM, 'v2').nft.getNftSales()).nftSales;
    const relicFloor = floorOf(worldFloors().relics);
    const fork = await anvil.client.snapshot();
    // On the fork the index sees first: the relics' floor listing is bought.
    const floorListing = worldFloors().relics!;
    await marketCall(WORLD_HOLDERS.cai, 'buy', [floorListing.id, 1n], floorListing.unitPrice);
    const lost = await upstreamHead();
    await indexedAt(UPSTREAM, lost);
    const bought = (await sdk(UPSTREAM, 'v2').nft.getNftSales()).nftSales;
    expect(bought).toHaveLength(before.length + 1);
    expect(bought.at(-1)).toMatchObject({
      buyerAddress: WORLD_HOLDERS.cai,
      contractAddress: relics,
      tokenId: floorListing.tokenId.toString(),
      blockNumber: Number(lost.number),
    });
    expect((await floorOn(UPSTREAM, relics)).crucible?.floorPrice).not.toBe(relicFloor);

    // The other fork: longer, without that sale.
    await anvil.client.revert({ id: fork });
    await anvil.client.mine({ blocks: 3 });
    const head = await upstreamHead();
    expect(head.number).toBeGreaterThan(lost.number);
    await indexedAt(UPSTREAM, head);
    expect((await sdk(UPSTREAM, 'v2').nft.getNftSales()).nftSales).toEqual(before);
    expect((await floorOn(UPSTREAM, relics)).crucible?.floorPrice).toBe(relicFloor);
  });

  it('moves the floor when its listing is filled or cancelled', async () => {
    const open = (collection: 'relics' | 'materials') =>
      worldListings()
        .filter((listing) => listing.collection === collection && listing.state === 'open' && listing.currency === 'native')
        .sort((a, b) => (a.unitPrice < b.unitPrice ? -1 : a.unitPrice > b.unitPrice ? 1 : Number(a.id - b.id)));
    const [relicFloor, relicNext] = open('relics');
    const [materialFloor, materialNext] = open('materials');
    expect([relicNext, materialNext]).not.toContain(undefined);

    // Filled: the relics' floor listing is bought whole.
    await marketCall(WORLD_HOLDERS.cai, 'buy', [relicFloor!.id, 1n], relicFloor!.unitPrice);
    // Cancelled: the materials' floor listing, by its seller.
    await marketCall(materialFloor!.seller, 'cancel', [materialFloor!.id]);
    await indexedAt(UPSTREAM, await upstreamHead());
    expect((await floorOn(UPSTREAM, relics)).crucible?.floorPrice).toBe(floorOf(relicNext!));
    expect((await floorOn(UPSTREAM, materials)).crucible?.floorPrice).toBe(floorOf(materialNext!));
    // A part-filled listing keeps the floor until its last unit is bought.
    const partial = materialNext!;
    expect(partial.quantity).toBeGreaterThan(1n);
    await marketCall(WORLD_HOLDERS.ben, 'buy', [partial.id, partial.quantity - 1n], partial.unitPrice * (partial.quantity - 1n));
    await indexedAt(UPSTREAM, await upstreamHead());
    expect((await floorOn(UPSTREAM, materials)).crucible?.floorPrice).toBe(floorOf(partial));
    await marketCall(WORLD_HOLDERS.ben, 'buy', [partial.id, 1n], partial.unitPrice);
    await indexedAt(UPSTREAM, await upstreamHead());
    const materialsFloor = (await floorOn(UPSTREAM, materials)).crucible!;
    expect(materialsFloor).toEqual({ error: expect.stringMatching(/no open listing/) });
    // The devnet's world is untouched: its floor is still the plan's.
    expect((await floorOn(DEVNET, materials)).crucible?.floorPrice).toBe(floorOf(worldFloors().materials));
    // The sales of the test are listed after the plan's, in the block order they were mined.
    const sales = (await sdk(UPSTREAM, 'v2').nft.getNftSales()).nftSales;
    expect(sales.slice(plan.sales.length).map((sale) => [sale.contractAddress, sale.tokenId, sale.quantity, sale.sellerFee.tokenAddress])).toEqual([
      [relics, relicFloor!.tokenId.toString(), '1', zeroAddress],
      [materials, partial.tokenId.toString(), String(partial.quantity - 1n), zeroAddress],
      [materials, partial.tokenId.toString(), '1', zeroAddress],
    ]);
  });
});
