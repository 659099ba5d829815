import { z } from 'zod';
import { decodeContractOwnersKey, decodeContractTokensKey, decodeOwnerContractsKey, decodeTokenOwnersKey } from './page-key.ts';
import {
  Address,
  Bool,
  decimalTokenId,
  Filters,
  MAX_PAGE_SIZE,
  oneFilterList,
  PAGE_KEY_ELSEWHERE,
  PageKey,
  TokenId,
  TokenUriTimeout,
  TransferTimeOrder,
} from './params.ts';

// The queries of the NFT endpoints that list a contract's tokens, its owners, a token's owners and an
// owner's contracts, and of the collection and search endpoints (docs/nft-data.md). A pageKey is
// checked against the query it is given with (./page-key.ts), before the call is charged.

/** Owners per page of getOwnersForNFT. */
const MAX_TOKEN_OWNERS = 100;

const pageKeyElsewhere = (context: z.RefinementCtx) => context.addIssue({ code: 'custom', path: [], message: PAGE_KEY_ELSEWHERE });

const CollectionSlug = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be a collection slug: lower-case letters, digits and single hyphens, such as crucible-relics')
  .describe('A collection of the collections registry (content/collections/<slug>.yaml).');

const contractTokensFields = {
  withMetadata: Bool(true, 'false: each NFT as its contract address, token id and type only.'),
  startToken: TokenId.describe('A token id.').optional().describe('The first token id of the page (decimal or 0x hex); not with pageKey.'),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(MAX_PAGE_SIZE).describe('NFTs per page, 1–100 (alchemy-sdk sends its pageSize as limit).'),
  pageKey: PageKey,
  tokenUriTimeoutInMs: TokenUriTimeout,
};

/** startToken and pageKey both say where a page starts: one of them; a pageKey names its contract. */
function oneStart(query: { startToken?: string; pageKey?: string }, contract: string | undefined, context: z.RefinementCtx): void {
  if (query.startToken !== undefined && query.pageKey !== undefined)
    context.addIssue({ code: 'custom', path: [], message: 'startToken and pageKey cannot be given together; use one of them.' });
  else if (query.pageKey !== undefined && contract !== undefined && !decodeContractTokensKey(contract, query.pageKey)) pageKeyElsewhere(context);
}

export const NftsForContractQuery = z
  .object({ contractAddress: Address.describe('The NFT contract.'), ...contractTokensFields })
  .superRefine((query, context) => oneStart(query, query.contractAddress, context));
export type NftsForContractQuery = z.output<typeof NftsForContractQuery>;

/** By contract or by collection slug; the pageKey is the contract's, so it is checked once the slug is resolved. */
export const NftsForCollectionQuery = z
  .object({
    contractAddress: Address.optional().describe('The NFT contract; or give collectionSlug.'),
    collectionSlug: CollectionSlug.describe('The collection; or give contractAddress.').optional(),
    ...contractTokensFields,
  })
  .superRefine((query, context) => {
    if ((query.contractAddress === undefined) === (query.collectionSlug === undefined))
      context.addIssue({ code: 'custom', path: [], message: 'Give exactly one of contractAddress and collectionSlug.' });
    else oneStart(query, query.contractAddress, context);
  });
export type NftsForCollectionQuery = z.output<typeof NftsForCollectionQuery>;

export const OwnersForNftQuery = z
  .object({
    contractAddress: Address.describe('The NFT contract.'),
    tokenId: TokenId.describe('The token: decimal, or hexadecimal with 0x.'),
    pageKey: PageKey,
    pageSize: z.coerce.number().int().min(1).max(MAX_TOKEN_OWNERS).default(MAX_TOKEN_OWNERS).describe('Owners per page, 1–100.'),
  })
  .superRefine((query, context) => {
    if (query.pageKey !== undefined && TokenId.safeParse(query.tokenId).success) {
      if (!decodeTokenOwnersKey(query.contractAddress, decimalTokenId(query.tokenId), query.pageKey)) pageKeyElsewhere(context);
    }
  });
export type OwnersForNftQuery = z.output<typeof OwnersForNftQuery>;

export const OwnersForContractQuery = z
  .object({
    contractAddress: Address.describe('The NFT contract.'),
    withTokenBalances: Bool(false, 'true: each owner with the token ids it holds and their balances.'),
    includeCount: Bool(false, 'true: the answer says totalCount, every owner of the contract.'),
    block: z.string().optional().describe('Not supported: owners are those at the indexed block (`validAt`); a block given is refused with 400.'),
    pageKey: PageKey,
  })
  .superRefine((query, context) => {
    if (query.block !== undefined)
      context.addIssue({
        code: 'custom',
        path: [],
        message: 'block is not supported: owners are those at the indexed block the answer gives as validAt; leave block out.',
      });
    else if (query.pageKey !== undefined && !decodeContractOwnersKey(query.contractAddress, query.pageKey)) pageKeyElsewhere(context);
  });
export type OwnersForContractQuery = z.output<typeof OwnersForContractQuery>;

export const ContractsForOwnerQuery = z
  .object({
    owner: Address.describe('The wallet whose NFT contracts are listed.'),
    pageKey: PageKey,
    pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(MAX_PAGE_SIZE).describe('Contracts per page, 1–100.'),
    'excludeFilters[]': Filters.optional().describe('Leave out SPAM contracts or AIRDROPS. Not with includeFilters[].'),
    'includeFilters[]': Filters.optional().describe('Only SPAM contracts or AIRDROPS. Not with excludeFilters[].'),
    orderBy: TransferTimeOrder.describe('transferTime (or TRANSFERTIME): the contracts whose tokens the owner received last come first. Default: by address.'),
  })
  .superRefine((query, context) => {
    if (!oneFilterList(query, context)) return;
    if (query.pageKey !== undefined && !decodeOwnerContractsKey(query.owner, query.orderBy !== undefined, query.pageKey)) pageKeyElsewhere(context);
  });
export type ContractsForOwnerQuery = z.output<typeof ContractsForOwnerQuery>;

export const HolderOfContractQuery = z.object({
  wallet: Address.describe('The wallet.'),
  contractAddress: Address.describe('The NFT contract.'),
});
export type HolderOfContractQuery = z.output<typeof HolderOfContractQuery>;

export const CollectionQuery = z.object({ collectionSlug: CollectionSlug.describe('The collection: its file name in content/collections/ without .yaml.') });
export type CollectionQuery = z.output<typeof CollectionQuery>;

export const SearchQuery = z.object({
  query: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(100, 'must be at most 100 characters')
    .describe("Words that each appear in a contract's name, symbol or collection name (any case)."),
});
export type SearchQuery = z.output<typeof SearchQuery>;
