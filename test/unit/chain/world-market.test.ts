import { describe, expect, it } from 'vitest';
import { MARKET_PAYEES, WORLD_HOLDERS } from '../../../src/chain/world/actors.ts';
import { worldHoldings } from '../../../src/chain/world/history.ts';
import { worldFloors, worldListings } from '../../../src/chain/world/market-state.ts';
import { MARKET_FEE_BPS, MARKET_ROYALTIES, WORLD_MARKET_HISTORY, worldMarket } from '../../../src/chain/world/market.ts';

// The marketplace's plan as data: numbered as the contract numbers listings, never selling more
// than was listed, with the fees the contract takes, and the states the docs and tests rely on.

describe("the world's marketplace plan", () => {
  const { listings, sales } = worldMarket();

  it('numbers listings from 1 in order, and buys and cancels only listings made before them', () => {
    const made = new Set<bigint>();
    for (const step of WORLD_MARKET_HISTORY) {
      if (step.action === 'list') {
        expect(step.listing).toBe(BigInt(made.size + 1));
        made.add(step.listing);
      } else if (step.action === 'buy' || step.action === 'cancel') expect(made.has(step.listing)).toBe(true);
    }
    expect(listings.map((listing) => listing.id)).toEqual([...made]);
  });

  it('sells at most what was listed, never a cancelled listing, and never to its own seller', () => {
    const cancelled = new Set<bigint>();
    const sold = new Map<bigint, bigint>();
    for (const step of WORLD_MARKET_HISTORY) {
      if (step.action === 'cancel') cancelled.add(step.listing);
      if (step.action !== 'buy') continue;
      const listing = listings.find((candidate) => candidate.id === step.listing)!;
      expect(cancelled.has(step.listing)).toBe(false);
      sold.set(step.listing, (sold.get(step.listing) ?? 0n) + step.quantity);
      expect(sold.get(step.listing)).toBeLessThanOrEqual(listing.quantity);
      expect(step.from).not.toBe(listing.seller);
    }
  });

  it('takes the 2.5% fee of every sale and the 5% royalty of relics only, rounded down as the contract does', () => {
    expect(MARKET_FEE_BPS).toBe(250);
    expect(sales.length).toBeGreaterThanOrEqual(4);
    for (const sale of sales) {
      expect(sale.marketplaceFee).toBe((sale.price * 250n) / 10_000n);
      expect(sale.royaltyFee).toBe(sale.collection === 'relics' ? (sale.price * 500n) / 10_000n : 0n);
      expect(sale.royaltyReceiver).toBe(sale.collection === 'relics' ? MARKET_PAYEES.relicsCreator : '0x0000000000000000000000000000000000000000');
    }
    expect(MARKET_ROYALTIES).toEqual([{ collection: 'relics', receiver: MARKET_PAYEES.relicsCreator, bps: 500 }]);
    // Both currencies and both standards are traded, and a listing is sold in parts.
    expect(new Set(sales.map((sale) => sale.currency))).toEqual(new Set(['native', 'cusd']));
    expect(new Set(sales.map((sale) => sale.collection))).toEqual(new Set(['relics', 'materials']));
    expect(sales.some((sale) => sales.filter((other) => other.listing === sale.listing).length > 1)).toBe(true);
  });

  it('never gives a token moved outside the marketplace back to its sender (the install reads such a step as done by its absence)', () => {
    WORLD_MARKET_HISTORY.forEach((step, index) => {
      if (step.action !== 'transfer') return;
      const later = WORLD_MARKET_HISTORY.slice(index + 1);
      for (const next of later) {
        if (next.action === 'transfer') expect(next.to === step.from && next.tokenId === step.tokenId).toBe(false);
        if (next.action === 'buy') {
          const listing = listings.find((candidate) => candidate.id === next.listing)!;
          expect(listing.collection === step.collection && listing.tokenId === step.tokenId && next.from === step.from).toBe(false);
        }
      }
    });
  });

  it('leaves open, sold, cancelled and unfillable listings, and a floor in ether for each collection', () => {
    expect(new Set(worldListings().map((listing) => listing.state))).toEqual(new Set(['open', 'sold', 'cancelled', 'unfillable']));
    const floors = worldFloors();
    expect(floors.relics).toMatchObject({ state: 'open', currency: 'native', collection: 'relics' });
    expect(floors.materials).toMatchObject({ state: 'open', currency: 'native', collection: 'materials' });
    // The unfillable listing is cheaper than the relics' floor: a floor that counted it would be wrong.
    const unfillable = worldListings().find((listing) => listing.state === 'unfillable')!;
    expect(unfillable.unitPrice).toBeLessThan(floors.relics!.unitPrice);
    expect(worldHoldings().get(WORLD_HOLDERS.fay)!.items.relics).toContain(unfillable.tokenId);
  });
});
