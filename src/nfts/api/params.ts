import { z } from 'zod';
import { decodeOwnerNftsKey } from './page-key.ts';

// The inputs of the NFT endpoints (docs/nft-data.md): the parameters every endpoint shares, and the
// queries and bodies of the owner and metadata endpoints (./list-params.ts has the lists of a
// contract, its owners and an owner's contracts). The keyed REST door validates with them (queries
// as alchemy-sdk sends them: src/rest/query.ts) and the node's OpenAPI document describes them. The
// rules across parameters are the schemas' own checks, so they hold before the call is charged.

const MAX_CONTRACTS = 45;
/** NFTs per page of an owner's or a contract's, and tokens per metadata batch (the incumbent's limits). */
export const MAX_PAGE_SIZE = 100;

export const Address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'must be an address: 0x followed by 40 hexadecimal digits')
  .describe('0x followed by 40 hexadecimal digits (20 bytes).');
const TOKEN_ID_SHAPE = /^(0x[0-9a-fA-F]{1,64}|\d{1,78})$/;
export const TokenId = z
  .string()
  .regex(TOKEN_ID_SHAPE, 'must be a token id: a decimal number, or 0x and hexadecimal digits')
  // Checked only once the pattern holds: BigInt throws on anything else.
  .refine((id) => !TOKEN_ID_SHAPE.test(id) || BigInt(id) < 2n ** 256n, 'must be a token id below 2^256')
  .describe('Decimal, or hexadecimal with 0x.');
/** A token id as a decimal string, whichever way it was written. */
export const decimalTokenId = (id: string | number): string => BigInt(id).toString();
export const Bool = (fallback: boolean, description: string) => z.stringbool().default(fallback).describe(description);
export const Filters = z.array(z.enum(['SPAM', 'AIRDROPS'])).max(2);
/** alchemy-sdk sends `TRANSFERTIME`, the REST docs `transferTime`: the same order. */
export const TransferTimeOrder = z
  .enum(['transferTime', 'TRANSFERTIME'])
  .optional()
  .describe('transferTime (or TRANSFERTIME, as alchemy-sdk sends it): the last received first.');
export const TokenUriTimeout = z.coerce
  .number()
  .int()
  .min(0)
  .optional()
  .describe('How long fetching one token’s metadata may take, in ms; 0: answer from the cache only, fetch nothing. Capped by the server’s maximum.');
export const PageKey = z.string().optional().describe('The `pageKey` of the previous answer, as given (opaque); a key another query gave is refused.');

const FILTERS_TOGETHER = 'excludeFilters[] and includeFilters[] cannot be given together; use one of them.';
export const PAGE_KEY_ELSEWHERE = 'pageKey is not one this endpoint gave for this query; pass the pageKey of the previous answer as it was given.';

/** The rule of excludeFilters[] and includeFilters[]: one of them. */
export function oneFilterList(query: { 'excludeFilters[]'?: unknown[]; 'includeFilters[]'?: unknown[] }, context: z.RefinementCtx): boolean {
  if (!query['excludeFilters[]']?.length || !query['includeFilters[]']?.length) return true;
  context.addIssue({ code: 'custom', path: [], message: FILTERS_TOGETHER });
  return false;
}

