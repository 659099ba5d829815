import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AccountRow, DatabaseSchema } from '../db/schema.ts';
import { newAccountId, normalizeEmail, type Account } from './account.ts';
import { EmailTakenError, WrongPasswordError } from './errors.ts';
import { hashPassword, needsRehash, verifyPassword } from './password.ts';

// Accounts over the database (platform §8), the same on SQLite and PostgreSQL. Inputs are
// validated by the caller (src/dashboard/schemas.ts); emails are normalized here again, so the
// unique column is the case-blind one.

export interface AccountStore {
  /** A new account; EmailTakenError when the email has one. */
  create(input: { email: string; password: string }): Promise<Account>;
  /**
   * The account whose email and password these are, or null. An unknown email costs the same
   * scrypt work as a wrong password (a dummy hash), so the time taken does not tell them apart.
   */
  verify(input: { email: string; password: string }): Promise<Account | null>;
  get(id: string): Promise<Account | null>;
  /** The account with this email (in any case), or null: for operators (`npm run apps -- … --owner <email>`), not for sign-in. */
  findByEmail(email: string): Promise<Account | null>;
  /** WrongPasswordError when `currentPassword` is not the account's. */
  changePassword(id: string, input: { currentPassword: string; newPassword: string }): Promise<Account>;
}

export function createAccountStore(db: Kysely<DatabaseSchema>, options: { now?: () => number } = {}): AccountStore {
  const now = options.now ?? Date.now;
  // Made once, when first needed, with today's parameters: what an unknown email is checked against.
  let dummyHash: Promise<string> | undefined;
  const dummy = () => (dummyHash ??= hashPassword(randomBytes(16).toString('hex')));

  const rowByEmail = (email: string) => db.selectFrom('accounts').selectAll().where('email', '=', normalizeEmail(email)).executeTakeFirst();
  const setHash = async (id: string, password: string) => {
    await db
      .updateTable('accounts')
      .set({ password_hash: await hashPassword(password), updated_at: now() })
      .where('id', '=', id)
      .execute();
  };

  return {
    async create({ email, password }) {
      const at = now();
      const row: AccountRow = { id: newAccountId(), email: normalizeEmail(email), password_hash: await hashPassword(password), created_at: at, updated_at: at };
      // One statement decides a race of two sign-ups with one email.
      const inserted = await db
        .insertInto('accounts')
        .values(row)
        .onConflict((conflict) => conflict.column('email').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!inserted) throw new EmailTakenError();
      return toAccount(row);
    },

    async verify({ email, password }) {
      const row = await rowByEmail(email);
      const matches = await verifyPassword(password, row?.password_hash ?? (await dummy()));
      if (!row || !matches) return null;
      if (needsRehash(row.password_hash)) await setHash(row.id, password);
      return toAccount(row);
    },

    async get(id) {
      const row = await db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toAccount(row) : null;
    },

    async findByEmail(email) {
      const row = await rowByEmail(email);
      return row ? toAccount(row) : null;
    },

    async changePassword(id, { currentPassword, newPassword }) {
      const row = await db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row || !(await verifyPassword(currentPassword, row.password_hash))) throw new WrongPasswordError();
      await setHash(id, newPassword);
      return toAccount(row);
    },
  };
}

export function toAccount(row: Pick<AccountRow, 'id' | 'email' | 'created_at'>): Account {
  return { id: row.id, email: row.email, createdAt: row.created_at };
}
