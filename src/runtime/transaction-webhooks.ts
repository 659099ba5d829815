import { webhooksConfig } from '../config/config.ts';
import type { Database } from '../db/open.ts';
import type { Broadcast } from '../node/gateway.ts';
import type { UpstreamPool } from '../node/upstreams/upstream-pool.ts';
import { recordBroadcast } from '../webhooks/transactions/broadcasts.ts';
import { createTransactionWatcher, type TransactionWatcher } from '../webhooks/transactions/watcher.ts';
import { transactionChainOverPools } from './adapters/transaction-chain-over-pool.ts';

// MINED_TRANSACTION and DROPPED_TRANSACTION webhooks in the server (docs/webhooks.md#transaction-webhooks):
// the gateway tells the recorder of each transaction an app's key broadcast, and the watcher,
// over the gateway's own upstream pools, looks at them until each is mined or dropped
// (WEBHOOK_TX_* in .env.example). Every server runs both: a transaction is recorded where it was
// sent, and settled once whichever server looks first.

export interface TransactionWebhooks {
  /** The gateway's onBroadcast: records the transaction, logging (not throwing) when the database refuses. */
  onBroadcast(broadcast: Broadcast): Promise<void>;
  /** Starts watching over the gateway's pools. */
  start(pools: ReadonlyMap<string, UpstreamPool>): void;
  close(): Promise<void>;
}

export function transactionWebhooks(options: {
  database: Database;
  local: boolean;
  log: { error(message: string, fields: Record<string, unknown>): void };
}): TransactionWebhooks {
  const config = webhooksConfig({ local: options.local });
  let watcher: TransactionWatcher | null = null;
  return {
    async onBroadcast(broadcast) {
      try {
        await recordBroadcast(options.database.db, broadcast, Date.now());
      } catch (error) {
        options.log.error('recording a broadcast transaction failed', {
          network: broadcast.network,
          hash: broadcast.hash,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    },
    start(pools) {
      watcher ??= createTransactionWatcher({
        db: options.database.db,
        chain: transactionChainOverPools(pools),
        pollIntervalMs: config.txPollIntervalMs,
        droppedAfterMs: config.txDroppedAfterMs,
        reorgDepth: config.txReorgDepth,
        log: ({ level, message, ...fields }) => (level === 'error' ? options.log.error(message, fields) : undefined),
      });
      watcher.start();
    },
    close: async () => watcher?.stop(),
  };
}
