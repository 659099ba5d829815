import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Alchemy, Network } from 'alchemy-sdk';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { createNetworkNames } from '../../../src/site/network-names.ts';
import { loadNetworkNames, loadNetworks } from '../../../src/site/read-content.ts';
import { ContentError } from '../../../src/site/records.ts';
import { networkAliasData } from '../../../src/site/schema.ts';
import { projectRoot } from '../../support/build.ts';

// The incumbent's network names (content/networks/aliases.yaml, docs/hosts-and-paths.md#network-names):
// the table against alchemy-sdk 3.6.5's own Network enum, and the rules that keep a name from
// standing for two networks.

const networks = [
  { id: 'ethereum-sepolia', chainId: 11_155_111 },
  { id: 'base-sepolia', chainId: 84_532 },
  { id: 'starknet-sepolia', chainId: null },
];

describe('createNetworkNames', () => {
  it('resolves ids to themselves, and a row’s value and KEY to the network with its chain id', () => {
    const names = createNetworkNames(networks, {
      'eth-sepolia': { key: 'ETH_SEPOLIA', chainId: 11_155_111 },
      'base-sepolia': { key: 'BASE_SEPOLIA', chainId: 84_532 },
      'eth-mainnet': { key: 'ETH_MAINNET', chainId: 1 },
    });
    expect(names.ids).toEqual(['ethereum-sepolia', 'base-sepolia', 'starknet-sepolia']);
    expect(['ethereum-sepolia', 'eth-sepolia', 'ETH_SEPOLIA'].map(names.idOf)).toEqual(Array(3).fill('ethereum-sepolia'));
    expect(['base-sepolia', 'BASE_SEPOLIA'].map(names.idOf)).toEqual(['base-sepolia', 'base-sepolia']);
    // No network has chain 1 here; case and spelling are the table's own.
    expect(['eth-mainnet', 'ETH_MAINNET', 'Eth-Sepolia', 'eth_sepolia', ''].map(names.idOf)).toEqual(Array(5).fill(null));
    expect(names.aliasesOf('ethereum-sepolia')).toEqual([{ name: 'eth-sepolia', key: 'ETH_SEPOLIA' }]);
    expect(names.aliasesOf('starknet-sepolia')).toEqual([]);
  });

  it('refuses a table in which a name would stand for two networks, naming the row', () => {
    const problems = (table: Parameters<typeof createNetworkNames>[1], list = networks) => {
      try {
        createNetworkNames(list, table, 'aliases.yaml');
      } catch (error) {
        if (error instanceof ContentError) return error.issues.map((issue) => `${issue.field}: ${issue.message}`);
        throw error;
      }
      return [];
    };
    expect(problems({ a: { key: 'SAME', chainId: 1 }, b: { key: 'SAME', chainId: 2 } })).toEqual(["b: its key SAME is also a's"]);
    expect(problems({ 'base-sepolia': { key: 'BASE_SEPOLIA', chainId: 11_155_111 } })).toEqual([
      "base-sepolia: base-sepolia is the id of another network than chain 11155111's",
    ]);
    const twins = [...networks, { id: 'sepolia-fork', chainId: 11_155_111 }];
    expect(problems({ 'eth-sepolia': { key: 'ETH_SEPOLIA', chainId: 11_155_111 } }, twins)).toEqual([
      'eth-sepolia: chain 11155111 is the chain of ethereum-sepolia and sepolia-fork: the name cannot say which',
    ]);
  });
});

describe('content/networks/aliases.yaml', () => {
  it('is the SDK’s Network enum: each value with its KEY and the chain id alchemy-sdk gives it', async () => {
    const table = networkAliasData.parse(parseYaml(await readFile(join(projectRoot, 'content/networks/aliases.yaml'), 'utf8')));
    const rows = Object.entries(table);
    expect(rows.length).toBeGreaterThan(100);
    for (const [name, { key, chainId }] of rows) {
      expect(Network[key as keyof typeof Network], key).toBe(name);
      // With `url` set the SDK asks nothing for its network: it is the configured one.
      const configured = await new Alchemy({ network: name as Network, url: 'http://127.0.0.1:9/v2/x' }).core.getNetwork();
      expect(configured.chainId, name).toBe(chainId);
    }
  });

  it('loads with the networks, and names each network the SDK knows by its chain', async () => {
    const names = await loadNetworkNames(projectRoot);
    expect(names.ids).toEqual((await loadNetworks(projectRoot)).map((network) => network.id));
    expect(names.idOf('eth-sepolia')).toBe('ethereum-sepolia');
    expect(names.idOf('ARB_SEPOLIA')).toBe('arbitrum-sepolia');
    expect(names.idOf('opt-sepolia')).toBe('optimism-sepolia');
    expect(names.idOf('MATIC_AMOY')).toBe('polygon-amoy');
    expect(names.idOf('polygon-amoy')).toBe('polygon-amoy');
    expect(names.idOf('zksync-sepolia')).toBe('zksync-sepolia');
    // The table is no network.
    expect(names.ids).not.toContain('aliases');
  });
});
