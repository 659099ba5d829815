import { isIP } from 'node:net';
import { isBlockedAddress, NON_PUBLIC_ADDRESSES } from '../net/blocked-addresses.ts';
import { WebhookInputError } from './errors.ts';
import { ADDRESS_PATTERN, MAX_FILTER_ENTRIES, MAX_URL_LENGTH, TOKEN_ID_PATTERN, type WebhookType } from './schemas.ts';

// A webhook as its owner sees it (docs/webhooks.md#webhook-object), and the rules its input obeys. Addresses are kept
// lowercase, token ids decimal; an empty filter list matches everything.

type WebhookState = 'active' | 'paused';

export interface WebhookFilters {
  /** Lowercase; empty: every contract. */
  contractAddresses: string[];
  /** Decimal; empty: every token (NFT_ACTIVITY only). */
  tokenIds: string[];
}

export interface Webhook {
  id: string;
  type: WebhookType;
  network: string;
  url: string;
  filters: WebhookFilters;
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

/** The filters as stored: addresses lowercase and unique, token ids decimal and unique; token ids only for NFT_ACTIVITY. */
export function parseFilters(type: WebhookType, input: { contractAddresses?: readonly string[]; tokenIds?: readonly string[] } | undefined): WebhookFilters {
  const contracts = input?.contractAddresses ?? [];
  const tokens = input?.tokenIds ?? [];
  if (contracts.length > MAX_FILTER_ENTRIES) throw new WebhookInputError('filters.contractAddresses', `must list at most ${MAX_FILTER_ENTRIES} addresses`);
  if (tokens.length > MAX_FILTER_ENTRIES) throw new WebhookInputError('filters.tokenIds', `must list at most ${MAX_FILTER_ENTRIES} token ids`);
  if (type !== 'NFT_ACTIVITY' && tokens.length > 0) throw new WebhookInputError('filters.tokenIds', `apply to NFT_ACTIVITY webhooks only, not ${type}`);
  for (const address of contracts) {
    if (!ADDRESS_PATTERN.test(address))
      throw new WebhookInputError('filters.contractAddresses', `must be 0x addresses of 40 hex digits (got ${JSON.stringify(address)})`);
  }
  return {
    contractAddresses: [...new Set(contracts.map((address) => address.toLowerCase()))],
    tokenIds: [...new Set(tokens.map(decimalTokenId))],
  };
}

/** A token id given in decimal or 0x hex, as decimal. */
function decimalTokenId(value: string): string {
  const trimmed = value.trim();
  if (!TOKEN_ID_PATTERN.test(trimmed)) {
    throw new WebhookInputError('filters.tokenIds', `must be decimal or 0x hex token ids (got ${JSON.stringify(value)})`);
  }
  const id = BigInt(trimmed);
  if (id > UINT256_MAX) throw new WebhookInputError('filters.tokenIds', `must fit in 256 bits (got ${JSON.stringify(value)})`);
  return id.toString();
}

/** Whether a token passes a webhook's filters. */
export function matchesFilters(filters: WebhookFilters, contract: string, tokenId: string | null): boolean {
  if (filters.contractAddresses.length > 0 && !filters.contractAddresses.includes(contract.toLowerCase())) return false;
  if (filters.tokenIds.length > 0 && (tokenId === null || !filters.tokenIds.includes(tokenId))) return false;
  return true;
}
