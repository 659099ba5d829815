import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { getAddress, type Address, type Hex } from 'viem';
import type { DatabaseSchema } from '../db/schema.ts';
import type { NftKind } from './transfer.ts';

// What a wallet's portfolio reads from the index (docs/portfolio.md): the transactions that moved
// its coin or its tokens, and the NFT contracts it holds. Keyset pages, as in ./queries.ts. A query
// by address names its network in a form no index serves (`network || '' = ?`) so both engines take
// the address's own index (./asset-transfers.ts says why).

/** Where a transaction is: its block and its position in it. */
export interface TransactionPlace {
  block: number;
  transactionIndex: number;
}

export interface WalletTransaction extends TransactionPlace {
  hash: Hex;
  /** Seconds since the epoch; null when the node did not give it. */
  blockTimestamp: number | null;
}

/**
 * The transactions of `address` on `network`: each in which the index saw it send or receive the
 * native coin (every successful transaction it sent or was sent is one) or a token, once. `older`:
 * newest first, strictly before `from`; `newer`: oldest first, strictly after it. At most `limit`.
 */
export async function walletTransactions(
  db: Kysely<DatabaseSchema>,
  network: string,
  address: Address,
  page: { from: TransactionPlace | null; direction: 'older' | 'newer'; limit: number },
): Promise<WalletTransaction[]> {
  const owner = address.toLowerCase();
  const order = page.direction === 'older' ? 'desc' : 'asc';
  const beyond = sql.raw(page.direction === 'older' ? '<' : '>');
  const networkIs = sql<SqlBool>`network || '' = ${network}`;
  const past = (index: RawBuilder<number>) =>
    page.from
      ? sql<SqlBool>`(block_number ${beyond} ${page.from.block} or (block_number = ${page.from.block} and ${index} ${beyond} ${page.from.transactionIndex}))`
      : sql<SqlBool>`true`;
  const reads = (['from_address', 'to_address'] as const).flatMap((side) => [
    db
      .selectFrom('indexer_native_transfers')
      .select(['block_number', 'transaction_index', 'transaction_hash', 'block_timestamp'])
      .distinct()
      .where(networkIs)
      .where(side, '=', owner)
      .where(past(sql<number>`transaction_index`))
      .orderBy('block_number', order)
      .orderBy('transaction_index', order)
      .limit(page.limit)
      .execute(),
    db
      .selectFrom('indexer_transfers')
      .select(['block_number', sql<number>`coalesce(transaction_index, 0)`.as('transaction_index'), 'transaction_hash', 'block_timestamp'])
      .distinct()
      .where(networkIs)
      .where(side, '=', owner)
      .where(past(sql<number>`coalesce(transaction_index, 0)`))
      .orderBy('block_number', order)
      .orderBy('transaction_index', order)
      .limit(page.limit)
      .execute(),
  ]);
  const byHash = new Map<string, WalletTransaction>();
  for (const rows of await Promise.all(reads))
    for (const row of rows)
      byHash.set(row.transaction_hash, {
        block: Number(row.block_number),
        transactionIndex: Number(row.transaction_index),
        hash: row.transaction_hash as Hex,
        blockTimestamp: row.block_timestamp === null ? null : Number(row.block_timestamp),
      });
  const sign = page.direction === 'older' ? -1 : 1;
  return [...byHash.values()].sort((a, b) => sign * (a.block - b.block || a.transactionIndex - b.transactionIndex)).slice(0, page.limit);
}

/** An NFT contract an owner holds tokens of, with how many. */
export interface HeldNftContract {
  contract: Address;
  kind: NftKind;
  /** Distinct token ids held. */
  distinctTokens: number;
  /** The sum of the balances, decimal. */
  totalBalance: string;
}

/** The NFT contracts `owner` holds on `network`, by address, those after `after`, at most `limit`; and how many there are in all. */
export async function heldNftContracts(
  db: Kysely<DatabaseSchema>,
  network: string,
  owner: Address,
  page: { after: Address | null; limit: number },
): Promise<{ contracts: HeldNftContract[]; totalCount: number }> {
  const held = () =>
    db
      .selectFrom('indexer_nft_balances')
      .where('network', '=', network)
      .where('owner', '=', owner.toLowerCase())
      // Negative balances come only from contracts whose logs contradict each other: never listed.
      .where('balance', 'not like', '-%');
  let first = held().select('contract').distinct().orderBy('contract').limit(page.limit);
  if (page.after) first = first.where('contract', '>', page.after.toLowerCase());
  const [chosen, total] = await Promise.all([first.execute(), held().select(sql<number | string>`count(distinct contract)`.as('count')).executeTakeFirst()]);
  const addresses = chosen.map((row) => row.contract);
  const tokens = addresses.length ? await held().select(['contract', 'kind', 'balance']).where('contract', 'in', addresses).execute() : [];
  const contracts = new Map<string, HeldNftContract>(
    addresses.map((contract) => [contract, { contract: getAddress(contract), kind: 'erc721', distinctTokens: 0, totalBalance: '0' }]),
  );
  for (const token of tokens) {
    const entry = contracts.get(token.contract)!;
    entry.kind = token.kind;
    entry.distinctTokens += 1;
    entry.totalBalance = (BigInt(entry.totalBalance) + BigInt(token.balance)).toString();
  }
  return { contracts: [...contracts.values()], totalCount: Number(total?.count ?? 0) };
}

/** How many transactions walletTransactions lists for `address` on `network` in all. */
export async function walletTransactionCount(db: Kysely<DatabaseSchema>, network: string, address: Address): Promise<number> {
  const owner = address.toLowerCase();
  const networkIs = sql<SqlBool>`network || '' = ${network}`;
  const [first, ...rest] = (['from_address', 'to_address'] as const).flatMap((side) => [
    db.selectFrom('indexer_native_transfers').select('transaction_hash').where(networkIs).where(side, '=', owner),
    db.selectFrom('indexer_transfers').select('transaction_hash').where(networkIs).where(side, '=', owner),
  ]);
  const hashes = rest.reduce((union, next) => union.union(next), first!);
  const row = await db.selectFrom(hashes.as('hashes')).select(sql<number | string>`count(*)`.as('count')).executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** A value move inside a transaction (from call traces), as the index holds it. */
export interface InternalTransfer {
  hash: Hex;
  from: Address;
  to: Address;
  /** Decimal, in wei. */
  amount: string;
}

/** The internal transfers of these transactions (read by their places: the table's key), in their order within each. */
export async function internalTransfersOf(
  db: Kysely<DatabaseSchema>,
  network: string,
  transactions: readonly WalletTransaction[],
): Promise<InternalTransfer[]> {
  if (transactions.length === 0) return [];
  const rows = await db
    .selectFrom('indexer_native_transfers')
    .select(['transaction_hash', 'from_address', 'to_address', 'amount'])
    .where('network', '=', network)
    .where((eb) => eb.or(transactions.map((place) => eb.and([eb('block_number', '=', place.block), eb('transaction_index', '=', place.transactionIndex)]))))
    .where('kind', '=', 'internal')
    .orderBy('block_number')
    .orderBy('transaction_index')
    .orderBy('trace_index')
    .execute();
  return rows.map((row) => ({ hash: row.transaction_hash as Hex, from: getAddress(row.from_address), to: getAddress(row.to_address), amount: row.amount }));
}