export const NftsForOwnerQuery = z
  .object({
    owner: Address.describe('The wallet whose NFTs are listed.'),
    pageKey: PageKey,
    pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(MAX_PAGE_SIZE).describe('NFTs per page, 1–100.'),
    'contractAddresses[]': z
      .array(Address.describe('An NFT contract.'))
      .max(MAX_CONTRACTS)
      .optional()
      .describe('Only these contracts (at most 45); also accepted as `contractAddresses` repeated.'),
    withMetadata: Bool(true, 'false: each NFT as its contract address, token id and balance only.'),
    'excludeFilters[]': Filters.optional().describe(
      'Leave out SPAM contracts or AIRDROPS (tokens minted to the owner by a mass airdrop). Not with includeFilters[].',
    ),
    'includeFilters[]': Filters.optional().describe('Only SPAM contracts or AIRDROPS. Not with excludeFilters[].'),
    orderBy: TransferTimeOrder.describe('transferTime (or TRANSFERTIME): the NFTs the owner received last come first. Default: by contract, then token id.'),
    tokenUriTimeoutInMs: TokenUriTimeout,
  })
  .superRefine((query, context) => {
    if (!oneFilterList(query, context)) return;
    if (query.pageKey !== undefined && !decodeOwnerNftsKey(query.owner, ownerOrder(query), query.pageKey))
      context.addIssue({ code: 'custom', path: [], message: PAGE_KEY_ELSEWHERE });
  });
export type NftsForOwnerQuery = z.output<typeof NftsForOwnerQuery>;

/** The order of an owner's NFTs: by contract and token id unless transfer time is asked for. */
export const ownerOrder = (query: { orderBy?: string }): 'contract' | 'transferTime' => (query.orderBy ? 'transferTime' : 'contract');

export const NftMetadataQuery = z.object({
  contractAddress: Address.describe('The NFT contract.'),
  tokenId: TokenId.describe('The token: decimal, or hexadecimal with 0x.'),
  tokenType: z.enum(['ERC721', 'ERC1155']).optional().describe('Accepted for compatibility; the index knows each token’s type.'),
  tokenUriTimeoutInMs: TokenUriTimeout,
  refreshCache: Bool(false, 'true: fetch the token’s metadata again now rather than answer the stored record.'),
});
export type NftMetadataQuery = z.output<typeof NftMetadataQuery>;

export const ContractQuery = z.object({
  contractAddress: Address.describe('The NFT contract.'),
});
export type ContractQuery = z.output<typeof ContractQuery>;

export const TokenQuery = z.object({
  contractAddress: Address.describe('The NFT contract.'),
  tokenId: TokenId.describe('The token: decimal, or hexadecimal with 0x.'),
});
export type TokenQuery = z.output<typeof TokenQuery>;

/** A token id in a JSON body: alchemy-sdk passes the caller's as given, a decimal or hex string or a number. */
const BodyTokenId = z
  .union([TokenId.describe('Decimal, or hexadecimal with 0x.'), z.int().min(0).max(Number.MAX_SAFE_INTEGER)])
  .describe('Decimal or 0x hex string, or a whole number.');

export const NftMetadataBatchBody = z.object({
  tokens: z
    .array(
      z.object({
        contractAddress: Address.describe('The NFT contract.'),
        tokenId: BodyTokenId,
        tokenType: z.enum(['ERC721', 'ERC1155']).optional().describe('Accepted and ignored: the index knows each token’s type.'),
      }),
    )
    .min(1)
    .max(MAX_PAGE_SIZE)
    .describe('1 to 100 tokens; the answer lists them in this order.'),
  tokenUriTimeoutInMs: z.int().min(0).optional().describe('As getNFTMetadata’s, for the whole answer.'),
  refreshCache: z.boolean().default(false).describe('true: fetch every token’s metadata again now.'),
});
export type NftMetadataBatchBody = z.output<typeof NftMetadataBatchBody>;

export const ContractMetadataBatchBody = z.object({
  contractAddresses: z
    .array(Address.describe('An NFT contract.'))
    .min(1)
    .max(MAX_CONTRACTS)
    .describe('1 to 45 contracts; the answer lists them in this order.'),
});
export type ContractMetadataBatchBody = z.output<typeof ContractMetadataBatchBody>;

export const RefreshNftBody = z.object({
  contractAddress: Address.describe('The NFT contract.'),
  tokenId: BodyTokenId,
});
export type RefreshNftBody = z.output<typeof RefreshNftBody>;

/** A batch body's size cap: 100 tokens of about 120 bytes, with room. */
export const BATCH_BODY_MAX_BYTES = 64 * 1024;
