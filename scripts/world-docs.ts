// `npm run docs:world`: writes the guide to the local world of every locale (content/<locale>/overviews/local-world.md)
// from the world's manifest (src/chain/world/) and the locale's UI strings (the docs list
// the world's contracts and its demo wallet). The files are committed content, so each gets its HTML page, twin,
// llms.txt line and search entry like any guide; a test renders them again and fails when they differ.
import { resolve } from 'node:path';
import { formatUnits, getAddress, type Address } from 'viem';
import { DEMO_WALLET, MARKET_PAYEES, WORLD_DEPLOYER, WORLD_HOLDERS } from '../src/chain/world/actors.ts';
import { FEED_CHECK_SECONDS, FEED_HEARTBEAT_SECONDS } from '../src/chain/world/feed-heartbeat.ts';
import { MULTICALL3_ADDRESS, WORLD_ADDRESSES, WORLD_CONTRACTS, worldContract, type WorldContract } from '../src/chain/world/manifest.ts';
import { MARKET_FEE_BPS, MARKET_ROYALTIES, type MarketCurrency, type MarketSale, WORLD_MARKETPLACE, worldMarket } from '../src/chain/world/market.ts';
import { type WorldListing, worldFloors, worldListings } from '../src/chain/world/market-state.ts';
import { VALUE_FORWARDER, type WorldNativeContract } from '../src/chain/world/native-layer.ts';
import { PRICE_LAYER_CONTRACTS, WORLD_FEEDS, WORLD_POOLS, type WorldFeed, type WorldPool, type WorldPriceContract } from '../src/chain/world/price-layer.ts';
import { buildEnvironment } from '../src/config/build-environment.ts';
import { EXAMPLE_NETWORK } from '../src/site/example-network.ts';
import { type Locale, locales } from '../src/site/locales.ts';
import { rpcMethodAnchor } from '../src/site/networks.ts';
import { formatUi, ui } from '../src/site/ui.ts';
import { nodeUrlOf, rpcReferenceUrl } from '../src/site/urls.ts';
import { code, codeBlock, generatedPage, markdownTable, markdownText, writeGeneratedFiles } from './generated-markdown.ts';

/** What the page shows: the manifest's contracts, the demo wallet, the price layer's contracts, pools and feeds, the marketplace with its history, and the native layer's contract. */
interface WorldFacts {
  contracts: ReadonlyArray<Pick<WorldContract, 'id' | 'kind' | 'address' | 'purpose'>>;
  demoWallet: Address;
  prices?: PriceLayerFacts;
  native?: { contracts: ReadonlyArray<Pick<WorldNativeContract, 'id' | 'address' | 'purpose'>> };
  market?: MarketFacts;
}

interface MarketFacts {
  address: Address;
  listings: readonly WorldListing[];
  sales: readonly MarketSale[];
  floors: ReturnType<typeof worldFloors>;
}

interface PriceLayerFacts {
  contracts: ReadonlyArray<Pick<WorldPriceContract, 'id' | 'address' | 'purpose'>>;
  pools: ReadonlyArray<Pick<WorldPool, 'id' | 'address' | 'token0' | 'token1' | 'purpose'>>;
  feeds: ReadonlyArray<Pick<WorldFeed, 'id' | 'address' | 'description' | 'decimals' | 'token' | 'purpose'>>;
}

const worldFacts: WorldFacts = {
  contracts: WORLD_CONTRACTS,
  demoWallet: DEMO_WALLET,
  prices: {
    contracts: PRICE_LAYER_CONTRACTS.filter((contract) => !WORLD_FEEDS.some((feed) => feed.id === contract.id)),
    pools: WORLD_POOLS,
    feeds: WORLD_FEEDS,
  },
  market: { address: WORLD_MARKETPLACE.address, listings: worldListings(), sales: worldMarket().sales, floors: worldFloors() },
  native: { contracts: [VALUE_FORWARDER] },
};

// The swap the page suggests, named in its sentence and its command.
const swap = { pool: 'forge-cusd', sell: 'forge', symbol: 'FORGE', amount: 1000 };

const worldDocsSlug = 'local-world';

