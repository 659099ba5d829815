import type { Kysely } from 'kysely';
import type { Hex } from 'viem';
import type { DatabaseSchema } from '../db/schema.ts';
import type { BlockRef, ChainLog, NativeTransfer, Transfer } from './transfer.ts';

// What the index's writes announce (src/indexer/index-writes.ts), each inside the write's own
// transaction: a consumer (the webhook outbox, the NFT products' per-network data) commits with
// the index or not at all. The runtime hands the indexer the consumers' hooks (src/runtime/).

/** A step's transfers, committed: its token transfers and its native ones (either may be empty, not both). */
export interface TransfersIndexed {
  network: string;
  from: number;
  to: number;
  transfers: readonly Transfer[];
  nativeTransfers: readonly NativeTransfer[];
}

/** Transfers a reorg undid (docs/webhooks.md#payload: delivered with `removed: true`). */
export interface TransfersUndone {
  network: string;
  /** The newest block both forks share; everything after it was removed. */
  ancestor: BlockRef;
  removed: readonly Transfer[];
  removedNative: readonly NativeTransfer[];
}

/** The network's whole index was dropped, to be built again from its first block. */
export interface IndexReset {
  network: string;
  /** index-upgraded: the index was built by an older version, which recorded less (src/indexer/checkpoints.ts). */
  reason: 'genesis-changed' | 'reorg-beyond-window' | 'index-upgraded';
}

/** A step's logs of the events a consumer follows besides transfers (IndexHooks.followedLogs), committed. */
interface LogsIndexed {
  network: string;
  from: number;
  to: number;
  /** In block and log order; every one of a followed topic0, from any contract. */
  logs: readonly ChainLog[];
}

type Hook<E> = (event: E, trx: Kysely<DatabaseSchema>) => Promise<void> | void;

/** Called inside the index's transaction (`trx`); a throw rolls the write back and the step is tried again. */
export interface IndexHooks {
  onTransfers?: Hook<TransfersIndexed>;
  onReorg?: Hook<TransfersUndone>;
  onReset?: Hook<IndexReset>;
  /**
   * Events a consumer follows beside the transfers (a marketplace's listings and sales): their
   * topic0s join the index's one eth_getLogs, and their logs are handed over in the step's
   * transaction. A reorg or reset is the consumer's onReorg or onReset to apply to what it kept.
   */
  followedLogs?: { topics: readonly Hex[]; onLogs: Hook<LogsIndexed> };
}
