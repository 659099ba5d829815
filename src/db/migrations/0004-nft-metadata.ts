import { PostgresAdapter, sql, type Kysely } from 'kysely';

// NFT metadata and media (src/nfts/metadata/, src/nfts/media/, docs/nft-data.md#metadata-store-and-worker): a token's metadata as
// last fetched; each image URI's outcome, keyed by the SHA-256 of the URI (URIs may be long data:
// URIs, too long to index); and the images themselves, content-addressed by the SHA-256 of their
// bytes, with a thumbnail and a PNG, in the database so every server process serves them.

export async function up(db: Kysely<unknown>): Promise<void> {
  // Bytes: bytea on PostgreSQL, blob on SQLite.
  const bytes = db.getExecutor().adapter instanceof PostgresAdapter ? sql`bytea` : sql`blob`;

  await db.schema
    .createTable('nft_metadata')
    .addColumn('network', 'text', (column) => column.notNull())
    .addColumn('contract', 'text', (column) => column.notNull())
    .addColumn('token_id', 'text', (column) => column.notNull())
    .addColumn('kind', 'text', (column) => column.notNull().check(sql`kind in ('erc721', 'erc1155', 'legacy')`))
    .addColumn('token_uri', 'text')
    .addColumn('raw_token_uri', 'text')
    // JSON text of the document as given.
    .addColumn('metadata', 'text')
    .addColumn('error', 'text')
    .addColumn('error_code', 'text')
    .addColumn('name', 'text')
    .addColumn('description', 'text')
    .addColumn('image_url', 'text')
    .addColumn('image_url_sha256', 'text')
    .addColumn('time_last_updated', 'bigint', (column) => column.notNull())
    .addColumn('checked_at', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('nft_metadata_key', ['network', 'contract', 'token_id'])
    .execute();
  // The worker's refresh: the records checked longest ago first.
  await db.schema.createIndex('nft_metadata_by_checked_at').on('nft_metadata').columns(['checked_at']).execute();

  await db.schema
    .createTable('nft_images')
    .addColumn('url_sha256', 'text', (column) => column.primaryKey())
    .addColumn('media_sha256', 'text')
    .addColumn('error', 'text')
    .addColumn('error_code', 'text')
    .addColumn('fetched_at', 'bigint', (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('nft_media')
    .addColumn('sha256', 'text', (column) => column.primaryKey())
    .addColumn('content_type', 'text', (column) => column.notNull())
    .addColumn('size', 'bigint', (column) => column.notNull())
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('original', bytes, (column) => column.notNull())
    .addColumn('thumbnail_type', 'text', (column) => column.notNull())
    .addColumn('thumbnail', bytes, (column) => column.notNull())
    .addColumn('png', bytes, (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .execute();
}
