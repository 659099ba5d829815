import { PostgresAdapter, sql, type Kysely, type Transaction } from 'kysely';
import type { DatabaseSchema } from './schema.ts';

// A cap on the rows one owner may have in a table (an account's apps, its webhooks) that holds
// however many requests race: the count and the insert are one transaction, and one owner's such
// transactions run one at a time. On SQLite they begin IMMEDIATE, so every writer waits its turn
// (and the process's one connection runs its transactions in turn); PostgreSQL takes an advisory
// lock on the table and owner for the transaction, so only that owner's inserts wait.

/** Runs `insert` unless `ownerId` already has `max` rows in `table`; false when it has. */
export function insertUnderOwnerCap(
  db: Kysely<DatabaseSchema>,
  cap: { table: 'apps' | 'webhooks'; ownerId: string; max: number },
  insert: (trx: Transaction<DatabaseSchema>) => Promise<unknown>,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await sql`select pg_advisory_xact_lock(hashtextextended(${`${cap.table}:${cap.ownerId}`}, 0))`.execute(trx);
    }
    const { count } = await trx
      .selectFrom(cap.table)
      .select((eb) => eb.fn.countAll().as('count'))
      .where('owner_id', '=', cap.ownerId)
      .executeTakeFirstOrThrow();
    if (Number(count) >= cap.max) return false;
    await insert(trx);
    return true;
  });
}
