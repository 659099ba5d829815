import { z } from 'zod';
import { parseQuery } from '../../api/query.ts';
import type { NftEndpointName } from './endpoints.ts';

// The query parameters of the NFT endpoints (platform §5), one schema per endpoint: the gateway
// validates with them and the node's OpenAPI document describes them. Unknown parameters are ignored;
// list parameters are accepted as `name[]=` (what alchemy-sdk's axios sends) and as `name=` repeated.

const MAX_CONTRACTS = 45;
const MAX_PAGE_SIZE = 100;

const Address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'must be an address: 0x followed by 40 hexadecimal digits')
  .describe('0x followed by 40 hexadecimal digits (20 bytes).');
const TOKEN_ID_SHAPE = /^(0x[0-9a-fA-F]{1,64}|\d{1,78})$/;
const TokenId = z
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

export const NftsForOwnerQuery = z.object({
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
} as const satisfies Record<NftEndpointName, z.ZodObject>;

export type NftQuery<E extends NftEndpointName> = z.output<(typeof NFT_QUERY_SCHEMAS)[E]>;

/** The parsed query, or why it is not one: a sentence naming the parameter. */
export function parseNftQuery<E extends NftEndpointName>(endpoint: E, search: string): { ok: true; query: NftQuery<E> } | { ok: false; problem: string } {
  const parsed = parseQuery(search);
  if (!parsed.ok) return { ok: false, problem: 'The query string is not valid percent-encoding.' };
  const schema = NFT_QUERY_SCHEMAS[endpoint];
  const input: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(parsed.value)) {
    const listName = `${name.replace(/\[\]$/, '')}[]`;
    if (Object.hasOwn(schema.shape, listName)) {
      // `name[]` and `name` both feed the list; an empty value (`name[]=`) is no item.
      const items = (Array.isArray(value) ? value : [value]).filter((item) => item !== '');
      input[listName] = [...((input[listName] as string[] | undefined) ?? []), ...items];
    } else if (Object.hasOwn(schema.shape, name)) {
      if (Array.isArray(value)) return { ok: false, problem: `${name} is given ${value.length} times; give it once.` };
      input[name] = value;
    }
  }
  const result = schema.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const name = issue.path.length ? String(issue.path[0]) : 'the query';
    const missing = issue.code === 'invalid_type' && input[String(issue.path[0])] === undefined;
    return { ok: false, problem: missing ? `${name} is required.` : `${name} ${describeIssue(issue)}` };
  }
  const query = result.data as NftQuery<E>;
  if ('excludeFilters[]' in query && query['excludeFilters[]']?.length && query['includeFilters[]']?.length) {
    return { ok: false, problem: 'excludeFilters[] and includeFilters[] cannot be given together; use one of them.' };
  }
  return { ok: true, query };
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'too_big') return issue.origin === 'array' ? `may hold at most ${issue.maximum} items.` : `must be at most ${issue.maximum}.`;
  if (issue.code === 'too_small') return `must be at least ${issue.minimum}.`;
  if (issue.code === 'invalid_value') return `must be one of ${issue.values.map(String).join(', ')}.`;
  if (issue.code === 'invalid_type' && issue.expected === 'number') return 'must be a whole number.';
  const message = issue.message.replace(/\.$/, '');
  return `${message.startsWith('must') ? '' : 'is invalid: '}${message}.`;
}
