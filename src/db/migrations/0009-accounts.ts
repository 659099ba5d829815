import type { Kysely } from 'kysely';

// Dashboard accounts and their sessions (docs/dashboard.md#accounts). An account's id (`acc_` + 16 hex digits) is
// the owner id of its apps, auth tokens and webhooks. Emails are stored trimmed and lowercased, so
// the unique constraint is the case-blind one. A session is kept by the SHA-256 of its cookie's
// value only; deleting an account deletes its sessions.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('accounts')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('email', 'text', (column) => column.notNull().unique())
    // `scrypt$N$r$p$salt$key` (base64url): the parameters travel with the hash, so they can be raised.
    .addColumn('password_hash', 'text', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id_hash', 'text', (column) => column.primaryKey())
    .addColumn('account_id', 'text', (column) => column.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('csrf_token', 'text', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('last_used_at', 'bigint', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('sessions_by_account').on('sessions').column('account_id').execute();
  // Expired sessions are swept by age.
  await db.schema.createIndex('sessions_by_last_use').on('sessions').column('last_used_at').execute();
}
