import type { BlockList } from 'node:net';
import { headerText, outboundRequest } from '../net/outbound-request.ts';
import { OutboundError } from '../net/outbound-error.ts';
import type { NftFetchError, NftFetchFailure } from './fetch-error.ts';

// One GET of a metadata document or an image from a URL anyone may have written (docs/nft-data.md#fetch-safety),
// through the outbound layer (src/net/README.md): http(s) only; one deadline for the whole fetch,
// redirects and body included; the body cut off at the size cap; up to MAX_REDIRECTS redirects, each
// hop checked again as the first; and, with a block list, no connection to an address in it. The
// site's own origin may be exempt (NFT_FETCH_PRIVATE=site, local mode's default): it serves the local
// world's documents from this machine, and is exempt by its whole origin (scheme, host and port), so
// no other service here is reached through it.

/** Redirects followed before a fetch fails. */
export const MAX_REDIRECTS = 3;

export interface SafeFetchOptions {
  /** The whole fetch: every hop and the body. */
  timeoutMs: number;
  /** Body bytes at most. */
  maxBytes: number;
  /** Addresses never connected to: NON_PUBLIC_ADDRESSES unless NFT_FETCH_PRIVATE=allow; null: any. */
  blockedAddresses: BlockList | null;
  /** An origin fetched whatever its address: the site's own with NFT_FETCH_PRIVATE=site; absent or null: none. */
  siteOrigin?: string | null;
  /** The Accept header. */
  accept?: string;
}

export interface FetchedBody {
  ok: true;
  /** The URL the body came from, after redirects. */
  url: URL;
  /** The Content-Type header as sent; null when none. */
  contentType: string | null;
  bytes: Uint8Array;
}

/** How the fetcher names itself: the server's request log knows its fetches of the site's own documents by it. */
export const NFT_FETCHER_USER_AGENT = 'Crucible-NFT-Fetcher/1';

export async function safeFetch(url: URL, options: SafeFetchOptions): Promise<FetchedBody | NftFetchFailure> {
  try {
    const answer = await outboundRequest(url, {
      headers: { accept: options.accept ?? '*/*', 'user-agent': NFT_FETCHER_USER_AGENT },
      timeoutMs: options.timeoutMs,
      maxBytes: options.maxBytes,
      maxRedirects: MAX_REDIRECTS,
      addresses: { blocked: options.blockedAddresses, exemptOrigin: options.siteOrigin ?? null },
      takes: (status) => status >= 200 && status <= 299,
    });
    return { ok: true, url: answer.url, contentType: headerText(answer.headers['content-type']), bytes: answer.body };
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    return { ok: false, error: nftFetchError(error) };
  }
}

/** The layer's failure as an NFT answer shows it (`raw.error`). */
function nftFetchError(error: OutboundError): NftFetchError {
  switch (error.kind) {
    case 'unsupported_scheme':
      return { code: 'unsupported_uri', reason: error.message };
    case 'blocked_address':
    case 'timeout':
    case 'too_many_redirects':
    case 'unreachable':
      return { code: error.kind, reason: error.kind === 'timeout' ? 'timeout' : error.message };
    case 'too_large':
      return { code: 'too_large', reason: 'too large' };
    case 'bad_redirect':
    case 'status':
    case 'encoding':
      return { code: 'http_status', reason: error.message };
  }
}
