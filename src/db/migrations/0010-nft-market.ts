import type { Kysely } from 'kysely';

// Marketplace events (src/nfts/market/, docs/nft-data.md): every listing made, cancelled and sold
// from, per network, written in the transfer index's transactions and, like its transfers, only
// ever inserted or deleted: a reorg deletes the rows after the common ancestor, a reset the
// network's. Whether a listing is open is read from the three (not cancelled, not sold out).
// Addresses lowercase; token ids, prices and fees decimal text; quantities below 2^53.

export async function up(db: Kysely<unknown>): Promise<void> {
  const place = <T extends Parameters<Kysely<unknown>['schema']['createTable']>[0]>(table: T) =>
    db.schema
      .createTable(table)
      .addColumn('network', 'text', (column) => column.notNull())
      .addColumn('marketplace', 'text', (column) => column.notNull())
      .addColumn('listing_id', 'text', (column) => column.notNull())
      .addColumn('block_number', 'bigint', (column) => column.notNull())
      .addColumn('log_index', 'integer', (column) => column.notNull())
      .addColumn('transaction_hash', 'text', (column) => column.notNull());

  await place('nft_market_listings')
    .addColumn('seller', 'text', (column) => column.notNull())
    .addColumn('collection', 'text', (column) => column.notNull())
    .addColumn('token_id', 'text', (column) => column.notNull())
    .addColumn('quantity', 'bigint', (column) => column.notNull())
    .addColumn('currency', 'text', (column) => column.notNull())
    .addColumn('unit_price', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('nft_market_listings_key', ['network', 'marketplace', 'listing_id'])
    .execute();
  // A collection's floor: its listings per marketplace.
  await db.schema.createIndex('nft_market_listings_by_collection').on('nft_market_listings').columns(['network', 'collection', 'marketplace']).execute();

  await place('nft_market_cancellations').addPrimaryKeyConstraint('nft_market_cancellations_key', ['network', 'marketplace', 'listing_id']).execute();

  await place('nft_market_sales')
    .addColumn('block_timestamp', 'bigint')
    .addColumn('buyer', 'text', (column) => column.notNull())
    .addColumn('seller', 'text', (column) => column.notNull())
    .addColumn('collection', 'text', (column) => column.notNull())
    .addColumn('token_id', 'text', (column) => column.notNull())
    .addColumn('quantity', 'bigint', (column) => column.notNull())
    .addColumn('currency', 'text', (column) => column.notNull())
    .addColumn('price', 'text', (column) => column.notNull())
    .addColumn('marketplace_fee', 'text', (column) => column.notNull())
    .addColumn('royalty_receiver', 'text', (column) => column.notNull())
    .addColumn('royalty_fee', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('nft_market_sales_key', ['network', 'block_number', 'log_index'])
    .execute();
  // How much of a listing is sold; a collection's, a token's, a buyer's and a seller's sales in block order.
  await db.schema.createIndex('nft_market_sales_by_listing').on('nft_market_sales').columns(['network', 'marketplace', 'listing_id']).execute();
  await db.schema.createIndex('nft_market_sales_by_token').on('nft_market_sales').columns(['network', 'collection', 'token_id', 'block_number']).execute();
  await db.schema.createIndex('nft_market_sales_by_buyer').on('nft_market_sales').columns(['network', 'buyer', 'block_number']).execute();
  await db.schema.createIndex('nft_market_sales_by_seller').on('nft_market_sales').columns(['network', 'seller', 'block_number']).execute();
  // A reorg deletes by block.
  for (const table of ['nft_market_listings', 'nft_market_cancellations'] as const)
    await db.schema.createIndex(`${table}_by_block`).on(table).columns(['network', 'block_number']).execute();
}
