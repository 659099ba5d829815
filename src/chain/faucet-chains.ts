import type { Address, Hex } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { connectFaucetChain, type FaucetChain, type FaucetChainOptions } from './faucet-chain.ts';
import { createLocalDevnets, type LocalDevnets } from './local-devnets.ts';
import { speaksEvmRpc, type FaucetNetwork } from './networks.ts';
import type { CrossProcessLock } from './sender.ts';

// Which chain serves each faucet network:
// - RPC_URL_<ID> set: that endpoint (deprecated networks too, so old hashes keep a status);
// - otherwise, in local mode, a local anvil devnet, except for deprecated networks;
// - otherwise none: non-EVM networks (Starknet), and production networks without an RPC URL.

export interface FaucetChains {
  /** The network's chain, connected (and its devnet started) on first use; null where it has none. */
  get(network: FaucetNetwork): Promise<FaucetChain | null>;
  /** Stops the chains' background work and local devnets. */
  close(): Promise<void>;
}

/** What the chains take from the faucet's configuration (src/config/faucet.ts reads it). */
interface FaucetChainsConfig {
  mode: 'local' | 'production';
  /** Keyed by faucet id: the configured RPC URL (null: none) and the wallet's key (null: no chain). */
  chains: Record<string, { rpcUrl: string | null; privateKey: Hex | null }>;
  anvilBlockTimeSeconds: number;
}

export interface FaucetChainsOptions {
  config: FaucetChainsConfig;
  /** With Redis: the lock that serialises one wallet's sends on one network across processes. */
  crossProcessLock?: (networkId: string, faucetAddress: Address) => CrossProcessLock;
  /** The local devnets, shared with the node gateway so a drip is visible through it; default: the chains' own. */
  devnets?: LocalDevnets;
  /** Passed to every chain (src/chain/faucet-chain.ts); defaults there. */
  chainOptions?: Pick<FaucetChainOptions, 'maxNonceRetries' | 'feeMaxAgeMs' | 'watchIntervalMs' | 'onReplaced' | 'logError'>;
}

export function createFaucetChains(options: FaucetChainsOptions): FaucetChains {
  const { config } = options;
  const chains = new Map<string, Promise<FaucetChain>>();
  let devnets: LocalDevnets | undefined = options.devnets;
  const ownsDevnets = !options.devnets;

  const connect = async (network: FaucetNetwork & { chainId: number }, rpcUrl: string | null, privateKey: Hex): Promise<FaucetChain> => {
    const faucetAddress = privateKeyToAddress(privateKey);
    const localDevnet = rpcUrl === null;
    if (localDevnet) devnets ??= createLocalDevnets({ blockTimeSeconds: config.anvilBlockTimeSeconds });
    return connectFaucetChain({
      network,
      rpcUrl: rpcUrl ?? (await devnets!.rpcUrlFor(network, faucetAddress)),
      privateKey,
      localDevnet,
      crossProcessLock: options.crossProcessLock?.(network.id, faucetAddress),
      ...options.chainOptions,
    });
  };

  return {
    async get(network) {
      const { rpcUrl, privateKey } = config.chains[network.id] ?? { rpcUrl: null, privateKey: null };
      if (!speaksEvmRpc(network) || !privateKey) return null;
      if (rpcUrl === null && (config.mode === 'production' || network.deprecated)) return null;
      let chain = chains.get(network.id);
      if (!chain) {
        // Memoized before the first await: concurrent first requests share one connection and one devnet.
        chain = connect(network, rpcUrl, privateKey);
        chains.set(network.id, chain);
        chain.catch(() => chains.delete(network.id));
      }
      return chain;
    },
    async close() {
      const connected = await Promise.allSettled(chains.values());
      await Promise.all(connected.map((chain) => (chain.status === 'fulfilled' ? chain.value.close() : undefined)));
      chains.clear();
      if (ownsDevnets) await devnets?.stop();
    },
  };
}
