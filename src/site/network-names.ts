import { ContentError, type ContentIssue } from './records.ts';
import type { NetworkAliasData } from './schema.ts';

// The names a network answers to (docs/hosts-and-paths.md#network-names): its Crucible id (its file
// in content/networks/) and the incumbent's names of the same chain, from the one table
// content/networks/aliases.yaml, in either spelling (`eth-sepolia`, `ETH_SEPOLIA`). Whoever reads a
// name from a request turns it into the id here, and answers with the name it was given.

/** Where the table lives, under the content folder. */
export const NETWORK_ALIASES_FILE = 'networks/aliases.yaml';

/** The network files under the content folder: every `networks/*.yaml` but the table. */
export const networkFilesGlob = ['networks/*.yaml', `!${NETWORK_ALIASES_FILE}`];

interface NetworkAlias {
  /** The SDK's value, e.g. `eth-sepolia`. */
  name: string;
  /** The SDK's KEY, e.g. `ETH_SEPOLIA`. */
  key: string;
}

/** The network id a name stands for (an id stands for itself), or null when it names no network. */
export type NetworkIdOf = (name: string) => string | null;

export interface NetworkNames {
  /** The Crucible ids, in the order given. */
  readonly ids: readonly string[];
  idOf: NetworkIdOf;
  /** The incumbent's names of a network, in the table's order. */
  aliasesOf(id: string): readonly NetworkAlias[];
}

/**
 * The names of `networks` with the table's aliases. A row names the network with its chain id, and
 * none while no network has it. Throws ContentError when a name would stand for two networks: two
 * rows with one KEY, a row named like another chain's network, a chain id two networks share.
 */
export function createNetworkNames(
  networks: ReadonlyArray<{ id: string; chainId: number | null }>,
  aliases: NetworkAliasData = {},
  file = `content/${NETWORK_ALIASES_FILE}`,
): NetworkNames {
  const ids = networks.map((network) => network.id);
  const known = new Set(ids);
  const byChain = new Map<number, string[]>();
  for (const network of networks) if (network.chainId !== null) byChain.set(network.chainId, [...(byChain.get(network.chainId) ?? []), network.id]);

  const issues: ContentIssue[] = [];
  const idByName = new Map<string, string>();
  const aliasesById = new Map<string, NetworkAlias[]>();
  const keys = new Map<string, string>();
  for (const [name, { key, chainId }] of Object.entries(aliases)) {
    const other = keys.get(key);
    if (other !== undefined) issues.push({ file, field: name, message: `its key ${key} is also ${other}'s` });
    keys.set(key, name);
    const holders = byChain.get(chainId) ?? [];
    if (holders.length > 1) {
      issues.push({ file, field: name, message: `chain ${chainId} is the chain of ${holders.join(' and ')}: the name cannot say which` });
      continue;
    }
    const id = holders[0];
    for (const spelling of [name, key]) {
      if (known.has(spelling) && spelling !== id)
        issues.push({ file, field: name, message: `${spelling} is the id of another network than chain ${chainId}'s` });
    }
    if (id === undefined) continue;
    idByName.set(name, id).set(key, id);
    aliasesById.set(id, [...(aliasesById.get(id) ?? []), { name, key }]);
  }
  if (issues.length) throw new ContentError(issues);

  return {
    ids,
    idOf: (name) => (known.has(name) ? name : (idByName.get(name) ?? null)),
    aliasesOf: (id) => aliasesById.get(id) ?? [],
  };
}
