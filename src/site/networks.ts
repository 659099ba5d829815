import type { RpcCategory } from '../node/rpc/method.ts';
import { rpcMethodReference } from '../node/rpc/reference.ts';
import type { NetworkRecord } from './records.ts';
import { nodeUrlOf, type NodeUrlOptions, webSocketUrlOf } from './urls.ts';

// Facts about a network as pages show them (RPC pages in HTML and in their `.md` twins, faucet
// pages), and the methods every network serves, from the one method registry (docs/json-rpc.md#method-registry).

/** The node endpoint of a network (docs/json-rpc.md#endpoint: `{node_url}/v2/<API_KEY>`), from the configured host (docs/hosts-and-paths.md#node-url). */
function nodeEndpoint(network: NetworkRecord, node: NodeUrlOptions): string {
  return `${nodeUrlOf(network.id, node)}/v2/<API_KEY>`;
}

function chainIdLabel(network: NetworkRecord): string {
  return network.chainId === null ? (network.chainRef ?? '') : String(network.chainId);
}

function mainnetLabel(network: NetworkRecord): string | null {
  if (!network.mainnet) return null;
  const id = network.mainnet.chainId ?? network.mainnet.chainRef;
  return id === undefined ? network.mainnet.name : `${network.mainnet.name} (${id})`;
}

export type FactKey = 'chainId' | 'nativeCurrency' | 'explorer' | 'endpoint' | 'webSocket' | 'mainnet' | 'faucet';

/** Rows of the facts table, in order; `href` where the value is a link. */
export function networkFacts(network: NetworkRecord, faucetHref: string, node: NodeUrlOptions): Array<{ key: FactKey; value: string | null; href?: string }> {
  return [
    { key: 'chainId', value: chainIdLabel(network) },
    { key: 'nativeCurrency', value: `${network.nativeCurrency.symbol} (${network.nativeCurrency.decimals} decimals)` },
    { key: 'explorer', value: network.explorer, href: network.explorer ?? undefined },
    { key: 'endpoint', value: nodeEndpoint(network, node) },
    { key: 'webSocket', value: webSocketUrlOf(nodeEndpoint(network, node)) },
    { key: 'mainnet', value: mainnetLabel(network) },
    // Deprecated networks keep their faucet page (status of old hashes) but are marked, not linked.
    network.deprecated ? { key: 'faucet', value: null } : { key: 'faucet', value: faucetHref, href: faucetHref },
  ];
}

/**
 * The id of a method's heading on the reference page: what the Markdown renderer makes of
 * `### <name>` (lowercased; characters other than letters, digits, `_` and `-` dropped).
 */
export function rpcMethodAnchor(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9_-]/g, '');
}

export interface RpcMethodListing {
  category: RpcCategory;
  methods: Array<{ name: string; computeUnits: number; anchor: string }>;
}

/** The methods every network serves, by category, as RPC pages list them. */
export function rpcMethodListing(): RpcMethodListing[] {
  return rpcMethodReference().categories.map(({ name, methods }) => ({
    category: name,
    methods: methods.map((method) => ({ name: method.name, computeUnits: method.computeUnits, anchor: rpcMethodAnchor(method.name) })),
  }));
}
