import { sql, type Expression, type ExpressionBuilder, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Address, Hex } from 'viem';
import type { DatabaseSchema } from '../db/schema.ts';
import type { TransferPosition } from '../node/rpc/methods/transfers-page-key.ts';
import type { NativeTransferKind, TransferKind } from './transfer.ts';

// The transfers of both tables in one order (crucible_getAssetTransfers, docs/token-data.md#crucible_getassettransfers): by block,
// transaction, then within a transaction its own value, the calls inside it, its logs. Each table is
// read with its own query (by address through its by-address indexes, or by block), a page and one
// more, and the two are merged; a page starts after the position its caller passes back (a keyset, so
// a deep page costs what the first does). An ERC-1155 batch is one transfer: its ids and amounts
// are read with it.
//
// SQLite's planner, without statistics, takes the primary key (network, block, …) over an address's
// index whenever the query bounds the blocks, and then reads every transfer of the range. So the
// by-address indexes lead with the address and hold no network, and a query by address names its
// network in a form no index serves (`network || '' = ?`): the address's index is the only one
// that fits, on both engines.

export interface AssetTransfersFilter {
  /** Inclusive; toBlock at most the last block indexed. */
  fromBlock: number;
  toBlock: number;
  from: Address | null;
  to: Address | null;
  /** Token transfers of these contracts only (native transfers are not filtered by it). */
  contracts: readonly Address[] | null;
  native: readonly NativeTransferKind[];
  tokens: readonly TransferKind[];
  /** Leave out native and ERC-20 transfers of zero. */
  excludeZeroValue: boolean;
  order: 'asc' | 'desc';
  /** Start after this transfer (in `order`). */
  after: TransferPosition | null;
  limit: number;
}

/** One transfer as the index holds it. */
export interface IndexedAssetTransfer {
  position: TransferPosition;
  blockTimestamp: number | null;
  transactionHash: Hex;
  kind: NativeTransferKind | TransferKind;
  from: Address;
  to: Address;
  /** The token's contract; null for native transfers. */
  contract: Address | null;
  /** Decimal; null for native and ERC-20 transfers. */
  tokenId: string | null;
  /** Decimal. */
  amount: string;
  /** An ERC-1155 log's every id and amount (one for TransferSingle), decimal; null for the other kinds. */
  batch: Array<{ tokenId: string; amount: string }> | null;
}

export interface AssetTransfersPage {
  transfers: IndexedAssetTransfer[];
  /** Where the next page starts (the last transfer's position); null on the last page. */
  next: TransferPosition | null;
}

/** (block, log index) pairs looked up at once for the ids of ERC-1155 batches. */
const BATCHES_PER_LOOKUP = 200;

export async function assetTransfers(db: Kysely<DatabaseSchema>, network: string, filter: AssetTransfersFilter): Promise<AssetTransfersPage> {
  const [logRows, nativeRows] = await Promise.all([
    filter.tokens.length > 0 ? tokenTransfers(db, network, filter) : [],
    filter.native.length > 0 ? nativeTransfers(db, network, filter) : [],
  ]);
  const sign = filter.order === 'asc' ? 1 : -1;
  const merged = [...logRows, ...nativeRows].sort((a, b) => sign * comparePositions(a.position, b.position));
  const page = merged.slice(0, filter.limit);
  await addBatches(db, network, page);
  return { transfers: page, next: merged.length > filter.limit ? page.at(-1)!.position : null };
}

function comparePositions(a: TransferPosition, b: TransferPosition): number {
  return a.block - b.block || a.transactionIndex - b.transactionIndex || a.part - b.part || a.index - b.index;
}

type Comparison = '>' | '<';

/** The network condition: one no index serves when the query goes by address (see the top of this file). */
function networkIs(filter: AssetTransfersFilter, network: string): RawBuilder<SqlBool> {
  return filter.from || filter.to ? sql<SqlBool>`network || '' = ${network}` : sql<SqlBool>`network = ${network}`;
}

/** Token transfers (one row per log: a batch's first id stands for it), a page and one more. */
async function tokenTransfers(db: Kysely<DatabaseSchema>, network: string, filter: AssetTransfersFilter): Promise<IndexedAssetTransfer[]> {
  const { after, order } = filter;
  const beyond: Comparison = order === 'asc' ? '>' : '<';
  let query = db
    .selectFrom('indexer_transfers')
    .select([
      'block_number',
      'log_index',
      'transaction_index',
      'block_timestamp',
      'transaction_hash',
      'kind',
      'from_address',
      'to_address',
      'contract',
      'token_id',
      'amount',
    ])
    .where(networkIs(filter, network))
    .where('batch_index', '=', 0)
    .where('kind', 'in', filter.tokens)
    .where('block_number', '>=', after && order === 'asc' ? Math.max(filter.fromBlock, after.block) : filter.fromBlock)
    .where('block_number', '<=', after && order === 'desc' ? Math.min(filter.toBlock, after.block) : filter.toBlock);
  if (filter.from) query = query.where('from_address', '=', filter.from);
  if (filter.to) query = query.where('to_address', '=', filter.to);
  if (filter.contracts) query = query.where('contract', 'in', filter.contracts.length > 0 ? [...filter.contracts] : ['']);
  if (filter.excludeZeroValue) query = query.where((eb) => eb.or([eb('kind', '!=', 'erc20'), eb('amount', '!=', '0')]));
  if (after) {
    // In the cursor's block: a log comes after the cursor's transaction's own value and calls, and a
    // block's log indexes grow with its transactions' positions.
    query = query.where((eb) =>
      eb.or([
        eb('block_number', beyond, after.block),
        eb.and([
          eb('block_number', '=', after.block),
          after.part === 2
            ? eb('log_index', beyond, after.index)
            : order === 'asc'
              ? eb(sql<number>`coalesce(transaction_index, 0)`, '>=', after.transactionIndex)
              : eb(sql<number>`coalesce(transaction_index, 0)`, '<', after.transactionIndex),
        ]),
      ]),
    );
  }
  const rows = await query
    .orderBy('block_number', order)
    .orderBy('log_index', order)
    .limit(filter.limit + 1)
    .execute();
  return rows.map((row) => ({
    position: { block: row.block_number, transactionIndex: row.transaction_index ?? 0, part: 2, index: row.log_index },
    blockTimestamp: row.block_timestamp,
    transactionHash: row.transaction_hash as Hex,
    kind: row.kind,
    from: row.from_address as Address,
    to: row.to_address as Address,
    contract: row.contract as Address,
    tokenId: row.token_id,
    amount: row.amount,
    batch: row.kind === 'erc1155' ? [{ tokenId: row.token_id!, amount: row.amount }] : null,
  }));
}

