import { loadFaucetNetworks } from '../chain/networks.ts';
import { nftContractsConfig, nftMetadataConfig, nftsConfig, nodeConfig } from '../config/config.ts';
import type { Database } from '../db/open.ts';
import { nftChainOverPool } from './adapters/nft-chain-over-pool.ts';
import { chainOverPool } from './adapters/contract-reader-over-pool.ts';
import type { UpstreamPool } from '../node/upstreams/upstream-pool.ts';
import { enqueueMetadataUpdate } from '../webhooks/outbox.ts';
import type { NftApiOptions } from '../nfts/api/handlers.ts';
import { loadCollectionsRegistry } from '../nfts/contracts/registry.ts';
import { createNftContractSource } from '../nfts/contracts/source.ts';
import type { NftCollectionSource } from '../nfts/nft-sources.ts';
import type { MediaRoute } from '../nfts/media/media-route.ts';
import { createNftMetadataRuntime } from './nft-metadata.ts';
import type { NftMetadataWorker } from '../nfts/metadata/worker.ts';

// The NFT products as the server runs them (docs/nft-data.md#endpoints, docs/nft-data.md#metadata-store-and-worker), configured from content and the
// environment: the metadata store (with its worker and the media route) and the contract facts,
// reading the chains through the node gateway's own upstream pools, and a metadata change queued
// for the NFT_METADATA_UPDATE webhooks in the store's transaction.

export interface NftServices {
  /** What the NFT endpoints read besides the index. */
  sources: Omit<NftApiOptions, 'network' | 'db' | 'ipv6PrefixLength'>;
  /** GET /nft-media/… */
  media: MediaRoute;
  /** The metadata worker, started by `start` when NFT_METADATA_IN_SERVER is on. */
  worker: NftMetadataWorker;
  /** The gateway's pools, once they exist: until then no chain is read. `worker` false: this process serves only (another runs the worker). */
  start(pools: ReadonlyMap<string, UpstreamPool>, options?: { worker: boolean }): void;
  close(): Promise<void>;
}

export async function loadNftServices(options: {
  root: string;
  origin: string;
  database: Database;
  /** The indexed networks: the worker fetches what they hold. */
  indexedNetworks: readonly string[];
  /** Local mode (CRUCIBLE_MODE=local): networks without an upstream are the local world's devnets. */
  local: boolean;
}): Promise<NftServices> {
  const networks = await loadFaucetNetworks(options.root);
  const upstreams = nodeConfig(networks).upstreams;
  const metadataConfig = nftMetadataConfig();
  const fetching = nftsConfig({ local: options.local });
  let pools: ReadonlyMap<string, UpstreamPool> = new Map();
  /** One chain per network over its pool, made when first read. */
  const chainsOver = <T>(make: (pool: UpstreamPool) => T) => {
    const made = new Map<string, T>();
    return (network: string): T | null => {
      const pool = pools.get(network);
      if (!pool) return null;
      if (!made.has(network)) made.set(network, make(pool));
      return made.get(network)!;
    };
  };
  const metadata = createNftMetadataRuntime({
    db: options.database.db,
    networks: options.indexedNetworks,
    chainOf: chainsOver(chainOverPool),
    siteOrigin: options.origin,
    nfts: fetching,
    metadata: metadataConfig,
    onMetadataChange: (trx, change) => enqueueMetadataUpdate(trx, change),
  });
  const registry = await loadCollectionsRegistry(options.root, { siteOrigin: options.origin });
  const localWorld = (network: string) => options.local && (upstreams[network]?.length ?? 0) === 0;
  const contractsConfig = nftContractsConfig();
  const contracts = createNftContractSource({
    db: options.database.db,
    chainOf: chainsOver(nftChainOverPool),
    registry,
    localWorld,
    config: contractsConfig,
  });
  const nativeCurrencies = new Map(networks.map((network) => [network.id, network.symbol]));
  const collections: NftCollectionSource = {
    collectionOf: (network, slug) => registry.collectionOf(network, slug, { localWorld: localWorld(network) }),
    nativeCurrencyOf: (network) => nativeCurrencies.get(network) ?? null,
  };
  return {
    sources: {
      metadata: metadata.store,
      contracts,
      collections,
      tokenUriTimeout: fetching.tokenUriTimeout,
      airdropMinRecipients: contractsConfig.massAirdropMinRecipients,
    },
    media: metadata.media,
    worker: metadata.worker,
    start(gatewayPools, { worker } = { worker: true }) {
      pools = gatewayPools;
      if (worker && metadataConfig.inServer) metadata.worker.start();
    },
    close: () => metadata.worker.stop(),
  };
}
