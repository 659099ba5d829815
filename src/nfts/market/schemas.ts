import { z } from 'zod';

// The answers of getFloorPrice and getNFTSales (docs/nft-data.md#getfloorprice, #getnftsales) as zod schemas: the node's
// OpenAPI document is generated from them and the tests validate answers against that document.
// The fields are the ones alchemy-sdk 3 reads (its RawGetFloorPriceResponse and RawGetNftSalesResponse).

const nullable = <T extends z.ZodType>(schema: T) => z.union([schema, z.null()]);
const ChecksumAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const Decimal = z.string().regex(/^\d+$/);

export const FloorPriceEntry = z
  .object({
    floorPrice: nullable(z.number()).describe('The cheapest open listing’s unit price, in whole units of priceCurrency; null with an error.'),
    priceCurrency: nullable(z.string()).describe("The network's native currency symbol (ETH); null with an error."),
    collectionUrl: nullable(z.string()),
    retrievedAt: nullable(z.iso.datetime()).describe('The time of the indexed block the floor was read at.'),
    error: nullable(z.string()).describe('Why there is no floor: the marketplace is not read on this network, or the collection has no open listing there.'),
  })
  .describe("One marketplace's floor, or why it has none.");

export const FloorPrice = z
  .record(z.string(), FloorPriceEntry)
  .describe(
    'One entry per marketplace read on the network (by its configured name), plus `openSea` and `looksRare`, which are never read and say so in `error`.',
  );

export const NftSaleFee = z.object({
  amount: Decimal.describe('In base units of the token.'),
  tokenAddress: ChecksumAddress.describe('The zero address: the native currency.'),
  symbol: nullable(z.string()),
  decimals: nullable(z.int()),
});

export const NftSale = z.object({
  marketplace: z.string().describe("The marketplace's configured name (alchemy-sdk shows names outside its own list as `unknown`)."),
  marketplaceAddress: ChecksumAddress,
  contractAddress: ChecksumAddress,
  tokenId: Decimal,
  quantity: Decimal,
  buyerAddress: ChecksumAddress,
  sellerAddress: ChecksumAddress,
  taker: z.enum(['BUYER']).describe('The side that took the trade: a listing is taken by its buyer.'),
  sellerFee: NftSaleFee.describe('What the seller got: the price less the two fees below.'),
  protocolFee: NftSaleFee.describe("The marketplace's fee."),
  royaltyFee: NftSaleFee.describe("The collection's royalty (amount 0 without one)."),
  blockNumber: z.int(),
  logIndex: z.int(),
  bundleIndex: z.int().describe('Always 0: one sale event sells one token id.'),
  transactionHash: z.string().regex(/^0x[0-9a-f]{64}$/),
});

export const Marketplace = z.object({ name: z.string(), address: ChecksumAddress }).describe('A marketplace read on the network.');

export const NftSales = z.object({
  nftSales: z.array(NftSale),
  validAt: z.object({ blockNumber: z.int(), blockHash: z.string(), blockTimestamp: nullable(z.iso.datetime()) }),
  pageKey: nullable(z.string()).describe('Pass it back for the next page; null on the last.'),
  marketplaces: z.array(Marketplace).describe('The marketplaces whose sales were read (alchemy-sdk drops this field).'),
});

export type FloorPriceEntryBody = z.infer<typeof FloorPriceEntry>;
export type FloorPriceBody = z.infer<typeof FloorPrice>;
export type NftSaleBody = z.infer<typeof NftSale>;
export type NftSalesBody = z.infer<typeof NftSales>;
