import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DatabaseSchema, WebhookDeliveryRow } from '../db/schema.ts';
import type { IndexHooks, IndexReset, TransfersIndexed, TransfersUndone } from '../transfers/index-events.ts';
import type { NftKind, Transfer } from '../transfers/transfer.ts';
import {
  activityItem,
  byBlock,
  isNftTransfer,
  metadataCategory,
  metadataSnapshot,
  type NftMetadataFacts,
  type WebhookEvent,
  type WebhookPayload,
} from './payload.ts';
import type { WebhookType } from './schemas.ts';
import { matchesFilters, type WebhookFilters } from './webhook.ts';

// The durable outbox (docs/webhooks.md#outbox): deliveries are rows written INSIDE the transaction that makes
// their news true (the index's step or rollback, the metadata store's refresh), so an event is
// queued exactly when its cause commits. NFT_ACTIVITY: per matching active webhook, one delivery per
// block of its activity, numbered in the webhook's order. A reorg queues, per webhook, the undone
// transfers it was sent, with `log.removed: true`, whatever its state now: a paused webhook gets
// them, in order, when resumed. Which transfers each webhook was sent is kept while a reorg can undo
// them (the indexer's reorg window).

type Trx = Kysely<DatabaseSchema>;

export interface WebhookOutboxOptions {
  /** The indexer's reorg window: sent transfers older than this below the index's block are forgotten. */
  reorgWindow: number;
  now?: () => number;
}

/** A token's metadata changed on refresh (the metadata store calls this inside its transaction). */
export interface MetadataChange {
  network: string;
  contract: string;
  tokenId: string;
  kind: NftKind;
  before: NftMetadataFacts | null;
  after: NftMetadataFacts;
}

const ROWS_PER_STATEMENT = 300;

/** The indexer's hooks that fill the outbox: pass them to the indexer wherever it runs. */
export function webhookIndexHooks(options: WebhookOutboxOptions): Required<Pick<IndexHooks, 'onTransfers' | 'onReorg' | 'onReset'>> {
  const now = options.now ?? Date.now;
  return {
    async onTransfers(event: TransfersIndexed, trx: Trx) {
      const nfts = event.transfers.filter(isNftTransfer);
      if (nfts.length > 0) {
        for (const webhook of await activeWebhooks(trx, event.network, 'NFT_ACTIVITY')) {
          const matched = nfts.filter((transfer) => matchesFilters(webhook.filters, transfer.contract, transfer.tokenId));
          if (matched.length === 0) continue;
          await enqueueActivity(trx, webhook.id, event.network, matched, false, now());
          await insertChunked(
            trx,
            'webhook_sent_transfers',
            matched.map((transfer) => ({ webhook_id: webhook.id, network: event.network, ...transferKey(transfer) })),
          );
        }
      }
      await trx
        .deleteFrom('webhook_sent_transfers')
        .where('network', '=', event.network)
        .where('block_number', '<', event.to - options.reorgWindow)
        .execute();
    },

    async onReorg(event: TransfersUndone, trx: Trx) {
      const after = event.ancestor.number;
      const sent = await trx
        .selectFrom('webhook_sent_transfers')
        .select(['webhook_id', 'block_number', 'log_index', 'batch_index'])
        .where('network', '=', event.network)
        .where('block_number', '>', after)
        .orderBy('webhook_id')
        .execute();
      if (sent.length === 0) return;
      const removed = new Map(event.removed.filter(isNftTransfer).map((transfer) => [keyText(transferKey(transfer)), transfer]));
      const byWebhook = new Map<string, Array<Transfer & { kind: NftKind; tokenId: string }>>();
      for (const row of sent) {
        const transfer = removed.get(keyText(row));
        if (!transfer) continue;
        const list = byWebhook.get(row.webhook_id);
        if (list) list.push(transfer);
        else byWebhook.set(row.webhook_id, [transfer]);
      }
      for (const [webhookId, transfers] of byWebhook) await enqueueActivity(trx, webhookId, event.network, transfers, true, now());
      await trx.deleteFrom('webhook_sent_transfers').where('network', '=', event.network).where('block_number', '>', after).execute();
    },

    async onReset(event: IndexReset, trx: Trx) {
      await trx.deleteFrom('webhook_sent_transfers').where('network', '=', event.network).execute();
    },
  };
}

