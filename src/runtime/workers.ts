import { platformConfig } from '../config/config.ts';
import { redactUrls } from '../log/redact.ts';
import { loadNftMetadataWorker } from './nft-metadata-worker.ts';
import { loadPriceWorker } from './price-services.ts';
import { loadTransferIndexer } from './transfer-indexer.ts';
import { loadDeliveryWorker } from './webhook-delivery.ts';

// The background workers as processes of their own (`npm run worker -- <name>`, src/runtime/README.md):
// each builds the part of the runtime it needs, over the database and each network's configured
// upstreams, and says on stdout, one JSON line each, that it started. Several may run at once
// against one PostgreSQL database: each network is led by one of them.

export interface RunningWorker {
  close(): Promise<void>;
}

export interface Worker {
  summary: string;
  start(root: string): Promise<RunningWorker>;
}

/** One JSON line on stdout, as the workers log. */
const say = (component: string, fields: Record<string, unknown>) => console.log(JSON.stringify({ component, ...fields }));

export const workers: Record<string, Worker> = {
  indexer: {
    summary: 'the transfer indexer: follows each network’s Transfer logs into the database (INDEXER_* variables)',
    async start(root) {
      const indexer = await loadTransferIndexer({ root });
      indexer.start();
      say('indexer', { level: 'info', message: 'started', networks: indexer.networks });
      return indexer;
    },
  },
  'nft-metadata': {
    summary: 'the NFT metadata worker: fetches and refreshes the metadata and images of indexed NFTs (NFT_* and NFT_METADATA_* variables)',
    async start(root) {
      const loaded = await loadNftMetadataWorker({ root });
      loaded.worker.start();
      say('nft-metadata', { level: 'info', message: 'started', networks: loaded.networks });
      return loaded;
    },
  },
  prices: {
    summary: 'the price sampler: reads every price source and records observations and aggregates every period (PRICES_* variables)',
    async start(root) {
      const log = (error: unknown) =>
        say('prices', { level: 'error', message: 'round failed', error: redactUrls(error instanceof Error ? error.message : String(error)) });
      const loaded = await loadPriceWorker({ root, onError: log });
      say('prices', { level: 'info', message: 'started', networks: loaded.networks, symbols: loaded.plan.symbols });
      return loaded;
    },
  },
  webhooks: {
    summary: 'NFT webhook delivery: sends the outbox’s due deliveries, signed, with retries (WEBHOOK_* variables)',
    async start() {
      const local = platformConfig().mode === 'local';
      const worker = await loadDeliveryWorker({ local });
      worker.start();
      say('webhooks', { level: 'info', message: 'started', local });
      return worker;
    },
  },
};

/** Starts the worker `name` from the project at `root`, after saying which settings were read under an old name. */
export async function startWorker(name: string, worker: Worker, root: string): Promise<RunningWorker> {
  for (const warning of platformConfig().warnings) say(name, { level: 'info', message: 'setting renamed', warning });
  return worker.start(root);
}
