import { decodeEventLog, erc20Abi, parseEther, zeroAddress, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARKET_PAYEES, WORLD_HOLDERS } from '../../../src/chain/world/actors.ts';
import { deployWorld } from '../../../src/chain/world/deploy.ts';
import { worldHoldings } from '../../../src/chain/world/history.ts';
import { WORLD_ADDRESSES, worldContract } from '../../../src/chain/world/manifest.ts';
import { marketLayerCalls } from '../../../src/chain/world/market-install.ts';
import { worldListings } from '../../../src/chain/world/market-state.ts';
import { MARKET_FEE_BPS, WORLD_MARKET_HISTORY, WORLD_MARKETPLACE, worldMarket } from '../../../src/chain/world/market.ts';
import { connectAnvil, createWorldSender } from '../../../src/chain/world/sender.ts';
import { startTestAnvil, type TestAnvil } from '../../support/anvil.ts';

// The world's marketplace layer on a real anvil: the contract holds every listing as the plan
// leaves it, its Sold events carry the plan's prices and fees, the payees hold what the plan pays
// them; the contract refuses what it must; and a layer whose install stopped part-way is completed.

const siteOrigin = 'http://localhost:4321';
const market = { address: WORLD_MARKETPLACE.address, abi: WORLD_MARKETPLACE.artifact.abi };
let anvil: TestAnvil;

const currencyAddress = (currency: string): Address => (currency === 'native' ? zeroAddress : WORLD_ADDRESSES[currency as 'cusd']);
const readListing = async (client: TestAnvil['client'], id: bigint) => {
  const [seller, , collection, tokenId, quantity, sold, currency, unitPrice, cancelled] = (await client.readContract({
    ...market,
    functionName: 'listings',
    args: [id],
  })) as readonly [Address, number, Address, bigint, bigint, bigint, Address, bigint, boolean];
  return { seller, collection, tokenId, quantity, sold, currency, unitPrice, cancelled };
};
const plannedListing = (listing: ReturnType<typeof worldMarket>['listings'][number]) => ({
  seller: listing.seller,
  collection: WORLD_ADDRESSES[listing.collection],
  tokenId: listing.tokenId,
  quantity: listing.quantity,
  sold: listing.sold,
  currency: currencyAddress(listing.currency),
  unitPrice: listing.unitPrice,
  cancelled: listing.cancelled,
});

beforeAll(async () => {
  anvil = await startTestAnvil({ chainId: 31337, blockTimeSeconds: 1 });
  expect(await deployWorld(anvil.rpcUrl, { siteOrigin })).toMatchObject({ market: 'installed' });
});
afterAll(() => anvil?.stop());