/** Native transfers (external: trace index 0, so part follows from it), a page and one more. */
async function nativeTransfers(db: Kysely<DatabaseSchema>, network: string, filter: AssetTransfersFilter): Promise<IndexedAssetTransfer[]> {
  const { after, order } = filter;
  const beyond: Comparison = order === 'asc' ? '>' : '<';
  let query = db
    .selectFrom('indexer_native_transfers')
    .select(['block_number', 'transaction_index', 'trace_index', 'block_timestamp', 'transaction_hash', 'kind', 'from_address', 'to_address', 'amount'])
    .where(networkIs(filter, network))
    .where('kind', 'in', filter.native)
    .where('block_number', '>=', after && order === 'asc' ? Math.max(filter.fromBlock, after.block) : filter.fromBlock)
    .where('block_number', '<=', after && order === 'desc' ? Math.min(filter.toBlock, after.block) : filter.toBlock);
  if (filter.from) query = query.where('from_address', '=', filter.from);
  if (filter.to) query = query.where('to_address', '=', filter.to);
  if (filter.excludeZeroValue) query = query.where('amount', '!=', '0');
  if (after)
    query = query.where((eb) =>
      eb.or([eb('block_number', beyond, after.block), eb.and([eb('block_number', '=', after.block), inBlockAfter(eb, after, order)])]),
    );
  const rows = await query
    .orderBy('block_number', order)
    .orderBy('transaction_index', order)
    .orderBy('trace_index', order)
    .limit(filter.limit + 1)
    .execute();
  return rows.map((row) => ({
    position: { block: row.block_number, transactionIndex: row.transaction_index, part: row.trace_index === 0 ? 0 : 1, index: row.trace_index },
    blockTimestamp: row.block_timestamp,
    transactionHash: row.transaction_hash as Hex,
    kind: row.kind,
    from: row.from_address as Address,
    to: row.to_address as Address,
    contract: null,
    tokenId: null,
    amount: row.amount,
    batch: null,
  }));
}

/** Native transfers of the cursor's block beyond it: a cursor on a log is past its transaction's native transfers. */
function inBlockAfter(eb: ExpressionBuilder<DatabaseSchema, 'indexer_native_transfers'>, after: TransferPosition, order: 'asc' | 'desc'): Expression<SqlBool> {
  if (after.part === 2) return order === 'asc' ? eb('transaction_index', '>', after.transactionIndex) : eb('transaction_index', '<=', after.transactionIndex);
  const beyond: Comparison = order === 'asc' ? '>' : '<';
  return eb.or([
    eb('transaction_index', beyond, after.transactionIndex),
    eb.and([eb('transaction_index', '=', after.transactionIndex), eb('trace_index', beyond, after.index)]),
  ]);
}

/** Fills the ids and amounts of the page's ERC-1155 batches beyond the first (read with the log). */
async function addBatches(db: Kysely<DatabaseSchema>, network: string, page: readonly IndexedAssetTransfer[]): Promise<void> {
  const batches = page.filter((transfer) => transfer.batch !== null);
  for (let offset = 0; offset < batches.length; offset += BATCHES_PER_LOOKUP) {
    const chunk = batches.slice(offset, offset + BATCHES_PER_LOOKUP);
    const rows = await db
      .selectFrom('indexer_transfers')
      .select(['block_number', 'log_index', 'batch_index', 'token_id', 'amount'])
      .where('network', '=', network)
      .where('batch_index', '>', 0)
      .where((eb) => eb.or(chunk.map((transfer) => eb.and([eb('block_number', '=', transfer.position.block), eb('log_index', '=', transfer.position.index)]))))
      .orderBy('block_number')
      .orderBy('log_index')
      .orderBy('batch_index')
      .execute();
    const byLog = new Map(chunk.map((transfer) => [`${transfer.position.block}:${transfer.position.index}`, transfer]));
    for (const row of rows) byLog.get(`${row.block_number}:${row.log_index}`)!.batch!.push({ tokenId: row.token_id!, amount: row.amount });
  }
}
