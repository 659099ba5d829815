import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely, Selectable } from 'kysely';
import type { BroadcastTransactionRow, DatabaseSchema } from '../../db/schema.ts';
import { deliveryRow, reserveSeqs } from '../outbox.ts';
import type { TransactionEvent } from '../payload.ts';
import { pendingTransactionJson, senderAndNonce } from './transaction-json.ts';

// The transaction watcher (docs/webhooks.md#transaction-webhooks): looks at each transaction an app
// broadcast (broadcasts.ts) until the node says it was mined or dropped, and queues the app's
// MINED_TRANSACTION or DROPPED_TRANSACTION deliveries in the transaction that settles it, so each
// is queued once however many processes watch. Mined: the node has its receipt. Dropped: another
// transaction of its sender and nonce was mined (`replaced`), or the node no longer knows it
// `droppedAfterMs` after it was broadcast (`evicted`). A mined transaction is looked at again until
// `reorgDepth` blocks bury it: a reorg that takes its block away queues MINED_TRANSACTION with
// `removed: true`, and it is watched as pending again. Only transactions of apps with a
// transaction webhook on their network are asked about; the others are forgotten once they could
// have been dropped.

/** A network's node, asked in batches (the runtime adapts the gateway's upstream pools). */
export interface TransactionChain {
  /** The calls' answers in call order (`null` for a call the node refused); throws when no node of the network answers. */
  call(network: string, calls: ReadonlyArray<{ method: string; params: unknown[] }>): Promise<unknown[]>;
}

export interface TransactionWatcherOptions {
  db: Kysely<DatabaseSchema>;
  chain: TransactionChain;
  /** How often pending transactions are looked at (WEBHOOK_TX_POLL_INTERVAL_MS). */
  pollIntervalMs: number;
  /** How long after its broadcast a transaction the node no longer knows counts as dropped (WEBHOOK_TX_DROPPED_AFTER_MS). */
  droppedAfterMs: number;
  /** Blocks above a mined transaction's after which a reorg is no longer looked for (WEBHOOK_TX_REORG_DEPTH). */
  reorgDepth: number;
  log?: (entry: { level: 'info' | 'error'; message: string; [field: string]: unknown }) => void;
  now?: () => number;
}

export interface TransactionWatcher {
  start(): void;
  stop(): Promise<void>;
  /** One look at everything due (tests and the loop). */
  round(): Promise<void>;
}

type Row = Selectable<BroadcastTransactionRow>;
type TransactionType = 'MINED_TRANSACTION' | 'DROPPED_TRANSACTION';

/** Transactions looked at per network and round. */
const ROWS_PER_ROUND = 500;

