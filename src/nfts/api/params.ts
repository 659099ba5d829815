import { z } from 'zod';
import { readSdkQuery } from '../../rest/query.ts';
import { decodeNftPageKey } from './page-key.ts';

// The query parameters of the NFT endpoints (docs/nft-data.md), one schema per endpoint: the keyed
// REST door validates with them (as alchemy-sdk sends queries: src/rest/query.ts) and the node's
// OpenAPI document describes them. The rules across parameters are the schemas' own checks, so they
// hold before the call is charged.

const MAX_CONTRACTS = 45;
const MAX_PAGE_SIZE = 100;

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
const Bool = (description: string) => z.stringbool().default(true).describe(description);
const Filters = z.array(z.enum(['SPAM', 'AIRDROPS'])).max(2);
const TokenUriTimeout = z.coerce
  .number()
  .int()
  .min(0)
  .optional()
  .describe('How long fetching one token’s metadata may take, in ms; 0: answer from the cache only, fetch nothing. Capped by the server’s maximum.');

export const NftsForOwnerQuery = z
  .object({
    owner: Address.describe('The wallet whose NFTs are listed.'),
    pageKey: z.string().optional().describe('The `pageKey` of the previous answer, as given (opaque).'),
    pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(MAX_PAGE_SIZE).describe('NFTs per page, 1–100.'),
    'contractAddresses[]': z
      .array(Address)
      .max(MAX_CONTRACTS)
      .optional()
      .describe('Only these contracts (at most 45); also accepted as `contractAddresses` repeated.'),
    withMetadata: Bool('false: each NFT as its contract address, token id and balance only.'),
    'excludeFilters[]': Filters.optional().describe(
      'Leave out SPAM contracts or AIRDROPS (tokens minted to the owner by a mass airdrop). Not with includeFilters[].',
    ),
    'includeFilters[]': Filters.optional().describe('Only SPAM contracts or AIRDROPS. Not with excludeFilters[].'),
    orderBy: z.enum(['transferTime']).optional().describe('transferTime: the NFTs the owner received last come first. Default: by contract, then token id.'),
    tokenUriTimeoutInMs: TokenUriTimeout,
  })
  .superRefine((query, context) => {
    if (query['excludeFilters[]']?.length && query['includeFilters[]']?.length)
      context.addIssue({ code: 'custom', path: [], message: 'excludeFilters[] and includeFilters[] cannot be given together; use one of them.' });
    else if (query.pageKey !== undefined && !decodeNftPageKey(query.orderBy ?? 'contract', query.pageKey))
      context.addIssue({
        code: 'custom',
        path: [],
        message: 'pageKey is not one this endpoint gave for this orderBy; pass the pageKey of the previous answer as it was given.',
      });
  });
export type NftsForOwnerQuery = z.output<typeof NftsForOwnerQuery>;

export const NftMetadataQuery = z.object({
  contractAddress: Address.describe('The NFT contract.'),
  tokenId: TokenId,
  tokenType: z.enum(['ERC721', 'ERC1155']).optional().describe('Accepted for compatibility; the index knows each token’s type.'),
  tokenUriTimeoutInMs: TokenUriTimeout,
  refreshCache: z.stringbool().default(false).describe('true: fetch the token’s metadata again now rather than answer the stored record.'),
});
export type NftMetadataQuery = z.output<typeof NftMetadataQuery>;

export const ContractMetadataQuery = z.object({
  contractAddress: Address.describe('The NFT contract.'),
});
export type ContractMetadataQuery = z.output<typeof ContractMetadataQuery>;

export const NFT_QUERY_SCHEMAS = {
  getNFTs: NftsForOwnerQuery,
  getNFTsForOwner: NftsForOwnerQuery,
  getNFTMetadata: NftMetadataQuery,
  getContractMetadata: ContractMetadataQuery,
} as const;

type NftEndpoint = keyof typeof NFT_QUERY_SCHEMAS;

/** The parsed query of an endpoint, or why it is not one: a sentence naming the parameter. */
export function parseNftQuery<E extends NftEndpoint>(
  endpoint: E,
  search: string,
): { ok: true; query: z.output<(typeof NFT_QUERY_SCHEMAS)[E]> } | { ok: false; problem: string } {
  return readSdkQuery(NFT_QUERY_SCHEMAS[endpoint], search) as { ok: true; query: z.output<(typeof NFT_QUERY_SCHEMAS)[E]> } | { ok: false; problem: string };
}
