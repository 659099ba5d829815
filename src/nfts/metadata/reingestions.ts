import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.ts';

// Metadata fetched again on request (docs/nft-data.md#refresh-and-reingest): refreshNftMetadata and
// reingestContract mark the records due now, and the metadata worker (./worker.ts), which fetches
// the records checked longest ago first, takes them on its next pass, in whichever process runs it.
// A re-ingestion's progress is the contract's records tried since it was asked for.

/** Marks these records of `contract` (all of them without `tokenIds`) due: the worker's next pass fetches them again. */
export async function markRecordsDue(db: Kysely<DatabaseSchema>, network: string, contract: string, tokenIds?: readonly string[]): Promise<void> {
  let query = db.updateTable('nft_metadata').set({ checked_at: 0 }).where('network', '=', network).where('contract', '=', contract.toLowerCase());
  if (tokenIds) query = query.where('token_id', 'in', tokenIds.length ? [...tokenIds] : ['']);
  await query.execute();
}

type ReingestionState = 'does_not_exist' | 'already_queued' | 'in_progress' | 'finished' | 'queued' | 'queue_failed';

export interface Reingestion {
  state: ReingestionState;
  /** Percent of the tokens tried since the request, a whole number; null before any. */
  progress: string | null;
}

/**
 * Asks for every record of `contract` to be fetched again, unless a request is under way (then its
 * state and progress). `tokens` is the contract's held tokens now (0: the index has none of it).
 */
export async function requestReingestion(
  db: Kysely<DatabaseSchema>,
  request: { network: string; contract: string; tokens: number; now: number },
): Promise<Reingestion> {
  const contract = request.contract.toLowerCase();
  if (request.tokens === 0) return { state: 'does_not_exist', progress: null };
  return db.transaction().execute(async (trx) => {
    const earlier = await trx
      .selectFrom('nft_reingestions')
      .select(['requested_at', 'tokens'])
      .where('network', '=', request.network)
      .where('contract', '=', contract)
      .executeTakeFirst();
    if (earlier) {
      const done = await triedSince(trx, request.network, contract, Number(earlier.requested_at));
      const total = Number(earlier.tokens);
      if (done < total) return { state: done === 0 ? 'already_queued' : 'in_progress', progress: done === 0 ? null : percent(done, total) };
    }
    await trx
      .insertInto('nft_reingestions')
      .values({ network: request.network, contract, requested_at: request.now, tokens: request.tokens })
      .onConflict((conflict) => conflict.columns(['network', 'contract']).doUpdateSet({ requested_at: request.now, tokens: request.tokens }))
      .execute();
    await markRecordsDue(trx, request.network, contract);
    return { state: 'queued', progress: null };
  });
}

/** The contract's records tried at or after `since` (fetched again, or first fetched). */
async function triedSince(db: Kysely<DatabaseSchema>, network: string, contract: string, since: number): Promise<number> {
  const row = await db
    .selectFrom('nft_metadata')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('network', '=', network)
    .where('contract', '=', contract)
    .where('checked_at', '>=', since)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

const percent = (done: number, total: number) => String(Math.min(100, Math.floor((done * 100) / total)));
