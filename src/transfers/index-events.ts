import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/schema.ts';
import type { BlockRef, Transfer } from './transfer.ts';

// What the index's writes announce (src/indexer/index-writes.ts), each inside the write's own
// transaction: a consumer (the webhook outbox, the NFT products' per-network data) commits with
// the index or not at all. The runtime hands the indexer the consumers' hooks (src/runtime/).

/** A step's transfers, committed. */
export interface TransfersIndexed {
  network: string;
  from: number;
  to: number;
  transfers: readonly Transfer[];
}

/** Transfers a reorg undid (docs/webhooks.md#payload: delivered with `removed: true`). */
export interface TransfersUndone {
  network: string;
  /** The newest block both forks share; everything after it was removed. */
  ancestor: BlockRef;
  removed: readonly Transfer[];
}

/** The network's whole index was dropped, to be built again from its first block. */
export interface IndexReset {
  network: string;
  reason: 'genesis-changed' | 'reorg-beyond-window';
}

type Hook<E> = (event: E, trx: Kysely<DatabaseSchema>) => Promise<void> | void;

/** Called inside the index's transaction (`trx`); a throw rolls the write back and the step is tried again. */
export interface IndexHooks {
  onTransfers?: Hook<TransfersIndexed>;
  onReorg?: Hook<TransfersUndone>;
  onReset?: Hook<IndexReset>;
}
