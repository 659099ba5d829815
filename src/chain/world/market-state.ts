import { getAddress } from 'viem';
import { worldHoldings } from './history.ts';
import { type MarketCollectionId, type MarketListing, worldMarket } from './market.ts';

// What the marketplace's history leaves (market.ts), read the way the NFT API reads a marketplace
// (docs/nft-data.md#getfloorprice): a listing is open while it is neither cancelled nor sold out
// and its seller still holds the token; a collection's floor is its cheapest open listing priced in
// the chain's own currency. The docs' tables and the tests' expectations come from here.

type ListingState = 'open' | 'sold' | 'cancelled' | 'unfillable';

export interface WorldListing extends MarketListing {
  state: ListingState;
}

/** Every listing of the history with its state once the world is installed, in listing order. */
export function worldListings(): WorldListing[] {
  const holdings = worldHoldings();
  const holds = (listing: MarketListing) => {
    const held = holdings.get(getAddress(listing.seller));
    if (listing.collection === 'relics') return held?.items.relics?.includes(listing.tokenId) ?? false;
    return (held?.materials.get(listing.tokenId) ?? 0n) > 0n;
  };
  return worldMarket().listings.map((listing) => {
    const state: ListingState = listing.cancelled ? 'cancelled' : listing.sold === listing.quantity ? 'sold' : holds(listing) ? 'open' : 'unfillable';
    return { ...listing, state };
  });
}

/** Each collection's floor: its cheapest open listing in the native currency (the earliest of equal ones), or null. */
export function worldFloors(): Record<MarketCollectionId, WorldListing | null> {
  const open = worldListings().filter((listing) => listing.state === 'open' && listing.currency === 'native');
  const cheapest = (collection: MarketCollectionId) =>
    open
      .filter((listing) => listing.collection === collection)
      .reduce<WorldListing | null>((best, listing) => (!best || listing.unitPrice < best.unitPrice ? listing : best), null);
  return { relics: cheapest('relics'), materials: cheapest('materials') };
}
