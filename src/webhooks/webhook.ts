import { isIP } from 'node:net';
import { isBlockedAddress, NON_PUBLIC_ADDRESSES } from '../net/blocked-addresses.ts';
import { WebhookInputError } from './errors.ts';
import { ADDRESS_PATTERN, MAX_FILTER_ENTRIES, MAX_URL_LENGTH, NFT_WEBHOOK_TYPES, TOKEN_ID_PATTERN, type WebhookType } from './schemas.ts';

// A webhook as its owner sees it (docs/webhooks.md#webhook-object), and the rules its input obeys. Addresses are kept
// lowercase, token ids decimal. NFT filters select by contract (every token of it), by token id
// (of any contract), and by exact token; a transfer passes when any of them selects it, and
// filters that are all empty pass everything (docs/webhooks.md#filters).

type WebhookState = 'active' | 'paused';

export interface NftToken {
  /** Lowercase. */
  contractAddress: string;
  /** Decimal. */
  tokenId: string;
}

export interface WebhookFilters {
  /** Lowercase. With tokenIds empty, every token of these contracts; with tokenIds, those ids of these contracts. */
  contractAddresses: string[];
  /** Decimal (NFT_ACTIVITY only). With contractAddresses empty, these ids of any contract. */
  tokenIds: string[];
  /** Exact tokens, each matched besides what the two lists select. */
  tokens: NftToken[];
}

export interface Webhook {
  id: string;
  type: WebhookType;
  network: string;
  url: string;
  filters: WebhookFilters;
  /** ADDRESS_ACTIVITY: how many addresses it listens to (they are read a page at a time); 0 for other types. */
  addressCount: number;
  /** MINED_TRANSACTION and DROPPED_TRANSACTION: the app whose broadcasts it hears; null otherwise. */
  appId: string | null;
  name: string | null;
  /** The key of its deliveries' signatures (signature.ts: signatureHeaders); shown to its owner whenever asked. */
  signingKey: string;
  state: WebhookState;
  /** Why it is paused (`paused by its owner`, `repeated delivery failures: …`); null while active. */
  pausedReason: string | null;
  /** Deliveries that finally failed since the last that succeeded. */
  consecutiveFailures: number;
  createdAt: number;
  updatedAt: number;
}

const UINT256_MAX = 2n ** 256n - 1n;

export interface UrlRules {
  /** Local mode: http allowed, and loopback, private and link-local hosts. */
  local: boolean;
}

/**
 * The URL as stored, or why it is refused: https (http in local mode), no credentials, and outside
 * local mode no host that is a non-public IP address or a `localhost` name. Names are checked again
 * where it counts, on the address each delivery connects to (src/webhooks/post.ts).
 */
export function parseWebhookUrl(value: string, rules: UrlRules): string {
  if (value.length > MAX_URL_LENGTH) throw new WebhookInputError('url', `must be at most ${MAX_URL_LENGTH} characters`);
  const url = URL.parse(value);
  if (!url) throw new WebhookInputError('url', 'must be an absolute URL');
  const schemes = rules.local ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) throw new WebhookInputError('url', rules.local ? 'must be an http or https URL' : 'must be an https URL');
  if (url.username || url.password) throw new WebhookInputError('url', 'must not carry a user name or password');
  if (url.hash) throw new WebhookInputError('url', 'must not have a #fragment');
  if (!rules.local) {
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
    if ((isIP(host) && isBlockedAddress(host, NON_PUBLIC_ADDRESSES)) || host === 'localhost' || host.endsWith('.localhost')) {
      throw new WebhookInputError('url', `must reach a public address (${host} is loopback, private, link-local or otherwise not public)`);
    }
  }
  return url.href;
}

interface FiltersInput {
  contractAddresses?: readonly string[];
  tokenIds?: readonly string[];
  tokens?: ReadonlyArray<{ contractAddress: string; tokenId: string }>;
}

/**
 * The filters as stored: addresses lowercase and unique, token ids decimal and unique; token ids
 * only for NFT_ACTIVITY; filters only for the NFT types.
 */
