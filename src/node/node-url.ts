import { nftEndpointOf, type NftEndpointName } from '../nfts/api/endpoints.ts';
import { nodePathPrefix as pathPrefix } from '../site/urls.ts';

// Where a request to `{node_url}` is addressed (platform §1): both forms are served, always
// `<site origin>/node/<network>/…` and, with NODE_DOMAIN set, `https://<network>.<NODE_DOMAIN>/…`.

export type NodeTarget =
  /** `{node_url}/v2/<key>` (key '' when missing). */
  | { kind: 'rpc'; network: string; key: string }
  /** `{node_url}/openrpc.json`: the network's OpenRPC document. */
  | { kind: 'openrpc'; network: string }
  /** `{node_url}/v2/<key>/getNFTs` and the SDK's `{node_url}/nft/v3/<key>/<endpoint>` (platform §5). */
  | { kind: 'nft'; network: string; key: string; endpoint: NftEndpointName }
  /** `{node_url}/openapi.json`: the OpenAPI document of the network's NFT endpoints. */
  | { kind: 'openapi'; network: string }
  /** Under `{node_url}` but nothing is served there (404). */
  | { kind: 'unknown-path'; network: string };

/** The rule lives with the site's other URLs; the gateway's runtime shows it in OpenRPC documents. */
export { nodeUrlOf } from '../site/urls.ts';

/**
 * The node target of a request, or null when it is not addressed to `{node_url}` (the site's own
 * paths). `host` is the Host header; `path` is already percent-decoded.
 */
export function nodeTargetOf(host: string | undefined, path: string, nodeDomain: string | null): NodeTarget | null {
  if (nodeDomain && host) {
    const hostname = host.replace(/:\d+$/, '').toLowerCase();
    if (hostname.endsWith(`.${nodeDomain}`)) {
      const network = hostname.slice(0, -nodeDomain.length - 1);
      if (network && !network.includes('.')) return targetUnder(network, path);
    }
  }
  if (!path.startsWith(pathPrefix)) return null;
  const rest = path.slice(pathPrefix.length);
  const slash = rest.indexOf('/');
  const network = slash === -1 ? rest : rest.slice(0, slash);
  if (!network) return null;
  return targetUnder(network, slash === -1 ? '/' : rest.slice(slash));
}

function targetUnder(network: string, path: string): NodeTarget {
  if (path === '/openrpc.json') return { kind: 'openrpc', network };
  if (path === '/openapi.json') return { kind: 'openapi', network };
  const rpc = /^\/v2(?:\/([^/]*))?\/?$/.exec(path);
  if (rpc) return { kind: 'rpc', network, key: rpc[1] ?? '' };
  const nft = /^\/(v2|nft\/v3)\/([^/]*)\/([^/]+)$/.exec(path);
  const endpoint = nft ? nftEndpointOf(nft[1] === 'v2' ? 'v2' : 'v3', nft[3]!) : null;
  if (nft && endpoint) return { kind: 'nft', network, key: nft[2]!, endpoint };
  return { kind: 'unknown-path', network };
}
