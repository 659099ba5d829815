import { WebhookInputError } from './errors.ts';
import { MAX_FILTER_ENTRIES } from './schemas.ts';
import { decimalTokenId, lowercaseAddress, type NftToken, type WebhookFilters } from './webhook.ts';

// A webhook's NFT filters as the incumbent SDK lists and edits them (docs/webhooks.md#filters): a
// list of entries, each a contract with or without one token id. An entry without a token id is a
// contract of `contractAddresses`; one with, an exact token of `tokens`; `contractAddresses` with
// `tokenIds` lists every pair of the two. Token ids of any contract (`tokenIds` alone) have no such
// entry: they list with a null contract and cannot be edited here.

export interface FilterEntry {
  /** Lowercase; null for a token id of any contract. */
  contractAddress: string | null;
  /** Decimal; null for every token of the contract. */
  tokenId: string | null;
}

/** The entries of a webhook's filters, without building them all: `at(i)` for i below `count`. */
export function filterEntries(filters: WebhookFilters): { count: number; at(index: number): FilterEntry } {
  const { contractAddresses: contracts, tokenIds: ids, tokens } = filters;
  const listed: { count: number; at(index: number): FilterEntry } =
    ids.length === 0
      ? { count: contracts.length, at: (i) => ({ contractAddress: contracts[i]!, tokenId: null }) }
      : contracts.length === 0
        ? { count: ids.length, at: (i) => ({ contractAddress: null, tokenId: ids[i]! }) }
        : { count: contracts.length * ids.length, at: (i) => ({ contractAddress: contracts[Math.floor(i / ids.length)]!, tokenId: ids[i % ids.length]! }) };
  return {
    count: listed.count + tokens.length,
    at: (i) => (i < listed.count ? listed.at(i) : tokens[i - listed.count]!),
  };
}

/** The filters after adding and removing entries (removed after added); every token id is decimal or 0x hex. */
export function changeFilterEntries(
  filters: WebhookFilters,
  change: { add: ReadonlyArray<{ contractAddress: string; tokenId?: string }>; remove: ReadonlyArray<{ contractAddress: string; tokenId?: string }> },
  field: string,
): WebhookFilters {
  const parse = (entry: { contractAddress: string; tokenId?: string }) => ({
    contractAddress: lowercaseAddress(entry.contractAddress, field),
    tokenId: entry.tokenId === undefined ? null : decimalTokenId(entry.tokenId, field),
  });
  const add = change.add.map(parse);
  const remove = change.remove.map(parse);
  const { contracts, tokens } = asEntries(filters, field);
  for (const entry of add) {
    if (entry.tokenId === null) contracts.add(entry.contractAddress);
    else tokens.set(`${entry.contractAddress}:${entry.tokenId}`, { contractAddress: entry.contractAddress, tokenId: entry.tokenId });
  }
  for (const entry of remove) {
    if (entry.tokenId === null) contracts.delete(entry.contractAddress);
    else tokens.delete(`${entry.contractAddress}:${entry.tokenId}`);
  }
  if (contracts.size > MAX_FILTER_ENTRIES)
    throw new WebhookInputError(field, `would then name ${contracts.size} whole contracts, more than ${MAX_FILTER_ENTRIES}`);
  if (tokens.size > MAX_FILTER_ENTRIES) throw new WebhookInputError(field, `would then name ${tokens.size} tokens, more than ${MAX_FILTER_ENTRIES}`);
  return { contractAddresses: [...contracts], tokenIds: [], tokens: [...tokens.values()] };
}

/** The filters as whole contracts and exact tokens: the pairs of contracts and ids become tokens. */
function asEntries(filters: WebhookFilters, field: string): { contracts: Set<string>; tokens: Map<string, NftToken> } {
  const tokens = new Map(filters.tokens.map((token) => [`${token.contractAddress}:${token.tokenId}`, token]));
  if (filters.tokenIds.length === 0) return { contracts: new Set(filters.contractAddresses), tokens };
  if (filters.contractAddresses.length === 0)
    throw new WebhookInputError(
      field,
      'cannot change this webhook’s filters: it selects token ids of every contract, which entries cannot express (change it at /api/webhooks)',
    );
  for (const contractAddress of filters.contractAddresses) {
    for (const tokenId of filters.tokenIds) tokens.set(`${contractAddress}:${tokenId}`, { contractAddress, tokenId });
  }
  return { contracts: new Set(), tokens };
}
