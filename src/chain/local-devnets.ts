import { createTestClient, http, parseEther, type Address } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { startAnvil, type AnvilProcess } from './anvil.ts';
import { DEV_FAUCET_PRIVATE_KEY } from './dev-accounts.ts';

// The embedded default: a network without an RPC URL gets
// its own anvil with that network's chain ID, started on first use and stopped with us.

export interface LocalDevnets {
  /**
   * RPC URL of the network's devnet, starting it on first call; concurrent first calls share one
   * start. `fund`: an address that must hold funds there (a configured faucet key), funded once.
   */
  rpcUrlFor(network: { id: string; chainId: number }, fund?: Address): Promise<string>;
  stop(): Promise<void>;
}

const DEV_FAUCET_ADDRESS = privateKeyToAddress(DEV_FAUCET_PRIVATE_KEY);
const FAUCET_BALANCE = parseEther('10000');

export function createLocalDevnets(options: { blockTimeSeconds: number }): LocalDevnets {
  // A promise per network, stored before anvil starts: that is what makes the start happen once.
  const devnets = new Map<string, Promise<AnvilProcess>>();
  let stopped = false;

  // Addresses funded per network, as promises stored before the call: each is funded once.
  const funded = new Map<string, Map<string, Promise<void>>>();

  // Anvil funds its dev accounts at genesis; a configured key of our own gets the same.
  const fundOnce = (networkId: string, rpcUrl: string, address: Address): Promise<void> => {
    const key = address.toLowerCase();
    if (key === DEV_FAUCET_ADDRESS.toLowerCase()) return Promise.resolve();
    const known = funded.get(networkId) ?? funded.set(networkId, new Map()).get(networkId)!;
    let funding = known.get(key);
    if (!funding) {
      funding = createTestClient({ mode: 'anvil', transport: http(rpcUrl) }).setBalance({ address, value: FAUCET_BALANCE });
      known.set(key, funding);
      funding.catch(() => known.delete(key));
    }
    return funding;
  };

  return {
    async rpcUrlFor(network, fund) {
      if (stopped) throw new Error('local devnets are stopped');
      let devnet = devnets.get(network.id);
      if (!devnet) {
        devnet = startAnvil({ chainId: network.chainId, blockTimeSeconds: options.blockTimeSeconds });
        devnets.set(network.id, devnet);
        // A failed start is not memoized: the next request tries again.
        devnet.catch(() => devnets.delete(network.id));
      }
      const { rpcUrl } = await devnet;
      if (fund) await fundOnce(network.id, rpcUrl, fund);
      return rpcUrl;
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
