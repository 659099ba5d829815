import { sql, type Kysely } from 'kysely';

// The ERC-20 holder view keeps, per holder and contract, the block of the first transfer instead of
// a count of transfers: applying a step then only inserts pairs it has not seen (ON CONFLICT DO
// NOTHING, no row rewritten per transfer), and undoing a reorg deletes the pairs first seen after
// the common ancestor, which is exactly the set that has no transfer left.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('indexer_holder_tokens')
    .addColumn('first_block', 'bigint', (column) => column.notNull().defaultTo(0))
    .execute();
  await sql`
    update indexer_holder_tokens set first_block = coalesce((
      select min(t.block_number) from indexer_transfers t
      where t.network = indexer_holder_tokens.network and t.contract = indexer_holder_tokens.contract
        and (t.from_address = indexer_holder_tokens.holder or t.to_address = indexer_holder_tokens.holder)
    ), 0)`.execute(db);
  await db.schema.alterTable('indexer_holder_tokens').dropColumn('transfers').execute();
  await db.schema.createIndex('indexer_holder_tokens_by_first_block').on('indexer_holder_tokens').columns(['network', 'first_block']).execute();
}
