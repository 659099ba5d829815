import type { Kysely } from 'kysely';
import type { Address, Hex } from 'viem';
import { bulkInsert } from '../db/bulk-insert.ts';
import type { DatabaseSchema, IndexerCheckpointRow, IndexerNativeTransferRow, IndexerNftBalanceRow, IndexerTransferRow } from '../db/schema.ts';
import { freshCheckpoint } from './checkpoints.ts';
import { holderTokens, nftBalanceDeltas, nftKey, type NftBalanceDelta } from './holdings.ts';
import { fenceLease } from './lease.ts';
import type { IndexHooks, IndexReset } from '../transfers/index-events.ts';
import type { BlockRef, ChainLog, NativeTransfer, Transfer } from '../transfers/transfer.ts';

// Every write of the transfer index, each in ONE transaction that first renews the writer's lease
// (lease.ts): a step's transfers with their effect on the holder and NFT views, its native
// transfers, its block hashes and the moved checkpoint; a rollback that deletes what a reorg undid and reverses its effect; a
// reset. A crash anywhere loses nothing and counts nothing twice. Hooks run inside the same
// transaction, so a consumer (webhooks' outbox, the marketplaces' sales) commits with the index or not at all.

export interface WriterLease {
  network: string;
  holder: string;
  now: number;
  leaseMs: number;
}

export class CheckpointMovedError extends Error {
  override name = 'CheckpointMovedError';
  constructor(network: string) {
    super(`the checkpoint of ${network} moved under this writer`);
  }
}

export interface IndexStep {
  lease: WriterLease;
  /** The checkpoint's block number the step starts after (a compare-and-set). */
  after: number;
  from: number;
  /** The step's last block: the new checkpoint. */
  to: BlockRef & { timestamp: number };
  /** Block hashes to keep for finding a reorg's ancestor. */
  blocks: ReadonlyArray<BlockRef & { timestamp: number }>;
  transfers: readonly Transfer[];
  nativeTransfers: readonly NativeTransfer[];
  /** Whether the step's native transfers include the internal ones (the node answered call traces). */
  internalTransfers: 'recorded' | 'unavailable';
  /** The index holds every internal transfer from this block on, once the step is stored; null: from its first block (or none, 'unavailable'). */
  internalFromBlock: number | null;
  /** The logs of the events a consumer follows beside the transfers (IndexHooks.followedLogs), in order. */
  logs?: readonly ChainLog[];
  head: number;
  state: IndexerCheckpointRow['state'];
  /** Kept block hashes reach this many blocks below the checkpoint. */
  reorgWindow: number;
  /**
   * Holder-token pairs this writer knows are stored (`holder:contract`): not written again. Filled
   * once the step commits; whoever rolls back or resets the network must empty it.
   */
  knownHolderTokens?: KnownHolderTokens;
}

/** The pairs of `holder:contract` a writer stored, as a bounded set. */
interface KnownHolderTokens {
  has(key: string): boolean;
  set(key: string, value: true): unknown;
}

/** Rows per statement: well under both engines' limits on bound parameters. */
const ROWS_PER_STATEMENT = 300;

const TRANSFER_COLUMNS = [
  'network',
  'block_number',
  'log_index',
  'batch_index',
  'block_hash',
  'block_timestamp',
  'transaction_hash',
  'transaction_index',
  'contract',
  'kind',
  'from_address',
  'to_address',
  'token_id',
  'amount',
] as const satisfies ReadonlyArray<keyof IndexerTransferRow>;
const insertTransfers = bulkInsert<IndexerTransferRow>(TRANSFER_COLUMNS, (executor, rows) => executor.insertInto('indexer_transfers').values(rows));
const NATIVE_TRANSFER_COLUMNS = [
  'network',
  'block_number',
  'transaction_index',
  'trace_index',
  'block_hash',
  'block_timestamp',
  'transaction_hash',
  'kind',
  'from_address',
  'to_address',
  'amount',
] as const satisfies ReadonlyArray<keyof IndexerNativeTransferRow>;
const insertNativeTransfers = bulkInsert<IndexerNativeTransferRow>(NATIVE_TRANSFER_COLUMNS, (executor, rows) =>
  executor.insertInto('indexer_native_transfers').values(rows),
);
const insertHolderTokens = bulkInsert<{ network: string; holder: string; contract: string; first_block: number }>(
  ['network', 'holder', 'contract', 'first_block'],
  (executor, rows) =>
    executor
      .insertInto('indexer_holder_tokens')
      .values(rows)
      .onConflict((conflict) => conflict.columns(['network', 'holder', 'contract']).doNothing()),
);
/** Keys per lookup of current NFT balances (three parameters each). */
const KEYS_PER_LOOKUP = 150;