/** A locale's page, relative to its content folder. */
export function worldDocsPath(locale: Locale): string {
  return `${locale}/overviews/${worldDocsSlug}.md`;
}

/** The network and key the examples use: a local devnet of `npm start`, and the key that needs no account (docs/keys-and-limits.md#demo-key). */
export const exampleNetwork = EXAMPLE_NETWORK;
export const exampleKey = 'demo';

/** Where the examples send their calls: `{node_url}/v2/demo` on the origin `npm start` serves when nothing is configured. */
export function exampleEndpoint(): string {
  const { siteOrigin } = buildEnvironment({});
  return `${nodeUrlOf(exampleNetwork, { siteOrigin, nodeDomain: null })}/v2/${exampleKey}`;
}

/** Where devnets keep their chains between starts. */
const dataDir = '.data/';
const tokenBalancesMethod = 'crucible_getTokenBalances';

function curlExample(endpoint: string, wallet: Address): string {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: tokenBalancesMethod, params: [wallet] });
  return codeBlock('sh', [`curl -s ${endpoint} \\`, `  -H 'content-type: application/json' \\`, `  -d '${body}'`]);
}

function alchemySdkExample(endpoint: string, wallet: Address): string {
  return codeBlock('ts', [
    "import { Alchemy } from 'alchemy-sdk';",
    '',
    `const alchemy = new Alchemy({ url: '${endpoint}' });`,
    `const { tokenBalances } = await alchemy.core.getTokenBalances('${wallet}');`,
    'for (const { contractAddress, tokenBalance, error } of tokenBalances) console.log(contractAddress, tokenBalance ?? error);',
  ]);
}

/** The guide of `locale`: what the local world is, its contracts, the demo wallet and two calls that read it. */
export function renderWorldDocs(locale: Locale, world: WorldFacts = worldFacts): string {
  const strings = ui[locale].worldDocs;
  const start = code('npm start');
  const endpoint = exampleEndpoint();
  const wallet = getAddress(world.demoWallet);
  const contracts = markdownTable(
    [strings.contract, strings.kind, strings.address, strings.purpose],
    ['-', '-', '-', '-'],
    world.contracts.map((contract) => [code(contract.id), strings.kinds[contract.kind], code(getAddress(contract.address)), markdownText(contract.purpose)]),
  );
  const reference = `[${code(tokenBalancesMethod)}](${rpcReferenceUrl(locale)}#${rpcMethodAnchor(tokenBalancesMethod)})`;
  // After the guides written by hand.
  return generatedPage({ title: strings.title, description: strings.description, order: 9 }, [
    formatUi(strings.intro, { start }),
    formatUi(strings.persistence, { dataDir: code(dataDir), multicall: code(MULTICALL3_ADDRESS) }),
    `## ${strings.contractsHeading}`,
    contracts,
    `## ${strings.demoWalletHeading}`,
    formatUi(strings.demoWallet, { address: code(wallet) }),
    `## ${strings.examplesHeading}`,
    formatUi(strings.examplesIntro, { start, network: code(exampleNetwork), key: code(exampleKey) }),
    strings.curlExample,
    curlExample(endpoint, wallet),
    formatUi(strings.sdkExample, { sdk: code('alchemy-sdk'), setting: code('url') }),
    alchemySdkExample(endpoint, wallet),
    formatUi(strings.examplesReference, { reference }),
    ...(world.prices ? priceLayerBlocks(locale, world.prices) : []),
    ...(world.market ? marketBlocks(locale, world.market, endpoint) : []),
    ...(world.native ? nativeLayerBlocks(locale, world.native, wallet) : []),
  ]);
}

/** The names the marketplace's history calls its actors by (src/chain/world/actors.ts). */
const ACTOR_NAMES: ReadonlyArray<readonly [string, Address]> = [
  ...Object.entries(WORLD_HOLDERS),
  ['deployer', WORLD_DEPLOYER],
  ['treasury', MARKET_PAYEES.treasury],
  ['relicsCreator', MARKET_PAYEES.relicsCreator],
];
const actorName = (address: Address) => code(ACTOR_NAMES.find(([, actor]) => actor === address)?.[0] ?? getAddress(address));

