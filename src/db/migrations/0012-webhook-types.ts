import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Every webhook type (docs/webhooks.md#types): ADDRESS_ACTIVITY, MINED_TRANSACTION and
// DROPPED_TRANSACTION beside the NFT ones, so the webhooks table's type check names five. A webhook
// may now carry the app whose broadcasts it hears (`app_id`), a name, exact NFT filter entries
// (`nft_tokens`, a JSON list of { contractAddress, tokenId }) and a count of its addresses, which
// live in webhook_addresses, looked up by network and address when a block's transfers are matched.
// webhook_sent_native_transfers keeps the native transfers (0011) each address webhook was sent, as
// webhook_sent_transfers keeps the token ones, so a reorg can send them again removed.
// broadcast_transactions records which app broadcast which transaction through the gateway, until
// it is mined or dropped.
//
// SQLite cannot change a check in place: the webhook tables are built again under new names, filled,
// and renamed over the old ones (children first dropped, so no cascade runs; renaming a parent
// rewrites its children's references), all in the migration's transaction.

const TYPES = sql`type in ('NFT_ACTIVITY', 'NFT_METADATA_UPDATE', 'ADDRESS_ACTIVITY', 'MINED_TRANSACTION', 'DROPPED_TRANSACTION')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table webhooks drop constraint webhooks_type_check`.execute(db);
    await sql`alter table webhooks add constraint webhooks_type_check check (${TYPES})`.execute(db);
    await db.schema
      .alterTable('webhooks')
      .addColumn('app_id', 'text')
      .addColumn('name', 'text')
      .addColumn('nft_tokens', 'text', (column) => column.notNull().defaultTo('[]'))
      .addColumn('address_count', 'integer', (column) => column.notNull().defaultTo(0))
      .execute();
  } else {
    await rebuildWebhookTables(db);
  }

  await db.schema
    .createTable('webhook_addresses')
    .addColumn('webhook_id', 'text', (column) => column.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('network', 'text', (column) => column.notNull())
    .addColumn('address', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('webhook_addresses_key', ['webhook_id', 'address'])
    .execute();
  // A block's transfers are matched by one seek per address they touch, however many addresses are listed.
  await db.schema.createIndex('webhook_addresses_by_address').on('webhook_addresses').columns(['network', 'address']).execute();

  await db.schema
    .createTable('webhook_sent_native_transfers')
    .addColumn('webhook_id', 'text', (column) => column.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('network', 'text', (column) => column.notNull())
    .addColumn('block_number', 'bigint', (column) => column.notNull())
    .addColumn('transaction_index', 'integer', (column) => column.notNull())
    .addColumn('trace_index', 'integer', (column) => column.notNull())
    .addPrimaryKeyConstraint('webhook_sent_native_transfers_key', ['webhook_id', 'network', 'block_number', 'transaction_index', 'trace_index'])
    .execute();
  await db.schema.createIndex('webhook_sent_native_transfers_by_block').on('webhook_sent_native_transfers').columns(['network', 'block_number']).execute();

  await db.schema
    .createTable('broadcast_transactions')
    .addColumn('network', 'text', (column) => column.notNull())
    .addColumn('hash', 'text', (column) => column.notNull())
    .addColumn('app_id', 'text', (column) => column.notNull())
    .addColumn('raw', 'text', (column) => column.notNull())
    .addColumn('status', 'text', (column) => column.notNull().check(sql`status in ('pending', 'mined', 'dropped')`))
    .addColumn('broadcast_at', 'bigint', (column) => column.notNull())
    .addColumn('next_check_at', 'bigint', (column) => column.notNull())
    .addColumn('sender', 'text')
    .addColumn('nonce', 'text')
    .addColumn('block_number', 'bigint')
    .addColumn('block_hash', 'text')
    .addColumn('settled_at', 'bigint')
    .addPrimaryKeyConstraint('broadcast_transactions_key', ['network', 'hash'])
    .execute();
  await db.schema.createIndex('broadcast_transactions_due').on('broadcast_transactions').columns(['status', 'next_check_at']).execute();
}

async function rebuildWebhookTables(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhooks_next')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('owner_id', 'text', (column) => column.notNull())
    .addColumn('type', 'text', (column) => column.notNull().check(TYPES))
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
    .addColumn('app_id', 'text')
    .addColumn('name', 'text')
    .addColumn('nft_tokens', 'text', (column) => column.notNull().defaultTo('[]'))
    .addColumn('address_count', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('webhook_deliveries_next')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('webhook_id', 'text', (column) => column.notNull().references('webhooks_next.id').onDelete('cascade'))
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
  await db.schema
    .createTable('webhook_attempts_next')
    .addColumn('delivery_id', 'text', (column) => column.notNull().references('webhook_deliveries_next.id').onDelete('cascade'))
    .addColumn('attempt', 'integer', (column) => column.notNull())
    .addColumn('started_at', 'bigint', (column) => column.notNull())
    .addColumn('duration_ms', 'integer')
    .addColumn('http_status', 'integer')
    .addColumn('error', 'text')
    .addColumn('outcome', 'text', (column) => column.notNull().check(sql`outcome in ('sending', 'delivered', 'failed', 'abandoned')`))
    .addPrimaryKeyConstraint('webhook_attempts_key', ['delivery_id', 'attempt'])
    .execute();
  await db.schema
    .createTable('webhook_sent_transfers_next')
    .addColumn('webhook_id', 'text', (column) => column.notNull().references('webhooks_next.id').onDelete('cascade'))
    .addColumn('network', 'text', (column) => column.notNull())
    .addColumn('block_number', 'bigint', (column) => column.notNull())
    .addColumn('log_index', 'integer', (column) => column.notNull())
    .addColumn('batch_index', 'integer', (column) => column.notNull())
    .addPrimaryKeyConstraint('webhook_sent_transfers_key', ['webhook_id', 'network', 'block_number', 'log_index', 'batch_index'])
    .execute();

  const webhookColumns = sql.raw(
    'id, owner_id, type, network, url, contract_addresses, token_ids, signing_key, state, paused_reason, consecutive_failures, next_seq, created_at, updated_at',
  );
  await sql`insert into webhooks_next (${webhookColumns}) select ${webhookColumns} from webhooks`.execute(db);
  for (const table of ['webhook_deliveries', 'webhook_attempts', 'webhook_sent_transfers']) {
    await sql`insert into ${sql.table(`${table}_next`)} select * from ${sql.table(table)}`.execute(db);
  }
  for (const table of ['webhook_attempts', 'webhook_sent_transfers', 'webhook_deliveries', 'webhooks']) await db.schema.dropTable(table).execute();
  for (const table of ['webhooks', 'webhook_deliveries', 'webhook_attempts', 'webhook_sent_transfers']) {
    await db.schema.alterTable(`${table}_next`).renameTo(table).execute();
  }

  // The indexes of 0003 and 0007, which went with the old tables.
  await db.schema.createIndex('webhooks_by_owner').on('webhooks').columns(['owner_id', 'created_at']).execute();
  await db.schema.createIndex('webhooks_by_network').on('webhooks').columns(['network', 'type', 'state']).execute();
  await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('webhook_deliveries_heads').on('webhook_deliveries').columns(['webhook_id', 'status', 'seq']).execute();
  await db.schema.createIndex('webhook_sent_transfers_by_block').on('webhook_sent_transfers').columns(['network', 'block_number']).execute();
}
