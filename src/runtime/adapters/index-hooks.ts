import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.ts';
import { forgetContractsOnReset } from '../../nfts/contracts/facts-store.ts';
import { clearNetworkMetadata } from '../../nfts/metadata/metadata-table.ts';
import type { IndexHooks, IndexReset } from '../../transfers/index-events.ts';
import { webhookIndexHooks } from '../../webhooks/outbox.ts';

// What the products that follow the transfer index do inside its transactions, wherever the
// indexer runs (in the server or in `npm run worker -- indexer`): the webhook outbox fills with
// the transfers, and what the NFT products keep of a network (metadata, contract facts) goes with
// a reset index.

export function productIndexHooks(options: { reorgWindow: number }): IndexHooks {
  return bothHooks(webhookIndexHooks(options), { onReset: forgetNftData });
}

async function forgetNftData(event: IndexReset, trx: Kysely<DatabaseSchema>): Promise<void> {
  await clearNetworkMetadata(trx, event.network);
  await forgetContractsOnReset(event, trx);
}

/** Each hook of `first`, then the same hook of `second`, in the one transaction. */
function bothHooks(first: Required<IndexHooks>, second: IndexHooks): IndexHooks {
  const { onTransfers, onReorg, onReset } = second;
  return {
    onTransfers: async (event, trx) => {
      await first.onTransfers(event, trx);
      await onTransfers?.(event, trx);
    },
    onReorg: async (event, trx) => {
      await first.onReorg(event, trx);
      await onReorg?.(event, trx);
    },
    onReset: async (event, trx) => {
      await first.onReset(event, trx);
      await onReset?.(event, trx);
    },
  };
}
