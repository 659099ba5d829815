import { nftFetchFailure, type NftFetchFailure } from './fetch-error.ts';
import { safeFetch, type SafeFetchOptions } from './safe-fetch.ts';
import { resolveTokenUri, type UriGateways } from './token-uri.ts';

// The bytes behind a token URI or an image URI: a data: URI decoded, anything else resolved
// (token-uri.ts) and fetched safely (safe-fetch.ts). The same size cap holds for both.

export interface LoadUriOptions extends SafeFetchOptions {
  gateways: UriGateways;
}

export interface LoadedUri {
  ok: true;
  /**
   * What relative references in the content resolve against: for http(s) the URL the content came
   * from after redirects, as a browser would; otherwise the URI itself (ipfs://, ar://, data:), so
   * that an ipfs:// document's image is an ipfs:// URI fetched through the gateway too.
   */
  baseUri: string;
  /** As declared: the Content-Type header or the data: URI's media type; null when none. */
  contentType: string | null;
  bytes: Uint8Array;
}

export async function loadUri(uri: string, options: LoadUriOptions): Promise<LoadedUri | NftFetchFailure> {
  const resolved = resolveTokenUri(uri, options.gateways);
  switch (resolved.kind) {
    case 'unusable':
      return { ok: false, error: resolved.error };
    case 'inline':
      if (resolved.bytes.length > options.maxBytes) return nftFetchFailure('too_large', 'too large');
      return { ok: true, baseUri: uri.trim(), contentType: resolved.contentType, bytes: resolved.bytes };
    case 'remote': {
      const fetched = await safeFetch(resolved.url, options);
      if (!fetched.ok) return fetched;
      return { ok: true, baseUri: resolved.via === 'http' ? fetched.url.href : uri.trim(), contentType: fetched.contentType, bytes: fetched.bytes };
    }
  }
}
