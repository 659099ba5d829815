import { parseEther } from 'viem';
import { describe, expect, it } from 'vitest';
import { loadFaucetNetworks, speaksEvmRpc } from '../../../src/chain/networks.ts';

describe('loadFaucetNetworks', () => {
  it('reads the 23 faucet networks of spec 4.1 from content/networks, sorted by id', async () => {
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
});
