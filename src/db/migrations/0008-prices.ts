import { sql, type Kysely } from 'kysely';

// Token prices (src/prices/, docs/prices.md#history): every source observation the sampler recorded (what each
// answer traces to), the latest aggregate per token (or why there is none), and the aggregates at
// 5m, 1h and 1d boundaries that the historical endpoint answers from. Values are decimal strings,
// exact at 18 places; times are milliseconds since the epoch.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('price_observations')
    .addColumn('source_id', 'text', (column) => column.notNull())
    .addColumn('symbol', 'text', (column) => column.notNull())
    .addColumn('observed_at', 'bigint', (column) => column.notNull())
    .addColumn('kind', 'text', (column) => column.notNull().check(sql`kind in ('amm-v2', 'amm-v3', 'oracle', 'exchange')`))
    .addColumn('value', 'text', (column) => column.notNull())
    .addColumn('liquidity_usd', 'text')
    .addColumn('volume_usd', 'text')
    // JSON text: how a quote in another token became dollars ({ quoteSymbol, inQuote, quoteUsd }).
    .addColumn('conversion', 'text')
    .addColumn('recorded_at', 'bigint', (column) => column.notNull())
    // A source that has not moved (a feed's round, a pool between blocks) is recorded once.
    .addPrimaryKeyConstraint('price_observations_key', ['source_id', 'symbol', 'observed_at'])
    .execute();
  await db.schema.createIndex('price_observations_by_symbol').on('price_observations').columns(['symbol', 'observed_at']).execute();

  await db.schema
    .createTable('price_current')
    .addColumn('symbol', 'text', (column) => column.primaryKey())
    // Null with `error` when the last sample found no fresh source.
    .addColumn('value', 'text')
    .addColumn('observed_at', 'bigint')
    .addColumn('error', 'text')
    // JSON text: the sources used and dropped, with why.
    .addColumn('sources', 'text', (column) => column.notNull())
    .addColumn('sampled_at', 'bigint', (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('price_points')
    .addColumn('symbol', 'text', (column) => column.notNull())
    .addColumn('interval', 'text', (column) => column.notNull().check(sql`"interval" in ('5m', '1h', '1d')`))
    .addColumn('bucket_start', 'bigint', (column) => column.notNull())
    .addColumn('value', 'text', (column) => column.notNull())
    .addColumn('observed_at', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('price_points_key', ['symbol', 'interval', 'bucket_start'])
    .execute();
}