/** An amount in a currency's whole units, with its symbol (ether's is the example network's, ETH). */
function amountIn(currency: MarketCurrency, amount: bigint): string {
  if (currency === 'native') return `${formatUnits(amount, 18)} ETH`;
  const { args, erc20 } = worldContract(currency);
  return `${formatUnits(amount, erc20!.decimals ?? 18)} ${String(args[1])}`;
}

/** The marketplace's section: the contract, who trades, every listing and sale of its history, the floors, and calls that read them. */
function marketBlocks(locale: Locale, market: MarketFacts, endpoint: string): string[] {
  const strings = ui[locale].worldDocs;
  const { market: texts } = strings;
  const royalty = MARKET_ROYALTIES[0]!;
  const stateOf = (listing: WorldListing) =>
    listing.state === 'open' && listing.sold > 0n
      ? `${texts.states.open} (${formatUi(texts.partlySold, { sold: String(listing.sold), quantity: String(listing.quantity) })})`
      : texts.states[listing.state];
  const floor = (listing: WorldListing | null) => (listing ? `${amountIn(listing.currency, listing.unitPrice)} (#${listing.id})` : '-');
  const { relics, materials } = WORLD_ADDRESSES;
  return [
    `## ${texts.heading}`,
    formatUi(texts.intro, {
      contract: code('CrucibleMarketplace'),
      address: code(getAddress(market.address)),
      fee: String(MARKET_FEE_BPS / 100),
      royalty: String(royalty.bps / 100),
      relics: code('relics'),
      materials: code('materials'),
    }),
    texts.who,
    markdownTable(
      [texts.nameColumn, strings.address],
      ['-', '-'],
      ACTOR_NAMES.map(([name, address]) => [code(name), code(getAddress(address))]),
    ),
    texts.listingsIntro,
    markdownTable(
      [texts.listingColumn, texts.sellerColumn, texts.tokenColumn, texts.quantityColumn, texts.unitPriceColumn, texts.stateColumn],
      ['-:', '-', '-', '-:', '-:', '-'],
      market.listings.map((listing) => [
        `#${listing.id}`,
        actorName(listing.seller),
        `${code(listing.collection)} ${listing.tokenId}`,
        String(listing.quantity),
        amountIn(listing.currency, listing.unitPrice),
        stateOf(listing),
      ]),
    ),
    texts.salesIntro,
    markdownTable(
      [texts.listingColumn, texts.buyerColumn, texts.tokenColumn, texts.quantityColumn, texts.priceColumn, texts.feeColumn, texts.royaltyColumn],
      ['-:', '-', '-', '-:', '-:', '-:', '-:'],
      market.sales.map((sale) => [
        `#${sale.listing}`,
        actorName(sale.buyer),
        `${code(sale.collection)} ${sale.tokenId}`,
        String(sale.quantity),
        amountIn(sale.currency, sale.price),
        amountIn(sale.currency, sale.marketplaceFee),
        amountIn(sale.currency, sale.royaltyFee),
      ]),
    ),
    formatUi(texts.floors, { relics: floor(market.floors.relics), materials: floor(market.floors.materials) }),
    formatUi(texts.examples, { start: code('npm start'), network: code(exampleNetwork) }),
    codeBlock('sh', [
      `curl -s '${endpoint}/getFloorPrice?contractAddress=${relics}'`,
      `curl -s '${endpoint}/getNFTSales?contractAddress=${materials}&limit=2'`,
    ]),
    codeBlock('ts', [
      "import { Alchemy } from 'alchemy-sdk';",
      '',
      `const alchemy = new Alchemy({ url: '${endpoint}' });`,
      `console.log(await alchemy.nft.getFloorPrice('${relics}'));`,
      `const { nftSales } = await alchemy.nft.getNftSales({ contractAddress: '${materials}' });`,
      'for (const sale of nftSales) console.log(sale.blockNumber, sale.tokenId, sale.quantity, sale.sellerFee.amount);',
    ]),
    formatUi(texts.reference, { reference: '[getFloorPrice, getNFTSales](/overviews/fetching-nfts-by-owner#floor-prices-and-sales)' }),
  ];
}

