// Why a token's metadata or media could not be had (docs/nft-data.md#metadata-fetching): `reason` is the short text an
// answer shows as `raw.error`; `code` lets the caller tell a lasting failure from a passing one.

export type NftFetchErrorCode =
  /** The URI is empty, not a URI, or a malformed ipfs://, ar:// or data: URI. */
  | 'bad_uri'
  /** A scheme other than http(s), ipfs, ar or data (a redirect to one too). */
  | 'unsupported_uri'
  /** Its host is, or resolves only to, an address not fetched from (loopback, private, link-local, ...). */
  | 'blocked_address'
  | 'timeout'
  | 'too_large'
  | 'too_many_redirects'
  /** A status other than 2xx (a redirect without a usable Location too), or a body in an encoding not asked for. */
  | 'http_status'
  /** No answer: the host is unknown, the connection was refused or broke, TLS failed. */
  | 'unreachable'
  /** The document is not a JSON object. */
  | 'not_json';

export interface NftFetchError {
  code: NftFetchErrorCode;
  reason: string;
}

/** A failed step's result. */
export interface NftFetchFailure {
  ok: false;
  error: NftFetchError;
}

export function nftFetchFailure(code: NftFetchErrorCode, reason: string): NftFetchFailure {
  return { ok: false, error: { code, reason } };
}
