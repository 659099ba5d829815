import { databaseConfig, webhooksConfig } from '../config/config.ts';
import type { WebhooksConfig } from '../config/webhooks.ts';
import { openDatabase, type Database } from '../db/open.ts';
import { NON_PUBLIC_ADDRESSES } from '../net/blocked-addresses.ts';
import { createDeliveryWorker, type DeliveryLogEntry, type DeliveryWorker } from '../webhooks/delivery-worker.ts';

// The delivery worker as a process runs it, configured from the environment (WEBHOOK_* in
// .env.example): `npm run worker -- webhooks` runs it alone, and the server beside the gateway unless
// WEBHOOKS_IN_SERVER=off. Outside local mode it connects to public addresses only.

export interface LoadedDeliveryWorker extends DeliveryWorker {
  /** Stops the worker, then closes the database if it was opened here. */
  close(): Promise<void>;
}

export async function loadDeliveryWorker(options: {
  /** The platform runs in local mode (CRUCIBLE_MODE=local). */
  local: boolean;
  /** The process's database; opened (and closed by close()) here when absent. */
  database?: Database;
  log?: (entry: DeliveryLogEntry) => void;
}): Promise<LoadedDeliveryWorker> {
  return startConfigured(options, webhooksConfig(options));
}

/** The worker the server runs, or null when WEBHOOKS_IN_SERVER is off (workers deliver). */
export async function loadServerDeliveryWorker(options: Parameters<typeof loadDeliveryWorker>[0]): Promise<LoadedDeliveryWorker | null> {
  const config = webhooksConfig(options);
  return config.inServer ? startConfigured(options, config) : null;
}

async function startConfigured(options: Parameters<typeof loadDeliveryWorker>[0], config: WebhooksConfig): Promise<LoadedDeliveryWorker> {
  const database = options.database ?? (await openDatabase(databaseConfig()));
  const worker = createDeliveryWorker({
    database,
    retryDelaysMs: config.retryDelaysMs,
    timeoutMs: config.timeoutMs,
    pauseAfterFailures: config.pauseAfterFailures,
    pollIntervalMs: config.pollIntervalMs,
    claimMs: config.claimMs,
    concurrency: config.concurrency,
    blockedAddresses: config.local ? null : NON_PUBLIC_ADDRESSES,
    log: options.log,
  });
  return {
    ...worker,
    async close() {
      await worker.stop();
      if (!options.database) await database.close();
    },
  };
}
