import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.ts';
import { assetTransfers } from '../../transfers/asset-transfers.ts';
import { tokensOfHolder } from '../../transfers/queries.ts';
import type { TokenIndex } from '../../tokens/token-index.ts';

// A network's transfer index as the token methods read it, from the database the indexer writes
// (in this process, or in `npm run worker -- indexer` processes on the same database).

/** Thrown when the index holds nothing for the network yet: an empty answer would be a wrong one. */
export class IndexNotReadyError extends Error {
  override name = 'IndexNotReadyError';
}

/** `ready`: settles when the network's index can answer (a fresh devnet's first answer waits for it). */
export function databaseTokenIndex(db: Kysely<DatabaseSchema>, network: string, ready?: (network: string) => Promise<void>): TokenIndex {
  const coverage = async () => {
    await ready?.(network);
    // Asked each time: after a reset (a chain that was replaced) the index is empty until rebuilt.
    const row = await db
      .selectFrom('indexer_checkpoints')
      .select(['block_number', 'block_hash', 'internal_transfers', 'internal_from_block'])
      .where('network', '=', network)
      .executeTakeFirst();
    if (!row?.block_hash) throw new IndexNotReadyError(`the transfer index of ${network} has not indexed a block yet`);
    return { indexedBlock: row.block_number, internalTransfers: row.internal_transfers, internalFromBlock: row.internal_from_block };
  };
  return {
    async tokensOfHolder(holder, page) {
      await coverage();
      return tokensOfHolder(db, network, holder, page);
    },
    coverage,
    async assetTransfers(filter) {
      return assetTransfers(db, network, filter);
    },
  };
}
