import { z } from 'zod';
import { Address, TokenId } from '../api/params.ts';
import { decodeSalesPageKey, salesFingerprint } from './page-key.ts';

// The query parameters of getFloorPrice and getNFTSales (docs/nft-data.md#getnftsales), as alchemy-sdk 3 sends
// them: the keyed REST door validates with these schemas, and the node's OpenAPI document describes
// them. Rules across parameters are the schemas' own checks, so they hold before the call is charged.

const MAX_SALES_PER_PAGE = 1000;

/** A block number (decimal, or 0x and hex digits, below 2^53) or `latest`: the index's head. Kept as given: a transform has no OpenAPI form. */
const BlockTag = z.string().regex(/^(latest|0x[0-9a-fA-F]{1,13}|\d{1,15})$/, 'must be a block number (decimal, or 0x and hexadecimal digits) or latest');

/** A block tag's number, or `latest`. */
export const blockOf = (tag: string): number | 'latest' => (tag === 'latest' ? 'latest' : Number(tag));

export const FloorPriceQuery = z.object({
  contractAddress: Address.describe('The NFT collection.'),
});
export type FloorPriceQuery = z.output<typeof FloorPriceQuery>;

export const NftSalesQuery = z
  .object({
    fromBlock: BlockTag.default('0').describe('The first block of sales; default 0.'),
    toBlock: BlockTag.default('latest').describe('The last block of sales; default `latest`, the block the index holds last.'),
    order: z.enum(['asc', 'desc']).default('asc').describe('`asc`: oldest sale first (default); `desc`: newest first.'),
    marketplace: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,32}$/, 'must be a marketplace name: letters, digits, - and _, at most 32')
      .optional()
      .describe(
        "Only this marketplace's sales: a name the network reads (the answer's `marketplaces`), or one of alchemy-sdk's (`seaport`, `looksrare`, `x2y2`, `wyvern`, `cryptopunks`, `blur`, `unknown`), which are not read and answer none.",
      ),
    contractAddress: Address.describe('Only sales of this collection.').optional(),
    tokenId: TokenId.describe('Only sales of this token of `contractAddress`.').optional(),
    buyerAddress: Address.describe('Only sales to this buyer.').optional(),
    sellerAddress: Address.describe('Only sales by this seller.').optional(),
    taker: z
      .string()
      .regex(/^(buyer|seller)$/i, 'must be buyer or seller (any case)')
      .optional()
      .describe('`buyer` or `seller` (any case): the side that took the trade. A listing is always taken by its buyer, so `seller` answers none.'),
    limit: z.coerce.number().int().min(1).max(MAX_SALES_PER_PAGE).default(MAX_SALES_PER_PAGE).describe('Sales per page, 1–1000; default 1000.'),
    pageKey: z.string().optional().describe('The `pageKey` of the previous answer to the same query, as given (opaque).'),
  })
  .superRefine((query, context) => {
    const issue = (message: string) => context.addIssue({ code: 'custom', path: [], message });
    if (query.tokenId !== undefined && query.contractAddress === undefined) issue('tokenId needs contractAddress: a token id names a token of one collection.');
    else if (isAfter(blockOf(query.fromBlock), blockOf(query.toBlock)))
      issue(`fromBlock (${blockOf(query.fromBlock)}) is after toBlock (${blockOf(query.toBlock)}).`);
    else if (query.pageKey !== undefined && !decodeSalesPageKey(salesQueryFingerprint(query), query.pageKey))
      issue('pageKey is not one this endpoint gave for these parameters; pass the pageKey of the previous answer with the same filters and order.');
  });
export type NftSalesQuery = z.output<typeof NftSalesQuery>;

const isAfter = (from: number | 'latest', to: number | 'latest') => typeof from === 'number' && typeof to === 'number' && from > to;

/** The fingerprint of a sales query's filters and order: what its page keys carry (./page-key.ts). */
export function salesQueryFingerprint(query: Omit<NftSalesQuery, 'limit' | 'pageKey'>): string {
  return salesFingerprint({
    fromBlock: blockOf(query.fromBlock),
    toBlock: blockOf(query.toBlock),
    order: query.order,
    marketplace: query.marketplace?.toLowerCase(),
    contractAddress: query.contractAddress?.toLowerCase(),
    tokenId: query.tokenId === undefined ? undefined : BigInt(query.tokenId).toString(),
    buyerAddress: query.buyerAddress?.toLowerCase(),
    sellerAddress: query.sellerAddress?.toLowerCase(),
    taker: query.taker?.toLowerCase(),
  });
}
