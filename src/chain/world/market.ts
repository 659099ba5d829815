import { maxUint256, parseUnits, zeroAddress, type Address } from 'viem';
import { MARKET_PAYEES, WORLD_DEPLOYER, WORLD_HOLDERS } from './actors.ts';
import { ARTIFACTS } from './artifacts.ts';
import { create2Install, type Erc20Id, worldContract } from './manifest.ts';

// The world's marketplace layer (docs/nft-data.md#the-marketplace-contract): one
// CrucibleMarketplace and a history of listings, sales and cancellations of the relics (ERC-721)
// and materials (ERC-1155), paid in ether and in cUSD, with the marketplace's fee and the relics'
// royalty; some listings stay open, so each collection has a floor, and one is left unfillable (its
// seller gave the token away). Data first: the calls (market-install.ts), the holdings it leaves
// (history.ts) and the floors and sales the docs and tests expect (market-state.ts) are derived from
// it. deployWorld installs it as a layer of its own, so a devnet made before it gets it at its next start.

/** The marketplace's fee, in basis points of each sale's price, paid to MARKET_PAYEES.treasury. */
export const MARKET_FEE_BPS = 250;

/** The collections the world trades. */
export type MarketCollectionId = 'relics' | 'materials';
/** What a listing is priced in: the chain's own currency, or a world ERC-20. */
export type MarketCurrency = 'native' | Erc20Id;

export const WORLD_MARKETPLACE = {
  id: 'marketplace',
  artifact: ARTIFACTS.CrucibleMarketplace,
  ...create2Install('marketplace', ARTIFACTS.CrucibleMarketplace, [WORLD_DEPLOYER, MARKET_PAYEES.treasury, MARKET_FEE_BPS]),
  purpose:
    'CrucibleMarketplace: listings of ERC-721 and ERC-1155 tokens priced in ether or an ERC-20, bought whole or in part, with a 2.5% marketplace fee and per-collection royalties; every change is an event the indexer reads.',
} as const;

/** The royalties the marketplace's owner sets: 5% of every relic sale to the relics' creator; the materials have none. */
export const MARKET_ROYALTIES = [{ collection: 'relics', receiver: MARKET_PAYEES.relicsCreator, bps: 500 }] as const satisfies ReadonlyArray<{
  collection: MarketCollectionId;
  receiver: Address;
  bps: number;
}>;

export type MarketStep = { from: Address } & (
  | { action: 'deploy' }
  | { action: 'set-royalty'; collection: MarketCollectionId; receiver: Address; bps: number }
  | { action: 'approve-collection'; collection: MarketCollectionId }
  | { action: 'approve-currency'; token: Erc20Id }
  | { action: 'list'; listing: bigint; collection: MarketCollectionId; tokenId: bigint; quantity: bigint; currency: MarketCurrency; unitPrice: bigint }
  | { action: 'cancel'; listing: bigint }
  | { action: 'buy'; listing: bigint; quantity: bigint }
  /** A transfer outside the marketplace: the seller's open listing of the token can no longer be filled. */
  | { action: 'transfer'; collection: 'relics'; to: Address; tokenId: bigint }
);

const { ada, ben, cai, fay } = WORLD_HOLDERS;

/** A unit price in the currency's base units: ether with 18 places, a token with its decimals. */
const priced = (currency: MarketCurrency, amount: string): bigint =>
  parseUnits(amount, currency === 'native' ? 18 : (worldContract(currency).erc20!.decimals ?? 18));

let listed = 0n;
/** The next listing: the marketplace numbers them from 1 in the order they are made, and so does the plan. */
const list = (
  from: Address,
  collection: MarketCollectionId,
  tokenId: bigint,
  quantity: bigint,
  price: string,
  currency: MarketCurrency = 'native',
): MarketStep => ({
  from,
  action: 'list',
  listing: ++listed,
  collection,
  tokenId,
  quantity,
  currency,
  unitPrice: priced(currency, price),
});
const buy = (from: Address, listing: bigint, quantity = 1n): MarketStep => ({ from, action: 'buy', listing, quantity });

/**
 * The marketplace's history, one transaction a step, each mined before the next (so listings get
 * the numbers the plan gives them). Listing 7's relic leaves its seller outside the marketplace.
 */
