import type { Kysely } from 'kysely';
import type { NftMetadataConfig } from '../config/nft-metadata.ts';
import type { NftsConfig } from '../config/nfts.ts';
import type { DatabaseSchema } from '../db/schema.ts';
import type { ContractReader } from '../chain/contract-reader.ts';
import { privateAddressPolicy } from '../net/address-policy.ts';
import { createMediaRoute, type MediaRoute } from '../nfts/media/media-route.ts';
import { createNftMetadataStore, type NftMetadataStore, type OnMetadataChange } from '../nfts/metadata/store.ts';
import { createNftMetadataWorker, type NftMetadataWorker } from '../nfts/metadata/worker.ts';

// The metadata store, its worker and the media route wired from configuration: what the server
// runs beside the API (NFT_METADATA_IN_SERVER) and what `npm run worker -- nft-metadata` runs alone.

export interface NftMetadataRuntimeOptions {
  db: Kysely<DatabaseSchema>;
  /** The networks whose indexed NFTs the worker fetches. */
  networks: readonly string[];
  chainOf(network: string): ContractReader | null;
  /** Media URLs are absolute on this origin. */
  siteOrigin: string;
  nfts: NftsConfig;
  metadata: NftMetadataConfig;
  onMetadataChange?: OnMetadataChange;
}

export interface NftMetadataRuntime {
  /** The NftMetadataSource of the NFT endpoints, with refresh (getNFTMetadata?refreshCache=true). */
  store: NftMetadataStore;
  /** GET /nft-media/… */
  media: MediaRoute;
  /** The worker, not started. */
  worker: NftMetadataWorker;
}

export function createNftMetadataRuntime(options: NftMetadataRuntimeOptions): NftMetadataRuntime {
  const { nfts, metadata } = options;
  // Local mode's default (site): the world's documents are on the site, on this machine; nothing else here is.
  const addresses = privateAddressPolicy(nfts.privateAddresses, options.siteOrigin);
  const store = createNftMetadataStore({
    db: options.db,
    chainOf: options.chainOf,
    siteOrigin: options.siteOrigin,
    fetch: {
      gateways: nfts.gateways,
      metadataMaxBytes: nfts.metadataMaxBytes,
      imageMaxBytes: nfts.imageMaxBytes,
      imageTimeoutMs: nfts.tokenUriTimeout.maxMs,
      blockedAddresses: addresses.blocked,
      siteOrigin: addresses.exemptOrigin,
    },
    concurrency: metadata.concurrency,
    onMetadataChange: options.onMetadataChange,
  });
  const worker = createNftMetadataWorker({
    db: options.db,
    store,
    networks: options.networks,
    ttlMs: metadata.ttlMs,
    retryMs: metadata.retryMs,
    pollIntervalMs: metadata.pollIntervalMs,
    batch: metadata.batch,
    timeoutMs: nfts.tokenUriTimeout.defaultMs,
  });
  return { store, media: createMediaRoute(options.db), worker };
}
