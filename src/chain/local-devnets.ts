import { createTestClient, http, parseEther, type Address } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { startAnvil, type AnvilProcess } from './anvil.ts';
import { DEV_FAUCET_PRIVATE_KEY } from './dev-accounts.ts';

// The embedded default: a network without an RPC URL gets
// its own anvil with that network's chain ID, started on first use and stopped with us.

export interface LocalDevnets {
  /** RPC URL of the network's devnet, starting it on first call; concurrent first calls share one start. */
  rpcUrlFor(network: { id: string; chainId: number }, faucetAddress: Address): Promise<string>;
  stop(): Promise<void>;
}

const DEV_FAUCET_ADDRESS = privateKeyToAddress(DEV_FAUCET_PRIVATE_KEY);
const FAUCET_BALANCE = parseEther('10000');

export function createLocalDevnets(options: { blockTimeSeconds: number }): LocalDevnets {
  // A promise per network, stored before anvil starts: that is what makes the start happen once.
  const devnets = new Map<string, Promise<AnvilProcess>>();
  let stopped = false;

  const start = async (chainId: number, faucetAddress: Address): Promise<AnvilProcess> => {
    const anvil = await startAnvil({ chainId, blockTimeSeconds: options.blockTimeSeconds });
    // Anvil funds its dev accounts at genesis; a configured key of our own gets the same.
    if (faucetAddress.toLowerCase() !== DEV_FAUCET_ADDRESS.toLowerCase()) {
      await createTestClient({ mode: 'anvil', transport: http(anvil.rpcUrl) }).setBalance({ address: faucetAddress, value: FAUCET_BALANCE });
    }
    return anvil;
  };

  return {
    async rpcUrlFor(network, faucetAddress) {
      if (stopped) throw new Error('local devnets are stopped');
      let devnet = devnets.get(network.id);
      if (!devnet) {
        devnet = start(network.chainId, faucetAddress);
        devnets.set(network.id, devnet);
        // A failed start is not memoized: the next request tries again.
        devnet.catch(() => devnets.delete(network.id));
      }
      return (await devnet).rpcUrl;
    },
    async stop() {
      stopped = true;
      const all = [...devnets.values()];
      devnets.clear();
      await Promise.all(
        all.map((devnet) =>
          devnet.then(
            (anvil) => anvil.stop(),
            () => undefined,
          ),
        ),
      );
    },
  };
}
