import type { Address } from 'viem';
import { z } from 'zod';
import { MAX_ASSET_TRANSFER_CONTRACTS as MAX_CONTRACT_ADDRESSES, MAX_ASSET_TRANSFERS_PER_PAGE as MAX_TRANSFERS_PER_PAGE } from '../limits.ts';
import { blockNumberOf, BlockTagOrNumber } from '../schemas/primitives.ts';
import { decodeTransfersPageKey, type TransfersPageKey } from './transfers-page-key.ts';
import { TokenParamsError } from './token-params.ts';

// The params of crucible_getAssetTransfers (docs/token-data.md#crucible_getassettransfers), one source for the method registry (its
// schema, docs and OpenRPC) and for the core that answers it, which parses them again when it is
// called directly. Every message reads after the parameter's name: `[0] request.maxCount must be …`.

export const ASSET_TRANSFER_CATEGORIES = ['external', 'internal', 'erc20', 'erc721', 'erc1155', 'specialnft'] as const;
export type AssetTransferCategory = (typeof ASSET_TRANSFER_CATEGORIES)[number];

const addressPhrase = 'must be a 20-byte address: "0x" and 40 hex digits';
const addressSchema = () =>
  z
    .string({ error: addressPhrase })
    .regex(/^0x[0-9a-fA-F]{40}$/, { error: addressPhrase })
    .transform((address) => address.toLowerCase() as Address);

const categoryPhrase = `must be a list of 1 to ${ASSET_TRANSFER_CATEGORIES.length} of ${ASSET_TRANSFER_CATEGORIES.map((name) => `"${name}"`).join(', ')}`;
const maxCountPhrase = `must be a hex quantity from 0x1 to 0x${MAX_TRANSFERS_PER_PAGE.toString(16)} (${MAX_TRANSFERS_PER_PAGE.toLocaleString('en-US')})`;
const pageKeyPhrase = 'must be the pageKey of an earlier answer of this method';
const requestPhrase =
  'must be an object {"category": [...], "fromBlock"?, "toBlock"?, "fromAddress"?, "toAddress"?, "contractAddresses"?, "order"?, "withMetadata"?, "excludeZeroValue"?, "maxCount"?, "pageKey"?}';

/** maxCount as a hex quantity (the SDK's form) or, for hand-written calls, an integer. */
const MaxCount = z.union([z.string().regex(/^0x[0-9a-fA-F]{1,8}$/), z.number().int()], { error: maxCountPhrase }).refine((value) => {
  const count = typeof value === 'number' ? value : Number.parseInt(value, 16);
  return count >= 1 && count <= MAX_TRANSFERS_PER_PAGE;
}, maxCountPhrase);

/** [0] of crucible_getAssetTransfers: what to list, and the page. */
export const AssetTransfersRequest = z
  .strictObject(
    {
      fromBlock: BlockTagOrNumber.optional().describe('The first block, inclusive: a hex block number or a tag. Default "0x0".'),
      toBlock: BlockTagOrNumber.optional().describe(
        'The last block, inclusive: a hex block number or a tag ("latest": the last block indexed). Default "latest".',
      ),
      fromAddress: addressSchema().optional().describe('Only transfers from this address.'),
      toAddress: addressSchema().optional().describe('Only transfers to this address.'),
      contractAddresses: z
        .array(addressSchema(), { error: `must be a list of at most ${MAX_CONTRACT_ADDRESSES} contract addresses` })
        .max(MAX_CONTRACT_ADDRESSES, { error: `must list at most ${MAX_CONTRACT_ADDRESSES} contract addresses` })
        .optional()
        .describe(
          `Only token transfers of these contracts, at most ${MAX_CONTRACT_ADDRESSES.toLocaleString('en-US')} (external and internal transfers are not filtered by it).`,
        ),
      category: z
        .array(z.enum(ASSET_TRANSFER_CATEGORIES, { error: categoryPhrase }), { error: categoryPhrase })
        .min(1, { error: categoryPhrase })
        .max(ASSET_TRANSFER_CATEGORIES.length, { error: categoryPhrase })
        .describe(`Which transfers: ${ASSET_TRANSFER_CATEGORIES.join(', ')}.`),
      order: z.enum(['asc', 'desc'], { error: 'must be "asc" or "desc"' }).optional().describe('By block, oldest first ("asc", the default) or newest first.'),
      withMetadata: z.boolean({ error: 'must be true or false' }).optional().describe('Add metadata.blockTimestamp to each transfer. Default false.'),
      excludeZeroValue: z
        .boolean({ error: 'must be true or false' })
        .optional()
        .describe('Leave out transfers of zero ether or zero ERC-20 tokens (NFT transfers have no value). Default true.'),
      maxCount: MaxCount.optional().describe(
        `Transfers per page, as a hex quantity up to 0x${MAX_TRANSFERS_PER_PAGE.toString(16)}. Default 0x${MAX_TRANSFERS_PER_PAGE.toString(16)}.`,
      ),
      pageKey: z
        .string({ error: pageKeyPhrase })
        .refine((key) => decodeTransfersPageKey(key) !== null, { error: pageKeyPhrase })
        .optional()
        .describe('The pageKey of the previous answer, to read the next page.'),
    },
    {
      error: (issue) => (issue.code === 'unrecognized_keys' ? `has no field ${issue.keys.join(', ')}` : requestPhrase),
    },
  )
  .describe('What to list: categories, blocks, addresses, contracts; and the page.');