export async function applyStep(db: Kysely<DatabaseSchema>, step: IndexStep, hooks: IndexHooks = {}): Promise<void> {
  const { network } = step.lease;
  const known = step.knownHolderTokens;
  // In key order: concurrent writers of one table lock rows in the same order (PostgreSQL).
  const newPairs = holderTokens(step.transfers)
    .filter((pair) => !known?.has(pair.key))
    .sort((a, b) => (a.key < b.key ? -1 : 1));
  await db.transaction().execute(async (trx) => {
    await fenceLease(trx, step.lease);
    const moved = await trx
      .updateTable('indexer_checkpoints')
      .set({
        block_number: step.to.number,
        block_hash: step.to.hash.toLowerCase(),
        block_timestamp: step.to.timestamp,
        head_number: step.head,
        state: step.state,
        updated_at: step.lease.now,
        last_error: null,
        last_error_at: null,
        internal_transfers: step.internalTransfers,
        internal_from_block: step.internalFromBlock,
      })
      .where('network', '=', network)
      .where('block_number', '=', step.after)
      .executeTakeFirst();
    if (moved.numUpdatedRows !== 1n) throw new CheckpointMovedError(network);

    for (const chunk of chunks(step.transfers.map((transfer) => transferRow(network, transfer)))) await insertTransfers.run(db, trx, chunk);
    for (const chunk of chunks(step.nativeTransfers.map((transfer) => nativeTransferRow(network, transfer)))) await insertNativeTransfers.run(db, trx, chunk);
    const pairs = newPairs.map((pair) => ({ network, holder: pair.holder, contract: pair.contract, first_block: pair.firstBlock }));
    // A pair already listed keeps its earlier first block: steps are applied in block order.
    for (const chunk of chunks(pairs)) await insertHolderTokens.run(db, trx, chunk);
    await addNftDeltas(trx, network, nftBalanceDeltas(step.transfers, 1), 'latest-transfer');

    for (const chunk of chunks(
      step.blocks.map((block) => ({ network, block_number: block.number, block_hash: block.hash.toLowerCase(), block_timestamp: block.timestamp })),
    )) {
      await trx
        .insertInto('indexer_blocks')
        .values(chunk)
        .onConflict((conflict) =>
          conflict
            .columns(['network', 'block_number'])
            .doUpdateSet((eb) => ({ block_hash: eb.ref('excluded.block_hash'), block_timestamp: eb.ref('excluded.block_timestamp') })),
        )
        .execute();
    }
    await trx
      .deleteFrom('indexer_blocks')
      .where('network', '=', network)
      .where('block_number', '<', step.to.number - step.reorgWindow)
      .execute();

    if (step.transfers.length > 0 || step.nativeTransfers.length > 0)
      await hooks.onTransfers?.({ network, from: step.from, to: step.to.number, transfers: step.transfers, nativeTransfers: step.nativeTransfers }, trx);
    if (step.logs?.length) await hooks.followedLogs?.onLogs({ network, from: step.from, to: step.to.number, logs: step.logs }, trx);
  });
  for (const pair of newPairs) known?.set(pair.key, true);
}

/**
 * Undoes every block after `ancestor` (one of the kept blocks): deletes its transfers, reverses
 * their effect on both views, forgets the blocks' hashes and moves the checkpoint back. Resolves
 * with the removed transfers (bounded by the reorg window).
 */