export function createTransactionWatcher(options: TransactionWatcherOptions): TransactionWatcher {
  const { db, chain } = options;
  const now = options.now ?? Date.now;
  const log = options.log ?? ((entry) => console.log(JSON.stringify({ component: 'transaction-watcher', ...entry })));
  const stopping = new AbortController();
  let loop: Promise<void> | null = null;

  /** The (network, app) pairs among `rows` that have a transaction webhook, active or paused. */
  async function watchedApps(rows: readonly Row[]): Promise<Set<string>> {
    const apps = [...new Set(rows.map((row) => row.app_id))];
    if (apps.length === 0) return new Set();
    const hooks = await db
      .selectFrom('webhooks')
      .select(['network', 'app_id'])
      .where('type', 'in', ['MINED_TRANSACTION', 'DROPPED_TRANSACTION'])
      .where('app_id', 'in', apps)
      .execute();
    return new Set(hooks.map((hook) => `${hook.network}:${hook.app_id}`));
  }

  /** Moves a row from `from` to its new state and queues the deliveries of `type`, in one transaction; nothing when another process moved it first. */
  async function settle(
    row: Row,
    from: Row['status'],
    set: Partial<BroadcastTransactionRow>,
    type: TransactionType,
    event: Omit<TransactionEvent, 'appId' | 'network'>,
  ) {
    const at = now();
    await db.transaction().execute(async (trx) => {
      let update = trx
        .updateTable('broadcast_transactions')
        .set(set)
        .where('network', '=', row.network)
        .where('hash', '=', row.hash)
        .where('status', '=', from);
      if (from === 'mined') update = update.where('block_hash', '=', row.block_hash);
      const moved = await update.executeTakeFirst();
      if (moved.numUpdatedRows !== 1n) return;
      const hooks = await trx
        .selectFrom('webhooks')
        .select('id')
        .where('network', '=', row.network)
        .where('app_id', '=', row.app_id)
        .where('type', '=', type)
        .where('state', '=', 'active')
        .orderBy('id')
        .execute();
      const block = typeof set.block_number === 'number' ? set.block_number : row.block_number;
      for (const hook of hooks) {
        const [seq] = await reserveSeqs(trx, hook.id, 1);
        const payload = { appId: row.app_id, network: row.network, ...event };
        await trx
          .insertInto('webhook_deliveries')
          .values(deliveryRow(hook.id, seq!, type === 'MINED_TRANSACTION' ? block : null, type, payload, at))
          .execute();
      }
    });
  }

  async function lookAtPending(network: string, rows: Row[]): Promise<void> {
    const at = now();
    const receipts = await chain.call(
      network,
      rows.map((row) => ({ method: 'eth_getTransactionReceipt', params: [row.hash] })),
    );
    const mined = rows.filter((_, index) => isObject(receipts[index]));
    if (mined.length > 0) {
      const transactions = await chain.call(
        network,
        mined.map((row) => ({ method: 'eth_getTransactionByHash', params: [row.hash] })),
      );
      for (const [index, row] of mined.entries()) {
        const receipt = receipts[rows.indexOf(row)] as { blockNumber: string; blockHash: string };
        const transaction = transactions[index];
        if (!isObject(transaction)) continue; // the node forgot it between the two asks: next round
        await settle(
          row,
          'pending',
          { status: 'mined', block_number: Number(BigInt(receipt.blockNumber)), block_hash: receipt.blockHash.toLowerCase(), settled_at: at },
          'MINED_TRANSACTION',
          { transaction },
        );
      }
    }

    const waiting = rows.filter((row) => !mined.includes(row));
    const signed = new Map<Row, { sender: string; nonce: bigint }>();
    for (const row of waiting) {
      const known = row.sender !== null && row.nonce !== null ? { sender: row.sender, nonce: BigInt(row.nonce) } : await senderAndNonce(row.raw);
      if (!known) continue;
      signed.set(row, known);
      if (row.sender === null) {
        await db
          .updateTable('broadcast_transactions')
          .set({ sender: known.sender, nonce: known.nonce.toString() })
          .where('network', '=', row.network)
          .where('hash', '=', row.hash)
          .execute();
      }
    }
    const senders = [...new Set([...signed.values()].map((entry) => entry.sender))];
    const counts = new Map<string, bigint>();
    if (senders.length > 0) {
      const answers = await chain.call(
        network,
        senders.map((sender) => ({ method: 'eth_getTransactionCount', params: [sender, 'latest'] })),
      );
      senders.forEach((sender, index) => {
        if (typeof answers[index] === 'string') counts.set(sender, BigInt(answers[index] as string));
      });
    }
    const old = waiting.filter((row) => at - row.broadcast_at >= options.droppedAfterMs);
    const stillKnown =
      old.length === 0
        ? []
        : await chain.call(
            network,
            old.map((row) => ({ method: 'eth_getTransactionByHash', params: [row.hash] })),
          );
    // Its nonce used, it was mined since its receipt was asked for, or another took its place: asked again to tell which.
    const nonceUsed = waiting.filter((row) => {
      const entry = signed.get(row);
      return entry !== undefined && (counts.get(entry.sender) ?? -1n) > entry.nonce;
    });
    const lateReceipts =
      nonceUsed.length === 0
        ? []
        : await chain.call(
            network,
            nonceUsed.map((row) => ({ method: 'eth_getTransactionReceipt', params: [row.hash] })),
          );
    for (const row of waiting) {
      const usedIndex = nonceUsed.indexOf(row);
      if (usedIndex !== -1 && isObject(lateReceipts[usedIndex])) continue; // mined after all: the next round says so
      const replaced = usedIndex !== -1;
      const oldIndex = old.indexOf(row);
      const evicted = oldIndex !== -1 && stillKnown[oldIndex] === null;
      if (replaced || evicted) {
        const transaction = (await pendingTransactionJson(row.raw)) ?? { hash: row.hash };
        await settle(row, 'pending', { status: 'dropped', settled_at: at }, 'DROPPED_TRANSACTION', { transaction, reason: replaced ? 'replaced' : 'evicted' });
        // A dropped transaction is not looked at again; broadcast again, it is recorded anew.
        await db.deleteFrom('broadcast_transactions').where('network', '=', row.network).where('hash', '=', row.hash).where('status', '=', 'dropped').execute();
      } else {
        await db
          .updateTable('broadcast_transactions')
          .set({ next_check_at: at + options.pollIntervalMs })
          .where('network', '=', row.network)
          .where('hash', '=', row.hash)
          .where('status', '=', 'pending')
          .execute();
      }
    }
  }

  /** Mined transactions whose block a reorg took away go back to pending, their webhooks told; buried ones are forgotten. */
  async function lookAtMined(network: string, rows: Row[]): Promise<void> {
    const [head] = await chain.call(network, [{ method: 'eth_blockNumber', params: [] }]);
    if (typeof head !== 'string') return;
    const headNumber = Number(BigInt(head));
    const numbers = [...new Set(rows.map((row) => row.block_number!))];
    const blocks = await chain.call(
      network,
      numbers.map((number) => ({ method: 'eth_getBlockByNumber', params: [`0x${number.toString(16)}`, false] })),
    );
    const hashAt = new Map(
      numbers.map((number, index) => [number, isObject(blocks[index]) ? String((blocks[index] as { hash: string }).hash).toLowerCase() : null]),
    );
    for (const row of rows) {
      if (hashAt.get(row.block_number!) !== row.block_hash) {
        const transaction = { hash: row.hash, blockHash: row.block_hash, blockNumber: `0x${row.block_number!.toString(16)}` };
        await settle(row, 'mined', { status: 'pending', block_number: null, block_hash: null, settled_at: null, next_check_at: now() }, 'MINED_TRANSACTION', {
          transaction,
          removed: true,
        });
      } else if (headNumber - row.block_number! >= options.reorgDepth) {
        await db.deleteFrom('broadcast_transactions').where('network', '=', row.network).where('hash', '=', row.hash).where('status', '=', 'mined').execute();
      }
    }
  }

  async function round(): Promise<void> {
    const at = now();
    const due = await db
      .selectFrom('broadcast_transactions')
      .selectAll()
      .where('status', '=', 'pending')
      .where('next_check_at', '<=', at)
      .orderBy('next_check_at')
      .limit(ROWS_PER_ROUND)
      .execute();
    const mined = await db
      .selectFrom('broadcast_transactions')
      .selectAll()
      .where('status', '=', 'mined')
      .orderBy('block_number')
      .limit(ROWS_PER_ROUND)
      .execute();
    const watched = await watchedApps([...due, ...mined]);
    const isWatched = (row: Row) => watched.has(`${row.network}:${row.app_id}`);
    for (const row of due.filter((candidate) => !isWatched(candidate))) {
      // No webhook hears this app here: looked at again in a while (a webhook may come), forgotten once it could have been dropped.
      const forget = at - row.broadcast_at >= options.droppedAfterMs;
      const query = forget
        ? db.deleteFrom('broadcast_transactions').where('network', '=', row.network).where('hash', '=', row.hash)
        : db
            .updateTable('broadcast_transactions')
            .set({ next_check_at: at + options.pollIntervalMs })
            .where('network', '=', row.network)
            .where('hash', '=', row.hash);
      await query.execute();
    }
    for (const network of new Set([...due, ...mined].map((row) => row.network))) {
      try {
        const pending = due.filter((row) => row.network === network && isWatched(row));
        if (pending.length > 0) await lookAtPending(network, pending);
        const buried = mined.filter((row) => row.network === network);
        if (buried.length > 0) await lookAtMined(network, buried);
      } catch (error) {
        log({
          level: 'error',
          message: 'looking at broadcast transactions failed; retrying next round',
          network,
          cause: error instanceof Error ? error.message : String(error),
        });
      }
    }
  }

  async function run(): Promise<void> {
    while (!stopping.signal.aborted) {
      try {
        await round();
      } catch (error) {
        log({ level: 'error', message: 'a round of the transaction watcher failed', cause: error instanceof Error ? error.message : String(error) });
      }
      await sleep(options.pollIntervalMs, undefined, { signal: stopping.signal }).catch(() => undefined);
    }
  }

  return {
    start() {
      if (loop || stopping.signal.aborted) return;
      loop = run();
    },
    async stop() {
      stopping.abort();
      await loop;
    },
    round,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