/** crucible_getAssetTransfers' request as the core uses it: addresses lower-cased, blocks still as tags or numbers. */
export interface AssetTransfersQuery {
  /** A block number, or a tag the core resolves against the index ("earliest" is 0). */
  fromBlock: number | 'latest';
  toBlock: number | 'latest';
  fromAddress: Address | null;
  toAddress: Address | null;
  contractAddresses: Address[] | null;
  categories: ReadonlySet<AssetTransferCategory>;
  order: 'asc' | 'desc';
  withMetadata: boolean;
  excludeZeroValue: boolean;
  maxCount: number;
  after: TransfersPageKey | null;
}

/** A block param as a number, or 'latest' for the tags that name the head ("latest", "pending", "safe", "finalized"). */
function blockOf(param: string | undefined, omitted: number | 'latest'): number | 'latest' {
  if (param === undefined) return omitted;
  const number = blockNumberOf(param);
  return number === null ? 'latest' : Number(number);
}

/** The rule the schema cannot say: fromBlock after toBlock (both numbers). */
export function assetTransfersRangeProblem(request: Pick<z.output<typeof AssetTransfersRequest>, 'fromBlock' | 'toBlock'>): string | null {
  const from = blockOf(request.fromBlock, 0);
  const to = blockOf(request.toBlock, 'latest');
  if (from === 'latest' || to === 'latest' || from <= to) return null;
  return `fromBlock (${from}) must not be after toBlock (${to})`;
}

/** Parses `(request)`. Throws TokenParamsError naming the param, as the gateway's -32602 does. */
export function parseAssetTransfersParams(params: readonly unknown[]): AssetTransfersQuery {
  if (params.length !== 1) throw new TokenParamsError('params', `of crucible_getAssetTransfers are exactly one object, got ${params.length}`);
  const parsed = AssetTransfersRequest.safeParse(params[0]);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('');
    throw new TokenParamsError(`[0] request${path}`, issue.message);
  }
  const request = parsed.data;
  const rangeProblem = assetTransfersRangeProblem(request);
  if (rangeProblem) throw new TokenParamsError('[0] request', rangeProblem);
  const maxCount =
    request.maxCount === undefined ? MAX_TRANSFERS_PER_PAGE : typeof request.maxCount === 'number' ? request.maxCount : Number.parseInt(request.maxCount, 16);
  return {
    fromBlock: blockOf(request.fromBlock, 0),
    toBlock: blockOf(request.toBlock, 'latest'),
    fromAddress: request.fromAddress ?? null,
    toAddress: request.toAddress ?? null,
    contractAddresses: request.contractAddresses ?? null,
    categories: new Set(request.category),
    order: request.order ?? 'asc',
    withMetadata: request.withMetadata ?? false,
    excludeZeroValue: request.excludeZeroValue ?? true,
    maxCount,
    after: request.pageKey === undefined ? null : decodeTransfersPageKey(request.pageKey),
  };
}
