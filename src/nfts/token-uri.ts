import { decodeDataUri } from './data-uri.ts';
import type { NftFetchError } from './fetch-error.ts';

// Where a token URI's content is (docs/nft-data.md#metadata-fetching): http(s) URLs as they are, ipfs:// and ar:// through
// the configured gateways, data: URIs decoded in place. ERC-1155 `{id}` is substituted before
// (src/chain/erc1155-uri.ts). Relative references inside a document resolve against the URI itself, so an
// ipfs:// document's image goes through the gateway too.

/** Base URLs ending in `/`: the content id is appended (NFT_IPFS_GATEWAY, NFT_ARWEAVE_GATEWAY). */
export interface UriGateways {
  ipfs: string;
  arweave: string;
}

export type ResolvedTokenUri =
  /** Fetch `url`; `via` says whether a gateway stands in for an ipfs:// or ar:// URI. */
  | { kind: 'remote'; url: URL; via: 'http' | 'ipfs' | 'arweave' }
  | { kind: 'inline'; contentType: string; bytes: Uint8Array }
  | { kind: 'unusable'; error: NftFetchError };

const unusable = (code: NftFetchError['code'], reason: string): ResolvedTokenUri => ({ kind: 'unusable', error: { code, reason } });

export function resolveTokenUri(uri: string, gateways: UriGateways): ResolvedTokenUri {
  const text = uri.trim();
  if (text === '') return unusable('bad_uri', 'empty URI');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1]?.toLowerCase();
  switch (scheme) {
    case undefined:
      return unusable('bad_uri', 'not a URI');
    case 'data': {
      const decoded = decodeDataUri(text);
      return decoded.ok ? { kind: 'inline', contentType: decoded.contentType, bytes: decoded.bytes } : { kind: 'unusable', error: decoded.error };
    }
    case 'http':
    case 'https':
      return URL.canParse(text) ? { kind: 'remote', url: new URL(text), via: 'http' } : unusable('bad_uri', 'not a URL');
    case 'ipfs':
      // ipfs://<cid>/<path>, and the common misspelling ipfs://ipfs/<cid>/<path>.
      return throughGateway(text.slice('ipfs:'.length).replace(/^\/\/(ipfs\/)?/i, '//'), gateways.ipfs, /^[A-Za-z0-9]+$/, 'ipfs');
    case 'ar':
      return throughGateway(text.slice('ar:'.length), gateways.arweave, /^[A-Za-z0-9_-]+$/, 'arweave');
    default:
      return unusable('unsupported_uri', `unsupported URI scheme ${scheme}:`);
  }
}

/** `//<id>/<path>` below the gateway's base URL; the id must be one, and the path may not climb out of it. */
function throughGateway(rest: string, gateway: string, id: RegExp, via: 'ipfs' | 'arweave'): ResolvedTokenUri {
  const scheme = via === 'ipfs' ? 'ipfs' : 'ar';
  const match = /^\/\/([^/?#]+)(.*)$/s.exec(rest);
  if (!match || !id.test(match[1]!)) return unusable('bad_uri', `${scheme}:// URI without a content id`);
  const base = new URL(`${match[1]}/`, gateway);
  if (!URL.canParse(`${match[1]}${match[2]}`, gateway)) return unusable('bad_uri', `bad ${scheme}:// URI`);
  const url = new URL(`${match[1]}${match[2]}`, gateway);
  const inside = url.origin === base.origin && (url.pathname === base.pathname.slice(0, -1) || url.pathname.startsWith(base.pathname));
  return inside ? { kind: 'remote', url, via } : unusable('bad_uri', `bad ${scheme}:// URI`);
}