/** Queues an NFT_METADATA_UPDATE for each active webhook of the network whose contracts include this one. */
export async function enqueueMetadataUpdate(trx: Trx, change: MetadataChange, now: () => number = Date.now): Promise<void> {
  const webhooks = (await activeWebhooks(trx, change.network, 'NFT_METADATA_UPDATE')).filter((webhook) =>
    matchesFilters(webhook.filters, change.contract, null),
  );
  for (const webhook of webhooks) {
    const [seq] = await reserveSeqs(trx, webhook.id, 1);
    const event: WebhookEvent = {
      network: change.network,
      metadataUpdates: [
        {
          contractAddress: change.contract.toLowerCase(),
          tokenId: change.tokenId,
          category: metadataCategory(change.kind),
          before: change.before ? metadataSnapshot(change.before) : null,
          after: metadataSnapshot(change.after),
        },
      ],
    };
    await trx
      .insertInto('webhook_deliveries')
      .values(deliveryRow(webhook.id, seq!, null, 'NFT_METADATA_UPDATE', event, now()))
      .execute();
  }
}

async function enqueueActivity(
  trx: Trx,
  webhookId: string,
  network: string,
  transfers: ReadonlyArray<Transfer & { kind: NftKind; tokenId: string }>,
  removed: boolean,
  at: number,
): Promise<void> {
  const blocks = byBlock(transfers);
  const seqs = await reserveSeqs(trx, webhookId, blocks.length);
  const rows = blocks.map(({ block, transfers: inBlock }, index) =>
    deliveryRow(webhookId, seqs[index]!, block, 'NFT_ACTIVITY', { network, activity: inBlock.map((transfer) => activityItem(transfer, removed)) }, at),
  );
  await insertChunked(trx, 'webhook_deliveries', rows);
}

function deliveryRow(webhookId: string, seq: number, block: number | null, type: WebhookType, event: WebhookEvent, at: number): WebhookDeliveryRow {
  const id = `whevt_${randomBytes(12).toString('hex')}`;
  const payload: WebhookPayload = { webhookId, id, createdAt: new Date(at).toISOString(), type, event };
  return {
    id,
    webhook_id: webhookId,
    seq,
    block_number: block,
    payload: JSON.stringify(payload),
    status: 'pending',
    attempts: 0,
    next_attempt_at: at,
    claimed_by: null,
    claim_expires_at: null,
    created_at: at,
    completed_at: null,
    last_http_status: null,
    last_error: null,
  };
}

/** `count` consecutive places in the webhook's order; the row update also serializes writers of one webhook. */
async function reserveSeqs(trx: Trx, webhookId: string, count: number): Promise<number[]> {
  const row = await trx
    .updateTable('webhooks')
    .set((eb) => ({ next_seq: eb('next_seq', '+', count) }))
    .where('id', '=', webhookId)
    .returning('next_seq')
    .executeTakeFirstOrThrow();
  const first = Number(row.next_seq) - count;
  return Array.from({ length: count }, (_, index) => first + index);
}

async function activeWebhooks(trx: Trx, network: string, type: WebhookType): Promise<Array<{ id: string; filters: WebhookFilters }>> {
  const rows = await trx
    .selectFrom('webhooks')
    .select(['id', 'contract_addresses', 'token_ids'])
    .where('network', '=', network)
    .where('type', '=', type)
    .where('state', '=', 'active')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    filters: { contractAddresses: JSON.parse(row.contract_addresses) as string[], tokenIds: JSON.parse(row.token_ids) as string[] },
  }));
}

type TransferKey = { block_number: number; log_index: number; batch_index: number };

function transferKey(transfer: Transfer): TransferKey {
  return { block_number: transfer.blockNumber, log_index: transfer.logIndex, batch_index: transfer.batchIndex };
}

function keyText(key: TransferKey): string {
  return `${key.block_number}:${key.log_index}:${key.batch_index}`;
}

async function insertChunked<T extends 'webhook_deliveries' | 'webhook_sent_transfers'>(trx: Trx, table: T, rows: Array<DatabaseSchema[T]>): Promise<void> {
  for (let offset = 0; offset < rows.length; offset += ROWS_PER_STATEMENT) {
    await trx
      .insertInto(table)
      .values(rows.slice(offset, offset + ROWS_PER_STATEMENT) as never)
      .execute();
  }
}
