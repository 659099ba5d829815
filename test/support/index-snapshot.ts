import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../../src/db/schema.ts';

// The transfer index of one network as rows, to compare an index built through kills and
// takeovers with one a fresh worker builds of the same chain (test/integration/crash/,
// test/integration/topology/).

/** Everything the index holds of the network, in key order; of the checkpoint, where it stands (not when). */
export async function indexSnapshot(db: Kysely<DatabaseSchema>, network: string) {
  const checkpoint = await db
    .selectFrom('indexer_checkpoints')
    .select(['genesis_hash', 'block_number', 'block_hash', 'block_timestamp', 'head_number', 'state'])
    .where('network', '=', network)
    .executeTakeFirst();
  const transfers = await db
    .selectFrom('indexer_transfers')
    .selectAll()
    .where('network', '=', network)
    .orderBy('block_number')
    .orderBy('log_index')
    .orderBy('batch_index')
    .execute();
  const holderTokens = await db.selectFrom('indexer_holder_tokens').selectAll().where('network', '=', network).orderBy('holder').orderBy('contract').execute();
  const nftBalances = await db
    .selectFrom('indexer_nft_balances')
    .selectAll()
    .where('network', '=', network)
    .orderBy('owner')
    .orderBy('contract')
    .orderBy('token_id')
    .execute();
  const blocks = await db.selectFrom('indexer_blocks').selectAll().where('network', '=', network).orderBy('block_number').execute();
  return { checkpoint, transfers, holderTokens, nftBalances, blocks };
}
