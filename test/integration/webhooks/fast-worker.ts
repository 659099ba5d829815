import type { Database } from '../../../src/db/open.ts';
import { createDeliveryWorker, type DeliveryWorker, type DeliveryWorkerOptions } from '../../../src/webhooks/delivery-worker.ts';

/** A delivery worker for tests, started: retries after milliseconds, not minutes; any address. */
export function startFastWorker(database: Database, options: Partial<DeliveryWorkerOptions> = {}): DeliveryWorker {
  const worker = createDeliveryWorker({
    database,
    retryDelaysMs: [20, 20, 20, 20],
    timeoutMs: 2000,
    pauseAfterFailures: 5,
    pollIntervalMs: 20,
    claimMs: 10_000,
    concurrency: 4,
    blockedAddresses: null,
    log: () => {},
    ...options,
  });
  worker.start();
  return worker;
}
