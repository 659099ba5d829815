import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/schema.ts';

// One leader per network through the database (docs/token-data.md#leadership): a lease row naming the process and
// until when. The leader renews it before each step, and every write of the index renews it in its
// own transaction first, so a process whose lease another took commits nothing (a fence). Expiry
// uses each process's clock: keep clocks within a fraction of the lease (NTP is plenty).

export class LeaseLostError extends Error {
  override name = 'LeaseLostError';
  readonly network: string;
  constructor(network: string) {
    super(`this process no longer holds the indexer lease of ${network}`);
    this.network = network;
  }
}

interface LeaseClaim {
  network: string;
  holder: string;
  now: number;
  leaseMs: number;
}

/** Takes the network's lease if it is free or expired (or already ours); true when this process now holds it. */
export async function acquireLease(db: Kysely<DatabaseSchema>, claim: LeaseClaim): Promise<boolean> {
  const expiresAt = claim.now + claim.leaseMs;
  const inserted = await db
    .insertInto('indexer_leases')
    .values({ network: claim.network, holder: claim.holder, expires_at: expiresAt, acquired_at: claim.now })
    .onConflict((conflict) => conflict.column('network').doNothing())
    .executeTakeFirst();
  if (inserted.numInsertedOrUpdatedRows === 1n) return true;
  // On PostgreSQL a competing update waits for this one and re-reads the row: only one takes it.
  const taken = await db
    .updateTable('indexer_leases')
    .set({ holder: claim.holder, expires_at: expiresAt, acquired_at: claim.now })
    .where('network', '=', claim.network)
    .where((eb) => eb.or([eb('expires_at', '<=', claim.now), eb('holder', '=', claim.holder)]))
    .executeTakeFirst();
  return taken.numUpdatedRows === 1n;
}

/** Extends a lease this process holds; false when another process holds it now. */
export async function renewLease(db: Kysely<DatabaseSchema>, claim: LeaseClaim): Promise<boolean> {
  const renewed = await db
    .updateTable('indexer_leases')
    .set({ expires_at: claim.now + claim.leaseMs })
    .where('network', '=', claim.network)
    .where('holder', '=', claim.holder)
    .executeTakeFirst();
  return renewed.numUpdatedRows === 1n;
}

/** Renews inside a write's transaction, or throws LeaseLostError so the transaction rolls back. */
export async function fenceLease(trx: Kysely<DatabaseSchema>, claim: LeaseClaim): Promise<void> {
  if (!(await renewLease(trx, claim))) throw new LeaseLostError(claim.network);
}

/** Gives the lease up (a stopping process), so another takes over at once rather than at expiry. */
export async function releaseLease(db: Kysely<DatabaseSchema>, network: string, holder: string): Promise<void> {
  await db.deleteFrom('indexer_leases').where('network', '=', network).where('holder', '=', holder).execute();
}
