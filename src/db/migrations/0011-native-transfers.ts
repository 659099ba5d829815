import { sql, type Kysely } from 'kysely';

// Native transfers in the transfer index (crucible_getAssetTransfers, docs/token-data.md): the
// value each successful transaction moved and, from call traces where the node offers them, the
// value calls inside it moved. Both transfer tables are read by address, newest or oldest first,
// so each gets an index per side. The checkpoint says what its index records: an index of an older
// version (logs only, without their transaction's position) is rebuilt from its first block, and
// whether its internal transfers are recorded (the node answers call traces) is known from its first
// step on: 'recorded' from a block on (a node that keeps no state of old blocks cannot trace them),
// or 'unavailable'.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('indexer_native_transfers')
    .addColumn('network', 'text', (column) => column.notNull())
    .addColumn('block_number', 'bigint', (column) => column.notNull())
    .addColumn('transaction_index', 'integer', (column) => column.notNull())
    .addColumn('trace_index', 'integer', (column) => column.notNull())
    .addColumn('block_hash', 'text', (column) => column.notNull())
    .addColumn('block_timestamp', 'bigint', (column) => column.notNull())
    .addColumn('transaction_hash', 'text', (column) => column.notNull())
    .addColumn('kind', 'text', (column) => column.notNull().check(sql`kind in ('external', 'internal')`))
    .addColumn('from_address', 'text', (column) => column.notNull())
    .addColumn('to_address', 'text', (column) => column.notNull())
    .addColumn('amount', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('indexer_native_transfers_key', ['network', 'block_number', 'transaction_index', 'trace_index'])
    .execute();
  // By address first, without the network: an address's transfers are read through these (see
  // src/transfers/asset-transfers.ts for why the network is not their leading column).
  for (const side of ['from', 'to'] as const) {
    await db.schema
      .createIndex(`indexer_native_transfers_by_${side}`)
      .on('indexer_native_transfers')
      .columns([`${side}_address`, 'block_number', 'transaction_index', 'trace_index'])
      .execute();
  }

  await db.schema.alterTable('indexer_transfers').addColumn('transaction_index', 'integer').execute();
  // A block's log indexes grow with its transactions' positions: (block, log index) is transaction order.
  for (const side of ['from', 'to'] as const) {
    await db.schema
      .createIndex(`indexer_transfers_by_${side}`)
      .on('indexer_transfers')
      .columns([`${side}_address`, 'block_number', 'log_index'])
      .execute();
  }

  // Every existing index is version 1 (logs only); the indexer rebuilds it at its next step.
  await db.schema
    .alterTable('indexer_checkpoints')
    .addColumn('index_version', 'integer', (column) => column.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable('indexer_checkpoints')
    .addColumn('internal_transfers', 'text', (column) =>
      column.notNull().defaultTo('pending').check(sql`internal_transfers in ('pending', 'recorded', 'unavailable')`),
    )
    .execute();
  await db.schema.alterTable('indexer_checkpoints').addColumn('internal_from_block', 'bigint').execute();
}
