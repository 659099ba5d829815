import { sql, type Kysely } from 'kysely';

// The transfer index (src/indexer/, docs/token-data.md#transfer-indexer): per network a checkpoint and a leader lease,
// the hashes of recent blocks (to find where a reorg forked), every transfer, and the two views the
// products read: ERC-20 contracts per holder and NFT balances per owner. Addresses are lowercase
// hex; token ids and amounts decimal text (uint256 fits neither engine's integers).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('indexer_checkpoints')
    .addColumn('network', 'text', (column) => column.primaryKey())
    .addColumn('genesis_hash', 'text', (column) => column.notNull())
    // The last block indexed; block_hash null: none yet (block_number is the one before the first).
    .addColumn('block_number', 'bigint', (column) => column.notNull())
    .addColumn('block_hash', 'text')
    .addColumn('block_timestamp', 'bigint')
    .addColumn('head_number', 'bigint', (column) => column.notNull())
    .addColumn('state', 'text', (column) => column.notNull().check(sql`state in ('backfilling', 'following')`))
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .addColumn('last_error', 'text')
    .addColumn('last_error_at', 'bigint')
    .execute();

  await db.schema
    .createTable('indexer_leases')
    .addColumn('network', 'text', (column) => column.primaryKey())
    .addColumn('holder', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'bigint', (column) => column.notNull())
    .addColumn('acquired_at', 'bigint', (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('indexer_blocks')
    .addColumn('network', 'text', (column) => column.notNull())
    .addColumn('block_number', 'bigint', (column) => column.notNull())
    .addColumn('block_hash', 'text', (column) => column.notNull())
    .addColumn('block_timestamp', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('indexer_blocks_key', ['network', 'block_number'])
    .execute();

  await db.schema
    .createTable('indexer_transfers')
    .addColumn('network', 'text', (column) => column.notNull())
    .addColumn('block_number', 'bigint', (column) => column.notNull())
    .addColumn('log_index', 'integer', (column) => column.notNull())
    .addColumn('batch_index', 'integer', (column) => column.notNull())
    .addColumn('block_hash', 'text', (column) => column.notNull())
    .addColumn('block_timestamp', 'bigint')
    .addColumn('transaction_hash', 'text', (column) => column.notNull())
    .addColumn('contract', 'text', (column) => column.notNull())
    .addColumn('kind', 'text', (column) => column.notNull().check(sql`kind in ('erc20', 'erc721', 'erc1155', 'legacy')`))
    .addColumn('from_address', 'text', (column) => column.notNull())
    .addColumn('to_address', 'text', (column) => column.notNull())
    .addColumn('token_id', 'text')
    .addColumn('amount', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('indexer_transfers_key', ['network', 'block_number', 'log_index', 'batch_index'])
    .execute();
  // A token's history (NFT ownership after a rollback, owners of a token); ERC-20 rows have no token id.
  await db.schema
    .createIndex('indexer_transfers_by_token')
    .on('indexer_transfers')
    .columns(['network', 'contract', 'token_id', 'block_number'])
    .where(sql.ref('token_id'), 'is not', null)
    .execute();

  await db.schema
    .createTable('indexer_holder_tokens')
    .addColumn('network', 'text', (column) => column.notNull())
    .addColumn('holder', 'text', (column) => column.notNull())
    .addColumn('contract', 'text', (column) => column.notNull())
    .addColumn('transfers', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('indexer_holder_tokens_key', ['network', 'holder', 'contract'])
    .execute();

  await db.schema
    .createTable('indexer_nft_balances')
    .addColumn('network', 'text', (column) => column.notNull())
    .addColumn('owner', 'text', (column) => column.notNull())
    .addColumn('contract', 'text', (column) => column.notNull())
    .addColumn('token_id', 'text', (column) => column.notNull())
    .addColumn('kind', 'text', (column) => column.notNull().check(sql`kind in ('erc721', 'erc1155', 'legacy')`))
    .addColumn('balance', 'text', (column) => column.notNull())
    .addColumn('last_block', 'bigint', (column) => column.notNull())
    .addColumn('last_log_index', 'integer', (column) => column.notNull())
    .addPrimaryKeyConstraint('indexer_nft_balances_key', ['network', 'owner', 'contract', 'token_id'])
    .execute();
  // An owner's NFTs newest transfer first (docs/nft-data.md#getnfts-and-getnftsforowner orderBy=transferTime), and a token's owners.
  await db.schema
    .createIndex('indexer_nft_balances_by_transfer')
    .on('indexer_nft_balances')
    .columns(['network', 'owner', 'last_block', 'last_log_index'])
    .execute();
  await db.schema.createIndex('indexer_nft_balances_by_token').on('indexer_nft_balances').columns(['network', 'contract', 'token_id']).execute();
}
