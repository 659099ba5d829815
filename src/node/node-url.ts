import type { NetworkIdOf } from '../site/network-names.ts';
import { nodePathPrefix as pathPrefix } from '../site/urls.ts';

// Where a request to `{node_url}` is addressed (docs/hosts-and-paths.md): both forms are served,
// always `<site origin>/node/<network>/…` and, with NODE_DOMAIN set, `https://<network>.<NODE_DOMAIN>/…`.
// The JSON-RPC gateway (./gateway.ts) answers its own two paths; every other path under `{node_url}`
// is the keyed REST door's (src/rest/door.ts: the NFT endpoints and the network's openapi.json, or 404).

export type NodeTarget =
  /** `{node_url}/v2/<key>` (key '' when missing). */
  | { kind: 'rpc'; network: string; key: string }
  /** `{node_url}/openrpc.json`: the network's OpenRPC document. */
  | { kind: 'openrpc'; network: string }
  /** Under `{node_url}`, not the gateway's: the REST door answers it. */
  | { kind: 'unknown-path'; network: string };

/** The rule lives with the site's other URLs; the gateway's runtime shows it in OpenRPC documents. */
export { nodeUrlOf } from '../site/urls.ts';

/** A path under one network's `{node_url}`: the network's id and the path below its URL. */
export interface NodeAddress {
  network: string;
  path: string;
}

/**
 * The node target of a request, or null when it is not addressed to `{node_url}` (the site's own
 * paths). `host` is the Host header; `path` is already percent-decoded.
 */
export function nodeTargetOf(host: string | undefined, path: string, nodeDomain: string | null, idOf?: NetworkIdOf): NodeTarget | null {
  const address = nodeAddressOf(host, path, nodeDomain, idOf);
  return address && nodeTargetAt(address);
}

/**
 * Which network's `{node_url}` a request is addressed to, and the path under it; null: the site's
 * own paths. With `idOf`, a name that stands for a network (`eth-sepolia`) is given as its id.
 */
export function nodeAddressOf(host: string | undefined, path: string, nodeDomain: string | null, idOf?: NetworkIdOf): NodeAddress | null {
  const named = (network: string, below: string): NodeAddress => ({ network: idOf?.(network) ?? network, path: below });
  if (nodeDomain && host) {
    const hostname = host.replace(/:\d+$/, '').toLowerCase();
    if (hostname.endsWith(`.${nodeDomain}`)) {
      const network = hostname.slice(0, -nodeDomain.length - 1);
      if (network && !network.includes('.')) return named(network, path);
    }
  }
  if (!path.startsWith(pathPrefix)) return null;
  const rest = path.slice(pathPrefix.length);
  const slash = rest.indexOf('/');
  const network = slash === -1 ? rest : rest.slice(0, slash);
  if (!network) return null;
  return named(network, slash === -1 ? '/' : rest.slice(slash));
}

/** The gateway's paths: JSON-RPC at `/v2/<key>` and the OpenRPC document; anything else is the REST door's. */
export function nodeTargetAt({ network, path }: NodeAddress): NodeTarget {
  if (path === '/openrpc.json') return { kind: 'openrpc', network };
  const rpc = /^\/v2(?:\/([^/]*))?\/?$/.exec(path);
  if (rpc) return { kind: 'rpc', network, key: rpc[1] ?? '' };
  return { kind: 'unknown-path', network };
}