const assetTransfersMethod = 'crucible_getAssetTransfers';

/** The native layer's section: what it sends, its contract, and the demo wallet's transfers of every category. */
function nativeLayerBlocks(locale: Locale, native: NonNullable<WorldFacts['native']>, wallet: Address): string[] {
  const strings = ui[locale].worldDocs;
  const { native: texts } = strings;
  const method = `[${code(assetTransfersMethod)}](${rpcReferenceUrl(locale)}#${rpcMethodAnchor(assetTransfersMethod)})`;
  const request = { toAddress: wallet, category: ['external', 'internal', 'erc20', 'erc721', 'erc1155', 'specialnft'], order: 'desc', withMetadata: true };
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: assetTransfersMethod, params: [request] });
  return [
    `## ${texts.heading}`,
    formatUi(texts.intro, { method }),
    texts.contractIntro,
    markdownTable(
      [strings.contract, strings.address, strings.purpose],
      ['-', '-', '-'],
      native.contracts.map((contract) => [code(contract.id), code(getAddress(contract.address)), markdownText(contract.purpose)]),
    ),
    formatUi(texts.example, { start: code('npm start') }),
    codeBlock('sh', [`curl -s ${exampleEndpoint()} \\`, `  -H 'content-type: application/json' \\`, `  -d '${body}'`]),
  ];
}

/** The price layer's section: its contracts, pools and feeds, the heartbeat, and a swap to try. */
function priceLayerBlocks(locale: Locale, prices: PriceLayerFacts): string[] {
  const strings = ui[locale].worldDocs;
  const { prices: texts } = strings;
  const row = (id: string, address: Address, ...cells: string[]) => [code(id), code(getAddress(address)), ...cells];
  return [
    `## ${texts.heading}`,
    formatUi(texts.intro, { core: code('@uniswap/v2-core'), interface: code('AggregatorV3Interface') }),
    texts.contractsIntro,
    markdownTable(
      [strings.contract, strings.address, strings.purpose],
      ['-', '-', '-'],
      prices.contracts.map((contract) => row(contract.id, contract.address, markdownText(contract.purpose))),
    ),
    texts.poolsIntro,
    markdownTable(
      [texts.poolColumn, strings.address, texts.tokensColumn, strings.purpose],
      ['-', '-', '-', '-'],
      prices.pools.map((pool) => row(pool.id, pool.address, `${code(pool.token0)} / ${code(pool.token1)}`, markdownText(pool.purpose))),
    ),
    texts.feedsIntro,
    markdownTable(
      [texts.feedColumn, strings.address, texts.descriptionColumn, texts.decimalsColumn, strings.purpose],
      ['-', '-', '-', '-:', '-'],
      prices.feeds.map((feed) => row(feed.id, feed.address, markdownText(feed.description), String(feed.decimals), markdownText(feed.purpose))),
    ),
    formatUi(texts.heartbeat, { check: FEED_CHECK_SECONDS / 60, heartbeat: FEED_HEARTBEAT_SECONDS / 60 }),
    formatUi(texts.swap, {
      start: code('npm start'),
      amount: swap.amount,
      symbol: swap.symbol,
      pool: code(swap.pool),
      network: code(exampleNetwork),
      swapFunction: code('swap'),
    }),
    codeBlock('sh', [`npm run world -- swap --network ${exampleNetwork} --pool ${swap.pool} --sell ${swap.sell} --amount ${swap.amount}`]),
  ];
}

/** Writes every locale's page under `root`'s content/; returns the files written, relative to `root`. */
export function writeWorldDocs(root: string): Promise<string[]> {
  return writeGeneratedFiles(
    root,
    locales.map((locale) => ({ path: `content/${worldDocsPath(locale)}`, text: renderWorldDocs(locale) })),
  );
}

if (import.meta.main) {
  const written = await writeWorldDocs(resolve(import.meta.dirname, '..'));
  console.log(`Wrote the local world's page from its manifest:\n${written.map((file) => `  ${file}`).join('\n')}`);
}