export async function rollbackTo(
  db: Kysely<DatabaseSchema>,
  input: { lease: WriterLease; ancestor: BlockRef & { timestamp: number } },
  hooks: IndexHooks = {},
): Promise<Transfer[]> {
  const { network } = input.lease;
  const { ancestor } = input;
  return db.transaction().execute(async (trx) => {
    await fenceLease(trx, input.lease);
    const rows = await trx
      .selectFrom('indexer_transfers')
      .selectAll()
      .where('network', '=', network)
      .where('block_number', '>', ancestor.number)
      .orderBy('block_number')
      .orderBy('log_index')
      .orderBy('batch_index')
      .execute();
    const removed = rows.map(transferOf);
    const removedNative = (
      await trx
        .selectFrom('indexer_native_transfers')
        .selectAll()
        .where('network', '=', network)
        .where('block_number', '>', ancestor.number)
        .orderBy('block_number')
        .orderBy('transaction_index')
        .orderBy('trace_index')
        .execute()
    ).map(nativeTransferOf);
    for (const table of ['indexer_transfers', 'indexer_native_transfers'] as const)
      await trx.deleteFrom(table).where('network', '=', network).where('block_number', '>', ancestor.number).execute();
    // A pair first seen after the ancestor has no transfer left; one seen at or before it keeps one.
    await trx.deleteFrom('indexer_holder_tokens').where('network', '=', network).where('first_block', '>', ancestor.number).execute();
    await addNftDeltas(trx, network, nftBalanceDeltas(removed, -1), 'recompute');
    await trx.deleteFrom('indexer_blocks').where('network', '=', network).where('block_number', '>', ancestor.number).execute();
    await trx
      .updateTable('indexer_checkpoints')
      .set({ block_number: ancestor.number, block_hash: ancestor.hash.toLowerCase(), block_timestamp: ancestor.timestamp, updated_at: input.lease.now })
      .where('network', '=', network)
      .execute();
    await hooks.onReorg?.({ network, ancestor: { number: ancestor.number, hash: ancestor.hash }, removed, removedNative }, trx);
    return removed;
  });
}

/** Drops the network's whole index and sets it to start again at `startBlock` on the chain of `genesisHash`. */
export async function resetIndex(
  db: Kysely<DatabaseSchema>,
  input: { lease: WriterLease; genesisHash: Hex; startBlock: number; head: number; reason: IndexReset['reason'] },
  hooks: IndexHooks = {},
): Promise<void> {
  const { network } = input.lease;
  await db.transaction().execute(async (trx) => {
    await fenceLease(trx, input.lease);
    for (const table of ['indexer_transfers', 'indexer_native_transfers', 'indexer_holder_tokens', 'indexer_nft_balances', 'indexer_blocks'] as const) {
      await trx.deleteFrom(table).where('network', '=', network).execute();
    }
    await trx
      .updateTable('indexer_checkpoints')
      .set(freshCheckpoint({ ...input, now: input.lease.now }))
      .where('network', '=', network)
      .execute();
    await hooks.onReset?.({ network, reason: input.reason }, trx);
  });
}

/**
 * Adds balance changes to the NFT view. Applying, each changed row takes the delta's latest
 * transfer; undoing (after the transfers were deleted), it takes the latest transfer left.
 */
async function addNftDeltas(trx: Kysely<DatabaseSchema>, network: string, deltas: NftBalanceDelta[], last: 'latest-transfer' | 'recompute'): Promise<void> {
  for (let offset = 0; offset < deltas.length; offset += KEYS_PER_LOOKUP) {
    const chunk = deltas.slice(offset, offset + KEYS_PER_LOOKUP);
    const current = await trx
      .selectFrom('indexer_nft_balances')
      .select(['owner', 'contract', 'token_id', 'balance', 'last_block', 'last_log_index'])
      .where('network', '=', network)
      .where((eb) =>
        eb.or(chunk.map((delta) => eb.and([eb('owner', '=', delta.owner), eb('contract', '=', delta.contract), eb('token_id', '=', delta.tokenId)]))),
      )
      .execute();
    const byKey = new Map(current.map((row) => [nftKey(row.owner as Address, row.contract as Address, row.token_id), row]));
    const kept: IndexerNftBalanceRow[] = [];
    const emptied: NftBalanceDelta[] = [];
    for (const delta of chunk) {
      const row = byKey.get(nftKey(delta.owner, delta.contract, delta.tokenId));
      const balance = BigInt(row?.balance ?? '0') + delta.delta;
      if (balance === 0n) {
        if (row) emptied.push(delta);
        continue;
      }
      const latest = last === 'latest-transfer' ? { block: delta.lastBlock, logIndex: delta.lastLogIndex } : await latestTransferOf(trx, network, delta);
      kept.push({
        network,
        owner: delta.owner,
        contract: delta.contract,
        token_id: delta.tokenId,
        kind: delta.kind,
        balance: balance.toString(),
        last_block: latest?.block ?? row?.last_block ?? delta.lastBlock,
        last_log_index: latest?.logIndex ?? row?.last_log_index ?? delta.lastLogIndex,
      });
    }
    if (kept.length > 0) {
      await trx
        .insertInto('indexer_nft_balances')
        .values(kept)
        .onConflict((conflict) =>
          conflict.columns(['network', 'owner', 'contract', 'token_id']).doUpdateSet((eb) => ({
            balance: eb.ref('excluded.balance'),
            kind: eb.ref('excluded.kind'),
            last_block: eb.ref('excluded.last_block'),
            last_log_index: eb.ref('excluded.last_log_index'),
          })),
        )
        .execute();
    }
    if (emptied.length > 0) {
      await trx
        .deleteFrom('indexer_nft_balances')
        .where('network', '=', network)
        .where((eb) =>
          eb.or(emptied.map((delta) => eb.and([eb('owner', '=', delta.owner), eb('contract', '=', delta.contract), eb('token_id', '=', delta.tokenId)]))),
        )
        .execute();
    }
  }
}

