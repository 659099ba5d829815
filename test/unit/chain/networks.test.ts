import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEther } from 'viem';
import { describe, expect, it } from 'vitest';
import { loadFaucetNetworks, speaksEvmRpc } from '../../../src/chain/networks.ts';
import { ContentError } from '../../../src/site/records.ts';

describe('loadFaucetNetworks', () => {
  it('reads the 23 faucet networks of docs/website.md#faucet-send from content/networks, sorted by id', async () => {
    const networks = await loadFaucetNetworks();
    const ids = networks.map((n) => n.id);
    expect(ids).toHaveLength(23);
    expect(ids).toEqual([...ids].sort());
    expect(ids).toEqual(expect.arrayContaining(['ethereum-sepolia', 'starknet-sepolia', 'syndicate-risa', 'crucible-testnet', 'ink-sepolia']));
  });

  it('turns the drip and the cap into base units and the window into milliseconds', async () => {
    const networks = await loadFaucetNetworks();
    const sepolia = networks.find((n) => n.id === 'ethereum-sepolia')!;
    expect(sepolia).toMatchObject({ chainId: 11155111, symbol: 'ETH', dripAmount: '0.1', dripWei: parseEther('0.1'), deprecated: false });
    expect(sepolia.maxBalanceWei).toBeGreaterThan(sepolia.dripWei);
    expect(sepolia.rateWindowMs).toBe(24 * 3_600_000);
    expect(networks.find((n) => n.id === 'crucible-testnet')).toMatchObject({ chainId: 7357001, explorer: null });
  });

  it('marks the deprecated networks and the one that does not speak EVM JSON-RPC', async () => {
    const networks = await loadFaucetNetworks();
    expect(networks.filter((n) => n.deprecated).map((n) => n.id)).toEqual(['starknet-sepolia', 'syndicate-risa']);
    expect(networks.filter((n) => !speaksEvmRpc(n)).map((n) => n.id)).toEqual(['starknet-sepolia']);
  });

  it('names one funded network for callers of deprecated ones', async () => {
    const networks = await loadFaucetNetworks();
    expect(networks.filter((n) => n.suggestForDeprecated).map((n) => n.id)).toEqual(['ethereum-sepolia']);
  });

  it('refuses two networks suggested instead of deprecated ones, naming both files', async () => {
    const root = await mkdtemp(join(tmpdir(), 'crucible-networks-'));
    try {
      await mkdir(join(root, 'content/networks'), { recursive: true });
      const source = await readFile('content/networks/ethereum-sepolia.yaml', 'utf8');
      await Promise.all(['a-sepolia', 'b-sepolia'].map((id) => writeFile(join(root, `content/networks/${id}.yaml`), source)));
      const refusal = await loadFaucetNetworks(root).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(ContentError);
      expect((refusal as ContentError).issues.map((issue) => [issue.file.split('/').at(-1), issue.field])).toEqual([
        ['a-sepolia.yaml', 'suggestForDeprecated'],
        ['b-sepolia.yaml', 'suggestForDeprecated'],
      ]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
