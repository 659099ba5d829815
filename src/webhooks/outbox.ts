import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DatabaseSchema, WebhookDeliveryRow } from '../db/schema.ts';
import type { IndexHooks, IndexReset, TransfersIndexed, TransfersUndone } from '../transfers/index-events.ts';
import type { NativeTransfer, NftKind, Transfer } from '../transfers/transfer.ts';
import { listenersOf } from './addresses.ts';
import {
  activityItem,
  addressActivityByBlock,
  byBlock,
  isNftTransfer,
  metadataCategory,
  metadataSnapshot,
  type NativeCurrency,
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
// address the step's transfers (token and native) touch. A reorg queues, per webhook, the undone transfers it was sent,
// marked removed, whatever its state now: a paused webhook gets them, in order, when resumed. Which
// transfers each webhook was sent is kept while a reorg can undo them (the indexer's reorg window).

type Trx = Kysely<DatabaseSchema>;

export interface WebhookOutboxOptions {
  /** The indexer's reorg window: sent transfers older than this below the index's block are forgotten. */
  reorgWindow: number;
  /** The network's native coin: ADDRESS_ACTIVITY tells native transfers in it (`asset`, `value`). */
  nativeCurrency: (network: string) => NativeCurrency;
  now?: () => number;
}

/** What one webhook hears of a step or a rollback: token transfers and native ones. */
interface Matched {
  transfers: readonly Transfer[];
  natives: readonly NativeTransfer[];
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
  const enqueue = (trx: Trx, webhookId: string, type: WebhookType, network: string, matched: Matched, removed: boolean) =>
    enqueueActivity(trx, { webhookId, type, network, matched, removed, at: now(), currency: options.nativeCurrency });
  return {
    async onTransfers(event: TransfersIndexed, trx: Trx) {
      const nfts = event.transfers.filter(isNftTransfer);
      if (nfts.length > 0) {
        for (const webhook of await activeWebhooks(trx, event.network, 'NFT_ACTIVITY')) {
          const matched = { transfers: nfts.filter((transfer) => webhook.matches(transfer.contract, transfer.tokenId)), natives: [] };
          if (matched.transfers.length === 0) continue;
          await enqueue(trx, webhook.id, 'NFT_ACTIVITY', event.network, matched, false);
          await recordSent(trx, webhook.id, event.network, matched);
        }
      }
      for (const [webhookId, matched] of await addressMatches(trx, event.network, event)) {
        await enqueue(trx, webhookId, 'ADDRESS_ACTIVITY', event.network, matched, false);
        await recordSent(trx, webhookId, event.network, matched);
      }
      for (const table of SENT_TABLES)
        await trx
          .deleteFrom(table)
          .where('network', '=', event.network)
          .where('block_number', '<', event.to - options.reorgWindow)
          .execute();
    },

    async onReorg(event: TransfersUndone, trx: Trx) {
      const after = event.ancestor.number;
      const sentTokens = await trx
        .selectFrom('webhook_sent_transfers as s')
        .innerJoin('webhooks as w', 'w.id', 's.webhook_id')
        .select(['s.webhook_id', 'w.type', 's.block_number', 's.log_index', 's.batch_index'])
        .where('s.network', '=', event.network)
        .where('s.block_number', '>', after)
        .execute();
      const sentNatives = await trx
        .selectFrom('webhook_sent_native_transfers as s')
        .innerJoin('webhooks as w', 'w.id', 's.webhook_id')
        .select(['s.webhook_id', 'w.type', 's.block_number', 's.transaction_index', 's.trace_index'])
        .where('s.network', '=', event.network)
        .where('s.block_number', '>', after)
        .execute();
      if (sentTokens.length === 0 && sentNatives.length === 0) return;
      const removed = new Map(event.removed.map((transfer) => [keyText(transferKey(transfer)), transfer]));
      const removedNative = new Map(event.removedNative.map((transfer) => [nativeKeyText(nativeKey(transfer)), transfer]));
      const byWebhook = new Map<string, { type: WebhookType; transfers: Transfer[]; natives: NativeTransfer[] }>();
      const entryOf = (row: { webhook_id: string; type: WebhookType }) => {
        let entry = byWebhook.get(row.webhook_id);
        if (!entry) byWebhook.set(row.webhook_id, (entry = { type: row.type, transfers: [], natives: [] }));
        return entry;
      };
      for (const row of sentTokens) {
        const transfer = removed.get(keyText(row));
        if (transfer) entryOf(row).transfers.push(transfer);
      }
      for (const row of sentNatives) {
        const transfer = removedNative.get(nativeKeyText(row));
        if (transfer) entryOf(row).natives.push(transfer);
      }
      for (const [webhookId, { type, ...matched }] of [...byWebhook].sort(([a], [b]) => (a < b ? -1 : 1)))
        await enqueue(trx, webhookId, type, event.network, matched, true);
      for (const table of SENT_TABLES) await trx.deleteFrom(table).where('network', '=', event.network).where('block_number', '>', after).execute();
    },

    async onReset(event: IndexReset, trx: Trx) {
      for (const table of SENT_TABLES) await trx.deleteFrom(table).where('network', '=', event.network).execute();
    },
  };
}

/** Which transfers each webhook was sent, token and native, kept while a reorg can undo them. */
const SENT_TABLES = ['webhook_sent_transfers', 'webhook_sent_native_transfers'] as const;

async function recordSent(trx: Trx, webhookId: string, network: string, matched: Matched): Promise<void> {
  const common = { webhook_id: webhookId, network };
  await insertChunked(
    trx,
    'webhook_sent_transfers',
    matched.transfers.map((transfer) => ({ ...common, ...transferKey(transfer) })),
  );
  await insertChunked(
    trx,
    'webhook_sent_native_transfers',
    matched.natives.map((transfer) => ({ ...common, ...nativeKey(transfer) })),
  );
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
 * transfers (token and native) that touch one of its addresses, in webhook id order.
 */
async function addressMatches(trx: Trx, network: string, step: { transfers: readonly Transfer[]; nativeTransfers: readonly NativeTransfer[] }) {
  const { transfers, nativeTransfers } = step;
  const touched = new Set<string>();
  for (const transfer of [...transfers, ...nativeTransfers]) touched.add(transfer.from.toLowerCase()).add(transfer.to.toLowerCase());
  if (touched.size === 0) return [];
  const listeners = await listenersOf(trx, network, [...touched]);
  return [...listeners]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([webhookId, listed]): [string, Matched] => {
      const touches = (transfer: { from: string; to: string }) => listed.has(transfer.from.toLowerCase()) || listed.has(transfer.to.toLowerCase());
      return [webhookId, { transfers: transfers.filter(touches), natives: nativeTransfers.filter(touches) }];
    });
}

/** One delivery per block of the transfers, as the webhook's type tells them (NFT_ACTIVITY takes NFTs only). */
async function enqueueActivity(
  trx: Trx,
  input: {
    webhookId: string;
    type: WebhookType;
    network: string;
    matched: Matched;
    removed: boolean;
    at: number;
    currency: (network: string) => NativeCurrency;
  },
): Promise<void> {
  const { webhookId, type, network, matched, removed } = input;
  const blocks =
    type === 'NFT_ACTIVITY'
      ? byBlock(matched.transfers.filter(isNftTransfer)).map(({ block, transfers }) => ({
          block,
          activity: transfers.map((transfer) => activityItem(transfer, removed)),
        }))
      : addressActivityByBlock(matched.transfers, matched.natives, input.currency(network), removed);
  const seqs = await reserveSeqs(trx, webhookId, blocks.length);
  const rows = blocks.map(({ block, activity }, index) => deliveryRow(webhookId, seqs[index]!, block, type, { network, activity }, input.at));
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

type NativeKey = { block_number: number; transaction_index: number; trace_index: number };

function nativeKey(transfer: NativeTransfer): NativeKey {
  return { block_number: transfer.blockNumber, transaction_index: transfer.transactionIndex, trace_index: transfer.traceIndex };
}

function nativeKeyText(key: NativeKey): string {
  return `${key.block_number}:${key.transaction_index}:${key.trace_index}`;
}

async function insertChunked<T extends 'webhook_deliveries' | 'webhook_sent_transfers' | 'webhook_sent_native_transfers'>(
  trx: Trx,
  table: T,
  rows: Array<DatabaseSchema[T]>,
): Promise<void> {
  for (let offset = 0; offset < rows.length; offset += ROWS_PER_STATEMENT) {
    await trx
      .insertInto(table)
      .values(rows.slice(offset, offset + ROWS_PER_STATEMENT) as never)
      .execute();
  }
}
