import { loadFaucetNetworks, speaksEvmRpc } from '../chain/networks.ts';
import { buildConfig, databaseConfig, nftMetadataConfig, nftsConfig, nodeConfig, platformConfig } from '../config/config.ts';
import { ConfigError } from '../config/config-error.ts';
import { openDatabase } from '../db/open.ts';
import { chainOverPool } from './adapters/contract-reader-over-pool.ts';
import { createUpstreamPool } from '../node/upstreams/upstream-pool.ts';
import type { ContractReader } from '../chain/contract-reader.ts';
import { createNftMetadataRuntime, type NftMetadataRuntime } from './nft-metadata.ts';
import type { OnMetadataChange } from '../nfts/metadata/store.ts';

// `npm run worker -- nft-metadata`: the metadata worker as a process of its own, over the database
// and each EVM network's configured upstreams (NODE_UPSTREAMS_<ID>, else RPC_URL_<ID>), as the
// indexer's worker reads them. Media URLs are on the site's origin (SITE_URL).

export interface LoadedNftMetadataWorker extends NftMetadataRuntime {
  networks: string[];
  /** Stops the worker, then closes the pools and the database. */
  close(): Promise<void>;
}

export async function loadNftMetadataWorker(options: { root: string; onMetadataChange?: OnMetadataChange }): Promise<LoadedNftMetadataWorker> {
  const faucetNetworks = await loadFaucetNetworks(options.root);
  const evm = faucetNetworks.filter(speaksEvmRpc);
  const upstreams = nodeConfig(faucetNetworks);
  const reachable = evm.filter((network) => (upstreams.upstreams[network.id]?.length ?? 0) > 0);
  if (reachable.length === 0) {
    throw new ConfigError(
      'No network to fetch NFT metadata on: set NODE_UPSTREAMS_<ID> or RPC_URL_<ID> for the indexed networks (a worker of its own cannot reach the local devnets `npm start` runs). See .env.example.',
    );
  }
  const pools = new Map(
    reachable.map((network) => [
      network.id,
      createUpstreamPool({ urls: async () => upstreams.upstreams[network.id]!, timeoutMs: upstreams.upstreamTimeoutMs }),
    ]),
  );
  const chains = new Map<string, ContractReader>([...pools].map(([id, pool]) => [id, chainOverPool(pool)]));
  const local = platformConfig().mode === 'local';
  const database = await openDatabase(databaseConfig());
  const runtime = createNftMetadataRuntime({
    db: database.db,
    networks: [...chains.keys()],
    chainOf: (network) => chains.get(network) ?? null,
    siteOrigin: buildConfig().siteOrigin,
    nfts: nftsConfig({ local }),
    metadata: nftMetadataConfig(),
    onMetadataChange: options.onMetadataChange,
  });
  return {
    ...runtime,
    networks: [...chains.keys()],
    async close() {
      await runtime.worker.stop();
      for (const pool of pools.values()) pool.close();
      await database.close();
    },
  };
}
