import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DatabaseSchema, WebhookDeliveryRow } from '../db/schema.ts';
import type { IndexHooks, IndexReset, TransfersIndexed, TransfersUndone } from '../transfers/index-events.ts';
import type { NftKind, Transfer } from '../transfers/transfer.ts';
import { listenersOf } from './addresses.ts';
import {
  activityItem,
  addressActivityItem,
  byBlock,
  isNftTransfer,
  metadataCategory,
  metadataSnapshot,
  type NftMetadataFacts,
  type WebhookEvent,
  type WebhookPayload,
} from './payload.ts';
import type { WebhookType } from './schemas.ts';
import { filtersOf } from './store.ts';
import { filterMatcher, type FilterMatcher } from './webhook.ts';

// The durable outbox (docs/webhooks.md#outbox): deliveries are rows written INSIDE the transaction that makes
// their news true (the index's step or rollback, the metadata store's refresh, the transaction
// watcher's finding), so an event is queued exactly when its cause commits. NFT_ACTIVITY and
// ADDRESS_ACTIVITY: per matching active webhook, one delivery per block of its activity, numbered in
// the webhook's order; an ADDRESS_ACTIVITY webhook is found by its addresses, one index seek per
// address the step's transfers touch. A reorg queues, per webhook, the undone transfers it was sent,
// marked removed, whatever its state now: a paused webhook gets them, in order, when resumed. Which
// transfers each webhook was sent is kept while a reorg can undo them (the indexer's reorg window).

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
      const sent = (webhookId: string, transfers: readonly Transfer[]) =>
        insertChunked(
          trx,
          'webhook_sent_transfers',
          transfers.map((transfer) => ({ webhook_id: webhookId, network: event.network, ...transferKey(transfer) })),
        );
      if (nfts.length > 0) {
        for (const webhook of await activeWebhooks(trx, event.network, 'NFT_ACTIVITY')) {
          const matched = nfts.filter((transfer) => webhook.matches(transfer.contract, transfer.tokenId));
          if (matched.length === 0) continue;
          await enqueueActivity(trx, webhook.id, 'NFT_ACTIVITY', event.network, matched, false, now());
          await sent(webhook.id, matched);
        }
      }
      for (const [webhookId, matched] of await addressMatches(trx, event.network, event.transfers)) {
        await enqueueActivity(trx, webhookId, 'ADDRESS_ACTIVITY', event.network, matched, false, now());
        await sent(webhookId, matched);
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
        .selectFrom('webhook_sent_transfers as s')
        .innerJoin('webhooks as w', 'w.id', 's.webhook_id')
        .select(['s.webhook_id', 'w.type', 's.block_number', 's.log_index', 's.batch_index'])
        .where('s.network', '=', event.network)
        .where('s.block_number', '>', after)
        .orderBy('s.webhook_id')
        .execute();
      if (sent.length === 0) return;
      const removed = new Map(event.removed.map((transfer) => [keyText(transferKey(transfer)), transfer]));
      const byWebhook = new Map<string, { type: WebhookType; transfers: Transfer[] }>();
      for (const row of sent) {
        const transfer = removed.get(keyText(row));
        if (!transfer) continue;
        const entry = byWebhook.get(row.webhook_id);
        if (entry) entry.transfers.push(transfer);
        else byWebhook.set(row.webhook_id, { type: row.type, transfers: [transfer] });
      }
      for (const [webhookId, { type, transfers }] of byWebhook) await enqueueActivity(trx, webhookId, type, event.network, transfers, true, now());
      await trx.deleteFrom('webhook_sent_transfers').where('network', '=', event.network).where('block_number', '>', after).execute();
    },

    async onReset(event: IndexReset, trx: Trx) {
      await trx.deleteFrom('webhook_sent_transfers').where('network', '=', event.network).execute();
    },
  };
}

/** Queues an NFT_METADATA_UPDATE for each active webhook of the network whose contracts include this one. */
export async function enqueueMetadataUpdate(trx: Trx, change: MetadataChange, now: () => number = Date.now): Promise<void> {
  const webhooks = (await activeWebhooks(trx, change.network, 'NFT_METADATA_UPDATE')).filter((webhook) => webhook.matches(change.contract, change.tokenId));
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

/**
 * The active ADDRESS_ACTIVITY webhooks listening to an address the transfers touch, each with the
 * transfers that touch one of its addresses, in webhook id order.
 */
async function addressMatches(trx: Trx, network: string, transfers: readonly Transfer[]): Promise<Array<[string, Transfer[]]>> {
  if (transfers.length === 0) return [];
  const touched = new Set<string>();
  for (const transfer of transfers) touched.add(transfer.from.toLowerCase()).add(transfer.to.toLowerCase());
  const listeners = await listenersOf(trx, network, [...touched]);
  return [...listeners]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([webhookId, listed]) => [
      webhookId,
      transfers.filter((transfer) => listed.has(transfer.from.toLowerCase()) || listed.has(transfer.to.toLowerCase())),
    ]);
}

/** One delivery per block of the transfers, as the webhook's type tells them (NFT_ACTIVITY takes NFTs only). */
async function enqueueActivity(
  trx: Trx,
  webhookId: string,
  type: WebhookType,
  network: string,
  transfers: readonly Transfer[],
  removed: boolean,
  at: number,
): Promise<void> {
  const told = type === 'NFT_ACTIVITY' ? transfers.filter(isNftTransfer) : transfers;
  const blocks = byBlock(told);
  const seqs = await reserveSeqs(trx, webhookId, blocks.length);
  const rows = blocks.map(({ block, transfers: inBlock }, index) => {
    const activity =
      type === 'NFT_ACTIVITY'
        ? inBlock.filter(isNftTransfer).map((transfer) => activityItem(transfer, removed))
        : inBlock.map((transfer) => addressActivityItem(transfer, removed));
    return deliveryRow(webhookId, seqs[index]!, block, type, { network, activity }, at);
  });
  await insertChunked(trx, 'webhook_deliveries', rows);
}

export function deliveryRow(webhookId: string, seq: number, block: number | null, type: WebhookType, event: WebhookEvent, at: number): WebhookDeliveryRow {
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
export async function reserveSeqs(trx: Trx, webhookId: string, count: number): Promise<number[]> {
  const row = await trx
    .updateTable('webhooks')
    .set((eb) => ({ next_seq: eb('next_seq', '+', count) }))
    .where('id', '=', webhookId)
    .returning('next_seq')
    .executeTakeFirstOrThrow();
  const first = Number(row.next_seq) - count;
  return Array.from({ length: count }, (_, index) => first + index);
}

async function activeWebhooks(trx: Trx, network: string, type: WebhookType): Promise<Array<{ id: string; matches: FilterMatcher }>> {
  const rows = await trx
    .selectFrom('webhooks')
    .select(['id', 'contract_addresses', 'token_ids', 'nft_tokens'])
    .where('network', '=', network)
    .where('type', '=', type)
    .where('state', '=', 'active')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ id: row.id, matches: filterMatcher(filtersOf(row)) }));
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
