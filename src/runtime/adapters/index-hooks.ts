import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.ts';
import { forgetContractsOnReset } from '../../nfts/contracts/facts-store.ts';
import { marketIndexHooks } from '../../nfts/market/market-table.ts';
import { clearNetworkMetadata } from '../../nfts/metadata/metadata-table.ts';
import type { IndexHooks, IndexReset } from '../../transfers/index-events.ts';
import { webhookIndexHooks, type WebhookOutboxOptions } from '../../webhooks/outbox.ts';

// What the products that follow the transfer index do inside its transactions, wherever the
// indexer runs (in the server or in `npm run worker -- indexer`): the webhook outbox fills with
// the transfers, the marketplaces' listings and sales are kept from their own events (read in the
// index's eth_getLogs), and what the NFT products keep of a network (metadata, contract facts,
// marketplace events) goes with a reset index.

export function productIndexHooks(options: WebhookOutboxOptions): IndexHooks {
  return inOrder([webhookIndexHooks(options), { onReset: forgetNftData }, marketIndexHooks()]);
}

async function forgetNftData(event: IndexReset, trx: Kysely<DatabaseSchema>): Promise<void> {
  await clearNetworkMetadata(trx, event.network);
  await forgetContractsOnReset(event, trx);
}

/** Each hook of every consumer, in their order, in the one transaction; one consumer at most follows logs of its own. */
function inOrder(consumers: readonly IndexHooks[]): IndexHooks {
  const followed = consumers.flatMap((hooks) => (hooks.followedLogs ? [hooks.followedLogs] : []));
  if (followed.length > 1) throw new Error('only one consumer of the index may follow logs of its own');
  return {
    onTransfers: async (event, trx) => {
      for (const hooks of consumers) await hooks.onTransfers?.(event, trx);
    },
    onReorg: async (event, trx) => {
      for (const hooks of consumers) await hooks.onReorg?.(event, trx);
    },
    onReset: async (event, trx) => {
      for (const hooks of consumers) await hooks.onReset?.(event, trx);
    },
    followedLogs: followed[0],
  };
}
