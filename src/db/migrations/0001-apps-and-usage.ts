import { sql, type Kysely } from 'kysely';

// Apps and keys, and the usage meter's per-minute sums (docs/keys-and-limits.md#usage-metering). Usage rows name an app
// without a foreign key: the demo app is no row, and usage outlives a deleted app.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('apps')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('owner_id', 'text')
    .addColumn('key_hash', 'text', (column) => column.notNull().unique())
    .addColumn('key_sealed', 'text', (column) => column.notNull())
    .addColumn('previous_key_hash', 'text')
    .addColumn('previous_key_expires_at', 'bigint')
    .addColumn('allowed_domains', 'text', (column) => column.notNull())
    .addColumn('allowed_networks', 'text', (column) => column.notNull())
    .addColumn('compute_units_per_second', 'integer', (column) => column.notNull())
    .addColumn('monthly_compute_unit_quota', 'bigint')
    .addColumn('state', 'text', (column) => column.notNull().check(sql`state in ('active', 'disabled')`))
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .addColumn('version', 'integer', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('apps_by_previous_key_hash').on('apps').column('previous_key_hash').execute();
  await db.schema.createIndex('apps_by_owner').on('apps').column('owner_id').execute();

  await db.schema
    .createTable('usage_minutes')
    .addColumn('app_id', 'text', (column) => column.notNull())
    .addColumn('network', 'text', (column) => column.notNull())
    .addColumn('method', 'text', (column) => column.notNull())
    .addColumn('minute', 'bigint', (column) => column.notNull())
    .addColumn('requests', 'bigint', (column) => column.notNull())
    .addColumn('compute_units', 'bigint', (column) => column.notNull())
    .addColumn('errors', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('usage_minutes_key', ['app_id', 'network', 'method', 'minute'])
    .execute();
  // Month totals (quota) and series read one app over a range of minutes.
  await db.schema.createIndex('usage_minutes_by_app_minute').on('usage_minutes').columns(['app_id', 'minute']).execute();

  await db.schema
    .createTable('usage_errors')
    .addColumn('app_id', 'text', (column) => column.notNull())
    .addColumn('network', 'text', (column) => column.notNull())
    .addColumn('code', 'integer', (column) => column.notNull())
    .addColumn('minute', 'bigint', (column) => column.notNull())
    .addColumn('count', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('usage_errors_key', ['app_id', 'network', 'code', 'minute'])
    .execute();
}