export function parseFilters(type: WebhookType, input: FiltersInput | undefined): WebhookFilters {
  const contracts = input?.contractAddresses ?? [];
  const ids = input?.tokenIds ?? [];
  const tokens = input?.tokens ?? [];
  if (!(NFT_WEBHOOK_TYPES as readonly string[]).includes(type) && contracts.length + ids.length + tokens.length > 0)
    throw new WebhookInputError('filters', `apply to NFT_ACTIVITY and NFT_METADATA_UPDATE webhooks only, not ${type}`);
  if (contracts.length > MAX_FILTER_ENTRIES) throw new WebhookInputError('filters.contractAddresses', `must list at most ${MAX_FILTER_ENTRIES} addresses`);
  if (ids.length > MAX_FILTER_ENTRIES) throw new WebhookInputError('filters.tokenIds', `must list at most ${MAX_FILTER_ENTRIES} token ids`);
  if (tokens.length > MAX_FILTER_ENTRIES) throw new WebhookInputError('filters.tokens', `must list at most ${MAX_FILTER_ENTRIES} tokens`);
  if (type !== 'NFT_ACTIVITY' && ids.length > 0) throw new WebhookInputError('filters.tokenIds', `apply to NFT_ACTIVITY webhooks only, not ${type}`);
  const exact = new Map<string, NftToken>();
  for (const token of tokens) {
    const parsed = { contractAddress: lowercaseAddress(token.contractAddress, 'filters.tokens'), tokenId: decimalTokenId(token.tokenId, 'filters.tokens') };
    exact.set(tokenKey(parsed.contractAddress, parsed.tokenId), parsed);
  }
  return {
    contractAddresses: [...new Set(contracts.map((address) => lowercaseAddress(address, 'filters.contractAddresses')))],
    tokenIds: [...new Set(ids.map((id) => decimalTokenId(id, 'filters.tokenIds')))],
    tokens: [...exact.values()],
  };
}

/** An address as stored (lowercase), or why it is refused, naming `field`. */
export function lowercaseAddress(address: string, field: string): string {
  if (!ADDRESS_PATTERN.test(address)) throw new WebhookInputError(field, `must be 0x addresses of 40 hex digits (got ${JSON.stringify(address)})`);
  return address.toLowerCase();
}

/** A token id given in decimal or 0x hex, as decimal. */
export function decimalTokenId(value: string, field: string): string {
  const trimmed = value.trim();
  if (!TOKEN_ID_PATTERN.test(trimmed)) {
    throw new WebhookInputError(field, `must be decimal or 0x hex token ids (got ${JSON.stringify(value)})`);
  }
  const id = BigInt(trimmed);
  if (id > UINT256_MAX) throw new WebhookInputError(field, `must fit in 256 bits (got ${JSON.stringify(value)})`);
  return id.toString();
}

const tokenKey = (contract: string, tokenId: string) => `${contract}:${tokenId}`;

/** A webhook's filters, ready to test many transfers against. */
export type FilterMatcher = (contract: string, tokenId: string | null) => boolean;

/** Whether a token passes a webhook's filters: any of the contract list, the id list and the exact tokens selects it; all empty pass everything. */
export function filterMatcher(filters: WebhookFilters): FilterMatcher {
  const contracts = new Set(filters.contractAddresses);
  const ids = new Set(filters.tokenIds);
  const tokens = new Set(filters.tokens.map((token) => tokenKey(token.contractAddress, token.tokenId)));
  if (contracts.size + ids.size + tokens.size === 0) return () => true;
  return (contract, tokenId) => {
    const lower = contract.toLowerCase();
    if (tokenId !== null && tokens.has(tokenKey(lower, tokenId))) return true;
    if (contracts.size === 0 && ids.size === 0) return false;
    if (contracts.size > 0 && !contracts.has(lower)) return false;
    return ids.size === 0 || (tokenId !== null && ids.has(tokenId));
  };
}
