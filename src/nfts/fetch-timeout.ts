// `tokenUriTimeoutInMs` (docs/nft-data.md#metadata-fetching): how long one metadata or media fetch of a request may take.

export interface TokenUriTimeoutLimits {
  /** When the request does not say (NFT_TOKEN_URI_TIMEOUT_MS). */
  defaultMs: number;
  /** The most a request may ask for (NFT_TOKEN_URI_TIMEOUT_MAX_MS). */
  maxMs: number;
}

/** The timeout asked for, within the maximum; the default when none is asked; null for 0: no fetch, answer from the cache alone (as the incumbent's 0 means). */
export function tokenUriTimeoutMs(limits: TokenUriTimeoutLimits, askedMs?: number): number | null {
  if (askedMs === undefined) return limits.defaultMs;
  if (askedMs <= 0) return null;
  return Math.min(askedMs, limits.maxMs);
}