export const WORLD_MARKET_HISTORY: readonly MarketStep[] = [
  { from: WORLD_DEPLOYER, action: 'deploy' },
  ...MARKET_ROYALTIES.map((royalty): MarketStep => ({ from: WORLD_DEPLOYER, action: 'set-royalty', ...royalty })),
  { from: ada, action: 'approve-collection', collection: 'relics' },
  { from: ada, action: 'approve-collection', collection: 'materials' },
  { from: ada, action: 'approve-currency', token: 'cusd' },
  { from: ben, action: 'approve-collection', collection: 'relics' },
  { from: cai, action: 'approve-collection', collection: 'materials' },
  { from: fay, action: 'approve-currency', token: 'cusd' },
  list(ada, 'relics', 5n, 1n, '0.5'),
  list(ada, 'relics', 101n, 1n, '1.2'),
  list(ben, 'relics', 6n, 1n, '0.8'),
  list(ben, 'relics', 102n, 1n, '150', 'cusd'),
  list(ada, 'materials', 2n, 10n, '0.01'),
  list(cai, 'materials', 1n, 3n, '2', 'cusd'),
  list(ben, 'relics', 3n, 1n, '0.3'),
  buy(cai, 1n),
  buy(ada, 4n),
  buy(ben, 5n, 4n),
  buy(fay, 6n, 2n),
  { from: ben, action: 'cancel', listing: 3n },
  list(ben, 'relics', 6n, 1n, '0.9'),
  { from: ben, action: 'transfer', collection: 'relics', to: fay, tokenId: 3n },
  buy(cai, 5n, 6n),
  list(ada, 'materials', 1n, 5n, '0.02'),
  list(ada, 'materials', 2n, 5n, '0.015'),
];

/** ERC-20 approvals are for all a holder has: OpenZeppelin's ERC-20 never spends a maximal allowance down. */
export const MARKET_ALLOWANCE = maxUint256;

export interface MarketListing {
  id: bigint;
  seller: Address;
  collection: MarketCollectionId;
  tokenId: bigint;
  quantity: bigint;
  currency: MarketCurrency;
  unitPrice: bigint;
  /** How much of it was sold, and whether its seller cancelled it, once the history has run. */
  sold: bigint;
  cancelled: boolean;
}

export interface MarketSale {
  listing: bigint;
  buyer: Address;
  seller: Address;
  collection: MarketCollectionId;
  tokenId: bigint;
  quantity: bigint;
  currency: MarketCurrency;
  /** What the buyer paid; the seller got price - marketplaceFee - royaltyFee. */
  price: bigint;
  marketplaceFee: bigint;
  royaltyReceiver: Address;
  royaltyFee: bigint;
}

/** The listings and the sales of the history, as the contract computes them (fees rounded down). */
export function worldMarket(): { listings: MarketListing[]; sales: MarketSale[] } {
  const listings = new Map<bigint, MarketListing>();
  const sales: MarketSale[] = [];
  for (const step of WORLD_MARKET_HISTORY) {
    if (step.action === 'list') {
      const { listing: id, from: seller, collection, tokenId, quantity, currency, unitPrice } = step;
      listings.set(id, { id, seller, collection, tokenId, quantity, currency, unitPrice, sold: 0n, cancelled: false });
    } else if (step.action === 'cancel') {
      listings.get(step.listing)!.cancelled = true;
    } else if (step.action === 'buy') {
      const listing = listings.get(step.listing)!;
      listing.sold += step.quantity;
      const price = listing.unitPrice * step.quantity;
      const royalty = MARKET_ROYALTIES.find((entry) => entry.collection === listing.collection);
      sales.push({
        listing: listing.id,
        buyer: step.from,
        seller: listing.seller,
        collection: listing.collection,
        tokenId: listing.tokenId,
        quantity: step.quantity,
        currency: listing.currency,
        price,
        marketplaceFee: (price * BigInt(MARKET_FEE_BPS)) / 10_000n,
        royaltyReceiver: royalty?.receiver ?? zeroAddress,
        royaltyFee: royalty ? (price * BigInt(royalty.bps)) / 10_000n : 0n,
      });
    }
  }
  return { listings: [...listings.values()], sales };
}

/** A token moved by the marketplace's history: sold NFTs, the transfer outside it, and each sale's payments in ERC-20s. */
export type MarketMove =
  | { kind: 'item'; collection: 'relics'; from: Address; to: Address; tokenId: bigint }
  | { kind: 'material'; from: Address; to: Address; tokenId: bigint; amount: bigint }
  | { kind: 'erc20'; token: Erc20Id; from: Address; to: Address; amount: bigint };

/** Every token the history moves, in order (what history.ts's holdings add to the rest of the world's). */
export function marketMoves(): MarketMove[] {
  const { sales } = worldMarket();
  let sale = 0;
  return WORLD_MARKET_HISTORY.flatMap((step): MarketMove[] => {
    if (step.action === 'transfer') return [{ kind: 'item', collection: step.collection, from: step.from, to: step.to, tokenId: step.tokenId }];
    if (step.action !== 'buy') return [];
    const { buyer, seller, collection, tokenId, quantity, currency, price, marketplaceFee, royaltyReceiver, royaltyFee } = sales[sale++]!;
    const item: MarketMove =
      collection === 'relics'
        ? { kind: 'item', collection, from: seller, to: buyer, tokenId }
        : { kind: 'material', from: seller, to: buyer, tokenId, amount: quantity };
    if (currency === 'native') return [item];
    const pay = (to: Address, amount: bigint): MarketMove[] => (amount > 0n ? [{ kind: 'erc20', token: currency, from: buyer, to, amount }] : []);
    return [item, ...pay(seller, price - marketplaceFee - royaltyFee), ...pay(MARKET_PAYEES.treasury, marketplaceFee), ...pay(royaltyReceiver, royaltyFee)];
  });
}
