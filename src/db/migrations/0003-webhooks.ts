import { sql, type Kysely } from 'kysely';

// NFT webhooks (docs/webhooks.md#outbox): account auth tokens for their API, the webhooks, a durable outbox of
// deliveries (one payload each, ordered per webhook by `seq`, claimed by one delivery process at a
// time through `claimed_by`/`claim_expires_at`), every attempt, and which transfers each webhook was
// sent (a reorg that undoes one sends it again with `removed: true`). Deleting a webhook deletes
// its deliveries, attempts and sent transfers.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_tokens')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('owner_id', 'text', (column) => column.notNull())
    .addColumn('name', 'text')
    .addColumn('token_hash', 'text', (column) => column.notNull().unique())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('last_used_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('account_tokens_by_owner').on('account_tokens').column('owner_id').execute();

  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('owner_id', 'text', (column) => column.notNull())
    .addColumn('type', 'text', (column) => column.notNull().check(sql`type in ('NFT_ACTIVITY', 'NFT_METADATA_UPDATE')`))
    .addColumn('network', 'text', (column) => column.notNull())
    .addColumn('url', 'text', (column) => column.notNull())
    .addColumn('contract_addresses', 'text', (column) => column.notNull())
    .addColumn('token_ids', 'text', (column) => column.notNull())
    .addColumn('signing_key', 'text', (column) => column.notNull())
    .addColumn('state', 'text', (column) => column.notNull().check(sql`state in ('active', 'paused')`))
    .addColumn('paused_reason', 'text')
    .addColumn('consecutive_failures', 'integer', (column) => column.notNull())
    .addColumn('next_seq', 'bigint', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('webhooks_by_owner').on('webhooks').columns(['owner_id', 'created_at']).execute();
  await db.schema.createIndex('webhooks_by_network').on('webhooks').columns(['network', 'type', 'state']).execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('webhook_id', 'text', (column) => column.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('seq', 'bigint', (column) => column.notNull())
    .addColumn('block_number', 'bigint')
    .addColumn('payload', 'text', (column) => column.notNull())
    .addColumn('status', 'text', (column) => column.notNull().check(sql`status in ('pending', 'delivered', 'failed')`))
    .addColumn('attempts', 'integer', (column) => column.notNull())
    .addColumn('next_attempt_at', 'bigint', (column) => column.notNull())
    .addColumn('claimed_by', 'text')
    .addColumn('claim_expires_at', 'bigint')
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('completed_at', 'bigint')
    .addColumn('last_http_status', 'integer')
    .addColumn('last_error', 'text')
    .addUniqueConstraint('webhook_deliveries_order', ['webhook_id', 'seq'])
    .execute();
  // The worker's scan: pending deliveries that are due.
  await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('delivery_id', 'text', (column) => column.notNull().references('webhook_deliveries.id').onDelete('cascade'))
    .addColumn('attempt', 'integer', (column) => column.notNull())
    .addColumn('started_at', 'bigint', (column) => column.notNull())
    .addColumn('duration_ms', 'integer')
    .addColumn('http_status', 'integer')
    .addColumn('error', 'text')
    .addColumn('outcome', 'text', (column) => column.notNull().check(sql`outcome in ('sending', 'delivered', 'failed', 'abandoned')`))
    .addPrimaryKeyConstraint('webhook_attempts_key', ['delivery_id', 'attempt'])
    .execute();

  await db.schema
    .createTable('webhook_sent_transfers')
    .addColumn('webhook_id', 'text', (column) => column.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('network', 'text', (column) => column.notNull())
    .addColumn('block_number', 'bigint', (column) => column.notNull())
    .addColumn('log_index', 'integer', (column) => column.notNull())
    .addColumn('batch_index', 'integer', (column) => column.notNull())
    .addPrimaryKeyConstraint('webhook_sent_transfers_key', ['webhook_id', 'network', 'block_number', 'log_index', 'batch_index'])
    .execute();
  await db.schema.createIndex('webhook_sent_transfers_by_block').on('webhook_sent_transfers').columns(['network', 'block_number']).execute();
}
