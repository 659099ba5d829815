import type { NetworkRecord } from './records.ts';

// Facts about a network as pages show them (RPC pages in HTML and in their `.md` twins).

/** The node endpoint pattern of a network (spec 4.9: `{node_url}/v2/<API_KEY>`). */
function nodeEndpoint(network: NetworkRecord): string {
  return `https://${network.id}.node.crucible.dev/v2/<API_KEY>`;
}

function chainIdLabel(network: NetworkRecord): string {
  return network.chainId === null ? (network.chainRef ?? '') : String(network.chainId);
}

function mainnetLabel(network: NetworkRecord): string | null {
  if (!network.mainnet) return null;
  const id = network.mainnet.chainId ?? network.mainnet.chainRef;
  return id === undefined ? network.mainnet.name : `${network.mainnet.name} (${id})`;
}

export type FactKey = 'chainId' | 'nativeCurrency' | 'explorer' | 'endpoint' | 'mainnet' | 'faucet';

/** Rows of the facts table, in order; `href` where the value is a link. */
export function networkFacts(network: NetworkRecord, faucetHref: string): Array<{ key: FactKey; value: string | null; href?: string }> {
  return [
    { key: 'chainId', value: chainIdLabel(network) },
    { key: 'nativeCurrency', value: `${network.nativeCurrency.symbol} (${network.nativeCurrency.decimals} decimals)` },
    { key: 'explorer', value: network.explorer, href: network.explorer ?? undefined },
    { key: 'endpoint', value: nodeEndpoint(network) },
    { key: 'mainnet', value: mainnetLabel(network) },
    // Deprecated networks keep their faucet page (status of old hashes) but are marked, not linked.
    network.deprecated ? { key: 'faucet', value: null } : { key: 'faucet', value: faucetHref, href: faucetHref },
  ];
}
