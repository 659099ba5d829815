import type { Kysely } from 'kysely';
import type { Database } from '../db/open.ts';
import type { DatabaseSchema } from '../db/schema.ts';

// Which delivery process sends what (docs/webhooks.md#delivery: several may run). A delivery is claimed by one
// process at a time: its row names the claimer until `claim_expires_at`, after which a process that
// died is presumed gone and another sends it again (at-least-once). Only the head of each webhook's
// queue is claimable (no pending delivery of the same webhook before it), so a webhook's deliveries
// go out in order: the next waits until the one before succeeded or finally failed. On PostgreSQL
// the candidates are locked with FOR UPDATE SKIP LOCKED, so concurrent claimers pass over each
// other's rows instead of queueing; on SQLite the claim is taken in a write transaction (BEGIN
// IMMEDIATE: one writer at a time).

export interface ClaimedDelivery {
  id: string;
  webhookId: string;
  url: string;
  signingKey: string;
  payload: string;
  /** Attempts made before this claim (abandoned ones included). */
  attempts: number;
}

export interface ClaimInput {
  holder: string;
  now: number;
  claimMs: number;
  limit: number;
}

const ABANDONED_ERROR = 'the delivery process stopped before recording the answer';

export async function claimDueDeliveries(database: Database, input: ClaimInput): Promise<ClaimedDelivery[]> {
  if (input.limit <= 0) return [];
  return database.db.transaction().execute(async (trx) => {
    let candidates = dueHeads(trx, input.now).limit(input.limit);
    if (database.engine === 'postgres') candidates = candidates.forUpdate('d').skipLocked();
    const ids = (await candidates.execute()).map((row) => row.id);
    if (ids.length === 0) return [];
    await trx
      .updateTable('webhook_deliveries')
      .set({ claimed_by: input.holder, claim_expires_at: input.now + input.claimMs })
      .where('id', 'in', ids)
      .execute();
    // An attempt still `sending` belonged to a process that stopped mid-POST.
    await trx
      .updateTable('webhook_attempts')
      .set({ outcome: 'abandoned', error: ABANDONED_ERROR })
      .where('delivery_id', 'in', ids)
      .where('outcome', '=', 'sending')
      .execute();
    const rows = await trx
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
      .select(['d.id', 'd.webhook_id', 'w.url', 'w.signing_key', 'd.payload', 'd.attempts'])
      .where('d.id', 'in', ids)
      .orderBy('d.next_attempt_at')
      .orderBy('d.seq')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      webhookId: row.webhook_id,
      url: row.url,
      signingKey: row.signing_key,
      payload: row.payload,
      attempts: row.attempts,
    }));
  });
}

/**
 * Pending, due, unclaimed deliveries of active webhooks that are first in their webhook's queue.
 * Read from the webhooks: each active one's first pending delivery is one seek of
 * webhook_deliveries_heads, so a claim costs the number of webhooks, not of queued deliveries.
 */
function dueHeads(trx: Kysely<DatabaseSchema>, now: number) {
  return trx
    .selectFrom('webhooks as w')
    .innerJoin('webhook_deliveries as d', 'd.webhook_id', 'w.id')
    .select('d.id')
    .where('w.state', '=', 'active')
    .where('d.seq', '=', (eb) =>
      eb
        .selectFrom('webhook_deliveries as e')
        .select((inner) => inner.fn.min('e.seq').as('head'))
        .whereRef('e.webhook_id', '=', 'w.id')
        .where('e.status', '=', 'pending'),
    )
    .where('d.status', '=', 'pending')
    .where('d.next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('d.claim_expires_at', 'is', null), eb('d.claim_expires_at', '<', now)]))
    .orderBy('d.next_attempt_at')
    .orderBy('d.seq');
}
