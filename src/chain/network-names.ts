// The names a request may give a network (docs/hosts-and-paths.md#network-names): Crucible's id
// (`ethereum-sepolia`), or the incumbent SDK's `Network` member for the same chain, by key
// (`ETH_SEPOLIA`, as its webhook API sends it) or by value (`eth-sepolia`); one table, the
// `sdkNetwork` of each content/networks/ file.

export interface NamedNetwork {
  id: string;
  /** Absent or null where the SDK has no member for the chain. */
  sdkNetwork?: { key: string; value: string } | null;
}

export interface NetworkNames {
  /** The network id a name stands for, or null for a name no network has. */
  idOf(name: string): string | null;
  /** The SDK's key of a network id (`ETH_SEPOLIA`), or the id itself where the SDK has no member. */
  sdkKeyOf(id: string): string;
  /** Every name accepted, ids first: for messages and documents. */
  readonly accepted: readonly string[];
}

export function networkNames(networks: readonly NamedNetwork[]): NetworkNames {
  const byName = new Map<string, string>();
  const keys = new Map<string, string>();
  for (const network of networks) byName.set(network.id, network.id);
  for (const network of networks) {
    if (!network.sdkNetwork) continue;
    keys.set(network.id, network.sdkNetwork.key);
    // An id never loses to an alias that happens to spell it.
    for (const alias of [network.sdkNetwork.key, network.sdkNetwork.value]) if (!byName.has(alias)) byName.set(alias, network.id);
  }
  return {
    idOf: (name) => byName.get(name) ?? null,
    sdkKeyOf: (id) => keys.get(id) ?? id,
    accepted: [...byName.keys()],
  };
}
