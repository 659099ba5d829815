// `npm run worker -- <name>`: one background worker as a process of its own (ARCHITECTURE
// principle 7), configured from the environment and .env like the server (.env.example). Several
// may run at once against one PostgreSQL database: each network is led by one of them. Exit codes:
// 0 stopped by SIGINT/SIGTERM, 1 could not start, 2 no such worker.
import { fileURLToPath } from 'node:url';
import { platformConfig } from '../src/config/config.ts';
import { ConfigError } from '../src/config/config-error.ts';
import { loadTransferIndexer } from '../src/runtime/transfer-indexer.ts';
import { loadNftMetadataWorker } from '../src/runtime/nft-metadata-worker.ts';
import { redactUrls } from '../src/log/redact.ts';
import { loadPriceWorker } from '../src/runtime/price-services.ts';
import { loadDeliveryWorker } from '../src/runtime/webhook-delivery.ts';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

interface RunningWorker {
  close(): Promise<void>;
}

const workers: Record<string, { summary: string; start(): Promise<RunningWorker> }> = {
  indexer: {
    summary: 'the transfer indexer: follows each network’s Transfer logs into the database (INDEXER_* variables)',
    async start() {
      const indexer = await loadTransferIndexer({ root: projectRoot });
      indexer.start();
      console.log(JSON.stringify({ component: 'indexer', level: 'info', message: 'started', networks: indexer.networks }));
      return indexer;
    },
  },
  'nft-metadata': {
    summary: 'the NFT metadata worker: fetches and refreshes the metadata and images of indexed NFTs (NFT_* and NFT_METADATA_* variables)',
    async start() {
      const loaded = await loadNftMetadataWorker({ root: projectRoot });
      loaded.worker.start();
      console.log(JSON.stringify({ component: 'nft-metadata', level: 'info', message: 'started', networks: loaded.networks }));
      return loaded;
    },
  },
  prices: {
    summary: 'the price sampler: reads every price source and records observations and aggregates every period (PRICES_* variables)',
    async start() {
      const log = (error: unknown) =>
        console.log(
          JSON.stringify({
            component: 'prices',
            level: 'error',
            message: 'round failed',
            error: redactUrls(error instanceof Error ? error.message : String(error)),
          }),
        );
      const loaded = await loadPriceWorker({ root: projectRoot, onError: log });
      console.log(JSON.stringify({ component: 'prices', level: 'info', message: 'started', networks: loaded.networks, symbols: loaded.plan.symbols }));
      return loaded;
    },
  },
  webhooks: {
    summary: 'NFT webhook delivery: sends the outbox’s due deliveries, signed, with retries (WEBHOOK_* variables)',
    async start() {
      const local = platformConfig().mode === 'local';
      const worker = await loadDeliveryWorker({ local });
      worker.start();
      console.log(JSON.stringify({ component: 'webhooks', level: 'info', message: 'started', local }));
      return worker;
    },
  },
};

const usage = `Usage: npm run worker -- <name>\n\nWorkers:\n${Object.entries(workers)
  .map(([name, worker]) => `  ${name.padEnd(13)} ${worker.summary}`)
  .join('\n')}\n`;

const name = process.argv[2];
const worker = name === undefined ? undefined : workers[name];
if (!worker) {
  process.stderr.write(name === undefined || name === '--help' ? usage : `No worker named "${name}".\n\n${usage}`);
  process.exit(name === '--help' ? 0 : 2);
}

let running: RunningWorker;
try {
  running = await worker.start();
} catch (error) {
  console.error(
    error instanceof ConfigError ? error.message : `The ${name} worker failed to start: ${redactUrls(error instanceof Error ? error.message : String(error))}`,
  );
  process.exit(1);
}

let stopping = false;
const stop = () => {
  // A second signal while stopping: leave now.
  if (stopping) process.exit(1);
  stopping = true;
  running.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(`The ${name} worker did not stop cleanly: ${redactUrls(error instanceof Error ? error.message : String(error))}`);
      process.exit(1);
    },
  );
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, stop);
