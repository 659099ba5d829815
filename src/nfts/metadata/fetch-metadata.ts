import type { NftFetchError } from '../fetch-error.ts';
import { substituteTokenId } from '../../chain/erc1155-uri.ts';
import { loadUri, type LoadUriOptions } from '../load-uri.ts';
import { parseMetadataDocument } from '../metadata-document.ts';
import type { NftRef } from '../nft-sources.ts';
import { resolveTokenUri } from '../token-uri.ts';
import type { TokenUriRead } from './token-uri-calls.ts';

// A token's metadata from what its contract's tokenURI/uri returned (docs/nft-data.md#metadata-fetching): ERC-1155 `{id}`
// substituted, the document loaded (data: decoded, anything else fetched safely) and parsed. Every
// failure is a value whose reason is `raw.error`.

/** What one fetch found; the record adds the image and the time. */
export interface FetchedMetadata {
  tokenUri: string | null;
  rawTokenUri: string | null;
  metadata: Record<string, unknown> | null;
  error: string | null;
  /** The fetch layer's code, or `contract` when the contract gave no URI; null without an error. */
  errorCode: string | null;
  name: string | null;
  description: string | null;
  /** The image URI as the document gives it (resolved when relative); null when none. */
  imageUrl: string | null;
}

const failed = (rawTokenUri: string | null, tokenUri: string | null, error: Pick<NftFetchError, 'reason'> & { code: string }): FetchedMetadata => ({
  tokenUri,
  rawTokenUri,
  metadata: null,
  error: error.reason,
  errorCode: error.code,
  name: null,
  description: null,
  imageUrl: null,
});

export async function fetchMetadata(token: NftRef, read: TokenUriRead, load: LoadUriOptions): Promise<FetchedMetadata> {
  if (!read.ok) return failed(null, null, { code: 'contract', reason: read.reason });
  const uri = token.kind === 'erc1155' ? substituteTokenId(read.uri, BigInt(token.tokenId)) : read.uri;
  const tokenUri = clientUri(uri, load);
  const loaded = await loadUri(uri, { ...load, accept: 'application/json,*/*;q=0.8' });
  if (!loaded.ok) return failed(read.uri, tokenUri, loaded.error);
  const document = parseMetadataDocument(loaded.bytes, loaded.baseUri);
  if (!document.ok) return failed(read.uri, tokenUri, document.error);
  return {
    tokenUri,
    rawTokenUri: read.uri,
    metadata: document.raw,
    error: null,
    errorCode: null,
    name: document.name,
    description: document.description,
    imageUrl: document.image,
  };
}

/** docs/nft-data.md#nft-object `tokenUri`: what a client can fetch (ipfs:// and ar:// through the gateways); data: and unusable URIs as given; null when empty. */
function clientUri(uri: string, load: LoadUriOptions): string | null {
  if (uri.trim() === '') return null;
  const resolved = resolveTokenUri(uri, load.gateways);
  return resolved.kind === 'remote' ? resolved.url.href : uri;
}

/** A failure a later try may not meet: the origin did not answer in time, could not be reached, or was overloaded. */
export function isPassingFailure(errorCode: string | null, error: string | null): boolean {
  if (errorCode === 'timeout' || errorCode === 'unreachable') return true;
  return errorCode === 'http_status' && /^HTTP (5\d\d|429)$/.test(error ?? '');
}
