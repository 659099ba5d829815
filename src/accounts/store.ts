import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AccountRow, DatabaseSchema } from '../db/schema.ts';
import { newAccountId, normalizeEmail, type Account } from './account.ts';
import { EmailTakenError, WrongPasswordError } from './errors.ts';
import { createHashingSlots, type HashingSlotsOptions } from './hashing-slots.ts';
import { hashPassword, needsRehash, verifyPassword } from './password.ts';

// Accounts over the database (docs/dashboard.md#accounts), the same on SQLite and PostgreSQL. Inputs are
// validated by the caller (src/dashboard/schemas.ts); emails are normalized here again, so the
// unique column is the case-blind one. Every scrypt (hash or check) takes a slot of `hashing`:
// a call that finds them all taken and the queue full rejects with PasswordHashingBusyError.

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

export interface AccountStoreOptions {
  now?: () => number;
  /** How many password hashes run at once and wait (DASHBOARD_SCRYPT_*); unset, all at once. */
  hashing?: HashingSlotsOptions;
}

export function createAccountStore(db: Kysely<DatabaseSchema>, options: AccountStoreOptions = {}): AccountStore {
  const now = options.now ?? Date.now;
  const slots = createHashingSlots(options.hashing ?? { concurrency: Number.POSITIVE_INFINITY, queue: 0 });
  // Made once, when first needed, with today's parameters: what an unknown email is checked against.
  let dummyHash: Promise<string> | undefined;
  const dummy = () => (dummyHash ??= hashPassword(randomBytes(16).toString('hex')));

  const rowByEmail = (email: string) => db.selectFrom('accounts').selectAll().where('email', '=', normalizeEmail(email)).executeTakeFirst();
  const setHash = async (id: string, passwordHash: string) => {
    await db.updateTable('accounts').set({ password_hash: passwordHash, updated_at: now() }).where('id', '=', id).execute();
  };
  /**
   * In one slot: whether `password` matches `stored` and, if it does, a hash of `thenHash` (when
   * given): the check and the hash run one after the other, never holding two slots.
   */
  const check = (password: string, stored: string, thenHash: string | null) =>
    slots.run(async () => {
      const matches = await verifyPassword(password, stored);
      return { matches, newHash: matches && thenHash !== null ? await hashPassword(thenHash) : null };
    });

  return {
    async create({ email, password }) {
      const at = now();
      const passwordHash = await slots.run(() => hashPassword(password));
      const row: AccountRow = { id: newAccountId(), email: normalizeEmail(email), password_hash: passwordHash, created_at: at, updated_at: at };
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
      const stored = row?.password_hash ?? (await dummy());
      // A hash of lower parameters (an older default) is made again while the password is at hand.
      const { matches, newHash } = await check(password, stored, row && needsRehash(stored) ? password : null);
      if (!row || !matches) return null;
      if (newHash) await setHash(row.id, newHash);
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
      if (!row) throw new WrongPasswordError();
      const { newHash } = await check(currentPassword, row.password_hash, newPassword);
      if (!newHash) throw new WrongPasswordError();
      await setHash(id, newHash);
      return toAccount(row);
    },
  };
}

export function toAccount(row: Pick<AccountRow, 'id' | 'email' | 'created_at'>): Account {
  return { id: row.id, email: row.email, createdAt: row.created_at };
}