/** The latest indexed transfer of a token that names `owner` on either side. */
async function latestTransferOf(trx: Kysely<DatabaseSchema>, network: string, delta: NftBalanceDelta): Promise<{ block: number; logIndex: number } | null> {
  const row = await trx
    .selectFrom('indexer_transfers')
    .select(['block_number', 'log_index'])
    .where('network', '=', network)
    .where('contract', '=', delta.contract)
    .where('token_id', '=', delta.tokenId)
    .where((eb) => eb.or([eb('from_address', '=', delta.owner), eb('to_address', '=', delta.owner)]))
    .orderBy('block_number', 'desc')
    .orderBy('log_index', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { block: row.block_number, logIndex: row.log_index } : null;
}

function transferRow(network: string, transfer: Transfer): IndexerTransferRow {
  return {
    network,
    block_number: transfer.blockNumber,
    log_index: transfer.logIndex,
    batch_index: transfer.batchIndex,
    block_hash: transfer.blockHash.toLowerCase(),
    block_timestamp: transfer.blockTimestamp,
    transaction_hash: transfer.transactionHash.toLowerCase(),
    transaction_index: transfer.transactionIndex,
    contract: transfer.contract,
    kind: transfer.kind,
    from_address: transfer.from,
    to_address: transfer.to,
    token_id: transfer.tokenId,
    amount: transfer.amount,
  };
}

function transferOf(row: IndexerTransferRow): Transfer {
  return {
    blockNumber: row.block_number,
    blockHash: row.block_hash as Hex,
    blockTimestamp: row.block_timestamp,
    transactionHash: row.transaction_hash as Hex,
    transactionIndex: row.transaction_index ?? 0,
    logIndex: row.log_index,
    batchIndex: row.batch_index,
    contract: row.contract as Address,
    kind: row.kind,
    from: row.from_address as Address,
    to: row.to_address as Address,
    tokenId: row.token_id,
    amount: row.amount,
  };
}

function nativeTransferRow(network: string, transfer: NativeTransfer): IndexerNativeTransferRow {
  return {
    network,
    block_number: transfer.blockNumber,
    transaction_index: transfer.transactionIndex,
    trace_index: transfer.traceIndex,
    block_hash: transfer.blockHash.toLowerCase(),
    block_timestamp: transfer.blockTimestamp,
    transaction_hash: transfer.transactionHash.toLowerCase(),
    kind: transfer.kind,
    from_address: transfer.from,
    to_address: transfer.to,
    amount: transfer.amount,
  };
}

function nativeTransferOf(row: IndexerNativeTransferRow): NativeTransfer {
  return {
    blockNumber: row.block_number,
    blockHash: row.block_hash as Hex,
    blockTimestamp: row.block_timestamp,
    transactionHash: row.transaction_hash as Hex,
    transactionIndex: row.transaction_index,
    traceIndex: row.trace_index,
    kind: row.kind,
    from: row.from_address as Address,
    to: row.to_address as Address,
    amount: row.amount,
  };
}

function chunks<T>(rows: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let offset = 0; offset < rows.length; offset += ROWS_PER_STATEMENT) out.push(rows.slice(offset, offset + ROWS_PER_STATEMENT));
  return out;
}
