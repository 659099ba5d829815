import type { Kysely } from 'kysely';
import type { Hex } from 'viem';
import type { DatabaseSchema, IndexerCheckpointRow } from '../db/schema.ts';
import type { BlockRef } from '../transfers/transfer.ts';

// A network's checkpoint row: where the index stands, read before each step and moved only by
// index-writes.ts, in the transaction that stores the step. The row is made when a network is
// first led, before any block is indexed, so its state and errors show from the start.

/**
 * What an index records: 1, transfer logs; 2, also their transaction's position and native
 * transfers. An index of an older version is dropped and rebuilt from its first block.
 */
export const INDEX_VERSION = 2;

export interface Checkpoint {
  network: string;
  genesisHash: Hex;
  /** The last block indexed, with its timestamp; null: none yet. */
  block: (BlockRef & { timestamp: number | null }) | null;
  /** The first block not yet indexed. */
  nextBlock: number;
  head: number;
  state: IndexerCheckpointRow['state'];
  /** INDEX_VERSION when the index was begun. */
  version: number;
  internalTransfers: IndexerCheckpointRow['internal_transfers'];
  internalFromBlock: number | null;
}

export async function readCheckpoint(db: Kysely<DatabaseSchema>, network: string): Promise<Checkpoint | null> {
  const row = await db.selectFrom('indexer_checkpoints').selectAll().where('network', '=', network).executeTakeFirst();
  return row ? checkpointOf(row) : null;
}

interface FreshStart {
  genesisHash: Hex;
  startBlock: number;
  head: number;
  now: number;
}

/** The checkpoint of a chain nothing of which is indexed yet: a network led for the first time, or reset. */
export function freshCheckpoint(start: FreshStart) {
  return {
    genesis_hash: start.genesisHash.toLowerCase(),
    block_number: start.startBlock - 1,
    block_hash: null,
    block_timestamp: null,
    head_number: start.head,
    state: 'backfilling',
    updated_at: start.now,
    index_version: INDEX_VERSION,
    internal_transfers: 'pending',
    internal_from_block: null,
  } satisfies Partial<IndexerCheckpointRow>;
}

/** Makes the row of a network not indexed yet (its genesis and first block); an existing row is kept. */
export async function createCheckpoint(db: Kysely<DatabaseSchema>, input: FreshStart & { network: string }): Promise<void> {
  await db
    .insertInto('indexer_checkpoints')
    .values({ network: input.network, ...freshCheckpoint(input), last_error: null, last_error_at: null })
    .onConflict((conflict) => conflict.column('network').doNothing())
    .execute();
}

/** The head seen and the state, when nothing was indexed (the follower is level with the confirmed head). */
export async function recordHead(
  db: Kysely<DatabaseSchema>,
  network: string,
  progress: { head: number; state: Checkpoint['state']; now: number },
): Promise<void> {
  await db
    .updateTable('indexer_checkpoints')
    .set({ head_number: progress.head, state: progress.state, updated_at: progress.now })
    .where('network', '=', network)
    .execute();
}

/** The last failure, shown by the status until a later step succeeds. */
export async function recordError(db: Kysely<DatabaseSchema>, network: string, message: string, now: number): Promise<void> {
  await db
    .updateTable('indexer_checkpoints')
    .set({ last_error: message.slice(0, 1000), last_error_at: now })
    .where('network', '=', network)
    .execute();
}

/** The kept hashes of recent blocks, newest first: where a reorg's common ancestor is looked for. */
export async function recentBlocks(db: Kysely<DatabaseSchema>, network: string): Promise<Array<BlockRef & { timestamp: number }>> {
  const rows = await db
    .selectFrom('indexer_blocks')
    .select(['block_number', 'block_hash', 'block_timestamp'])
    .where('network', '=', network)
    .orderBy('block_number', 'desc')
    .execute();
  return rows.map((row) => ({ number: row.block_number, hash: row.block_hash as Hex, timestamp: row.block_timestamp }));
}

function checkpointOf(row: IndexerCheckpointRow): Checkpoint {
  return {
    network: row.network,
    genesisHash: row.genesis_hash as Hex,
    block: row.block_hash === null ? null : { number: row.block_number, hash: row.block_hash as Hex, timestamp: row.block_timestamp },
    nextBlock: row.block_number + 1,
    head: row.head_number,
    state: row.state,
    version: row.index_version,
    internalTransfers: row.internal_transfers,
    internalFromBlock: row.internal_from_block,
  };
}
