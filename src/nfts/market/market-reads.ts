import { sql, type Kysely } from 'kysely';
import type { Address } from 'viem';
import type { DatabaseSchema, NftMarketListingRow, NftMarketSaleRow } from '../../db/schema.ts';

// What the marketplace endpoints read of the kept events (./market-table.ts). A listing is open
// while it is not cancelled, not sold out, and its seller still holds the token in the transfer
// index (a seller who gave the token away left a listing no one can fill); a collection's floor is
// its cheapest open listing in one currency. Prices are decimal text: they order as numbers by
// length, then digits.

/** The cheapest open listing of `collection` at `marketplace` priced in `currency` (the earliest of equal ones), or null. */
export async function cheapestOpenListing(
  db: Kysely<DatabaseSchema>,
  network: string,
  where: { marketplace: Address; collection: Address; currency: Address },
): Promise<NftMarketListingRow | null> {
  const row = await db
    .selectFrom('nft_market_listings as l')
    .selectAll('l')
    .where('l.network', '=', network)
    .where('l.marketplace', '=', where.marketplace.toLowerCase())
    .where('l.collection', '=', where.collection.toLowerCase())
    .where('l.currency', '=', where.currency.toLowerCase())
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('nft_market_cancellations as c')
            .select('c.listing_id')
            .whereRef('c.network', '=', 'l.network')
            .whereRef('c.marketplace', '=', 'l.marketplace')
            .whereRef('c.listing_id', '=', 'l.listing_id'),
        ),
      ),
    )
    .where((eb) =>
      eb(
        'l.quantity',
        '>',
        eb
          .selectFrom('nft_market_sales as s')
          .select(sql<number>`coalesce(sum(s.quantity), 0)`.as('sold'))
          .whereRef('s.network', '=', 'l.network')
          .whereRef('s.marketplace', '=', 'l.marketplace')
          .whereRef('s.listing_id', '=', 'l.listing_id'),
      ),
    )
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('indexer_nft_balances as b')
          .select('b.owner')
          .whereRef('b.network', '=', 'l.network')
          .whereRef('b.owner', '=', 'l.seller')
          .whereRef('b.contract', '=', 'l.collection')
          .whereRef('b.token_id', '=', 'l.token_id')
          .where('b.balance', 'not like', '-%'),
      ),
    )
    .orderBy(sql`length(l.unit_price)`)
    .orderBy('l.unit_price')
    .orderBy('l.block_number')
    .orderBy('l.log_index')
    .limit(1)
    .executeTakeFirst();
  return row ? { ...row, block_number: Number(row.block_number), quantity: Number(row.quantity) } : null;
}

export interface SalesQuery {
  /** The marketplace contracts read; none: no sales. */
  marketplaces: readonly Address[];
  /** Addresses in any case. */
  collection?: string;
  tokenId?: string;
  buyer?: string;
  seller?: string;
  fromBlock: number;
  toBlock: number;
  order: 'asc' | 'desc';
  /** The last sale of the previous page. */
  after?: { blockNumber: number; logIndex: number };
  limit: number;
}

/** Sales in block and log order (or its reverse), `limit` of them and one more to tell whether another page follows. */
export async function salesPage(db: Kysely<DatabaseSchema>, network: string, query: SalesQuery): Promise<NftMarketSaleRow[]> {
  if (query.marketplaces.length === 0 || query.fromBlock > query.toBlock) return [];
  const direction = query.order;
  const beyond = direction === 'asc' ? '>' : '<';
  let select = db
    .selectFrom('nft_market_sales')
    .selectAll()
    .where('network', '=', network)
    .where(
      'marketplace',
      'in',
      query.marketplaces.map((address) => address.toLowerCase()),
    )
    .where('block_number', '>=', query.fromBlock)
    .where('block_number', '<=', query.toBlock);
  if (query.collection) select = select.where('collection', '=', query.collection.toLowerCase());
  if (query.tokenId !== undefined) select = select.where('token_id', '=', query.tokenId);
  if (query.buyer) select = select.where('buyer', '=', query.buyer.toLowerCase());
  if (query.seller) select = select.where('seller', '=', query.seller.toLowerCase());
  const after = query.after;
  if (after)
    select = select.where((eb) =>
      eb.or([eb('block_number', beyond, after.blockNumber), eb.and([eb('block_number', '=', after.blockNumber), eb('log_index', beyond, after.logIndex)])]),
    );
  const rows = await select
    .orderBy('block_number', direction)
    .orderBy('log_index', direction)
    .limit(query.limit + 1)
    .execute();
  return rows.map((row) => ({
    ...row,
    block_number: Number(row.block_number),
    quantity: Number(row.quantity),
    block_timestamp: row.block_timestamp === null ? null : Number(row.block_timestamp),
  }));
}