describe('the marketplace layer on a fresh devnet', () => {
  it('holds every listing of the plan as the history leaves it', async () => {
    const { listings } = worldMarket();
    expect(await anvil.client.readContract({ ...market, functionName: 'listingCount' })).toBe(BigInt(listings.length));
    for (const listing of listings)
      expect({ id: listing.id, ...(await readListing(anvil.client, listing.id)) }).toEqual({ id: listing.id, ...plannedListing(listing) });
    expect(await anvil.client.readContract({ ...market, functionName: 'feeBps' })).toBe(MARKET_FEE_BPS);
    expect(await anvil.client.readContract({ ...market, functionName: 'feeRecipient' })).toBe(MARKET_PAYEES.treasury);
  });

  it("emits one Sold per sale with the plan's price, fee and royalty, and pays the payees in cUSD what the plan says", async () => {
    const logs = await anvil.client.getLogs({ address: market.address, fromBlock: 0n, toBlock: 'latest' });
    const sold = logs.map((log) => decodeEventLog({ abi: market.abi, data: log.data, topics: log.topics })).filter((event) => event.eventName === 'Sold');
    expect(sold.map((event) => event.args)).toEqual(
      worldMarket().sales.map((sale) => ({
        listingId: sale.listing,
        buyer: sale.buyer,
        seller: sale.seller,
        collection: WORLD_ADDRESSES[sale.collection],
        tokenId: sale.tokenId,
        quantity: sale.quantity,
        currency: currencyAddress(sale.currency),
        price: sale.price,
        marketplaceFee: sale.marketplaceFee,
        royaltyReceiver: sale.royaltyReceiver,
        royaltyFee: sale.royaltyFee,
      })),
    );
    const holdings = worldHoldings();
    for (const payee of Object.values(MARKET_PAYEES)) {
      const balance = await anvil.client.readContract({ address: WORLD_ADDRESSES.cusd, abi: erc20Abi, functionName: 'balanceOf', args: [payee] });
      expect(balance).toBe(holdings.get(payee)!.erc20.cusd);
      expect(balance).toBeGreaterThan(0n);
    }
  });

  it('refuses a wrong payment, a closed or unfillable listing, another seller’s cancel and a collection that is no NFT', async () => {
    const simulate = (from: Address, functionName: string, args: readonly unknown[], value?: bigint) =>
      anvil.client.simulateContract({ ...market, functionName, args, account: from, ...(value !== undefined && { value }) } as never);
    const listings = worldListings();
    const open = listings.find((listing) => listing.state === 'open' && listing.currency === 'native')!;
    const closed = listings.find((listing) => listing.state === 'cancelled')!;
    const unfillable = listings.find((listing) => listing.state === 'unfillable')!;
    const { cai, ada } = WORLD_HOLDERS;
    await expect(simulate(cai, 'buy', [open.id, 1n], open.unitPrice - 1n)).rejects.toThrow(/WrongPayment/);
    await expect(simulate(cai, 'buy', [closed.id, 1n], closed.unitPrice)).rejects.toThrow(/NotOpen/);
    await expect(simulate(cai, 'buy', [open.id, open.quantity + 1n], open.unitPrice * (open.quantity + 1n))).rejects.toThrow(/InvalidQuantity/);
    // Its seller gave the token away: the transfer the sale needs is refused by the collection (whose errors decode it).
    const relicErrors = worldContract('relics').artifact.abi.filter((item) => item.type === 'error');
    await expect(
      anvil.client.simulateContract({
        address: market.address,
        abi: [...market.abi, ...relicErrors],
        functionName: 'buy',
        args: [unfillable.id, 1n],
        account: cai,
        value: unfillable.unitPrice,
      }),
    ).rejects.toThrow(/ERC721InsufficientApproval/);
    await expect(simulate(cai, 'cancel', [open.id])).rejects.toThrow(/NotSeller/);
    await expect(simulate(ada, 'list', [WORLD_ADDRESSES.forge, 1n, 1n, zeroAddress, parseEther('1')])).rejects.toThrow(/UnsupportedCollection/);
    await expect(simulate(cai, 'list', [WORLD_ADDRESSES.relics, 4n, 1n, zeroAddress, parseEther('1')])).rejects.toThrow(/NotHeld/);
  });

  it('sends nothing when deployed again', async () => {
    expect(await deployWorld(anvil.rpcUrl, { siteOrigin })).toMatchObject({ market: 'present', transactions: 0 });
  });
});

describe('a marketplace layer whose install stopped part-way', () => {
  it('is completed from the first step the chain does not show, to the same listings', async () => {
    const partial = await startTestAnvil({ chainId: 31337 });
    try {
      await deployWorld(partial.rpcUrl, { siteOrigin, market: false });
      const client = connectAnvil(partial.rpcUrl);
      const calls = await marketLayerCalls(client);
      expect(calls).toHaveLength(WORLD_MARKET_HISTORY.length);
      // Stopped after the first buy (a listing part-sold is among what the next start must read right).
      const stoppedAfter = WORLD_MARKET_HISTORY.findIndex((step) => step.action === 'buy') + 2;
      const sender = await createWorldSender(client);
      for (const call of calls.slice(0, stoppedAfter)) await sender.run([call]);
      expect(await marketLayerCalls(client)).toEqual(calls.slice(stoppedAfter));

      expect(await deployWorld(partial.rpcUrl, { siteOrigin })).toMatchObject({ market: 'installed', transactions: calls.length - stoppedAfter });
      for (const listing of worldMarket().listings) expect(await readListing(partial.client, listing.id)).toEqual(plannedListing(listing));
      expect(await marketLayerCalls(client)).toEqual([]);
    } finally {
      await partial.stop();
    }
  });
});
