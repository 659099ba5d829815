import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DatabaseSchema, SessionRow } from '../db/schema.ts';
import type { Account } from './account.ts';
import { toAccount } from './store.ts';

// Dashboard sessions (docs/dashboard.md#sessions). The session cookie holds 32 CSPRNG bytes (base64url); the
// database keeps their SHA-256 only, so a copy of the database signs no one in. Each session has
// its own CSRF token. A session ends 30 days after it began, or after 7 days unused.

export const SESSION_LIFETIME = {
  /** From sign-in, however often it is used. */
  maxAgeMs: 30 * 86_400_000,
  /** Since it was last used. */
  idleMs: 7 * 86_400_000,
} as const;

/** A session's last use is written at most this often: a page of requests is one write, not one each. */
const TOUCH_EVERY_MS = 60_000;

export interface Session {
  /** SHA-256 hex of the cookie's value. */
  idHash: string;
  accountId: string;
  csrfToken: string;
  createdAt: number;
  lastUsedAt: number;
}

export interface SessionStore {
  /** A new session: the cookie's value (`token`) is handed out here only. */
  start(accountId: string): Promise<{ token: string; session: Session }>;
  /** The live session a cookie's value names, with its account; null when absent, unknown or expired (then deleted). */
  find(token: string | undefined): Promise<{ session: Session; account: Account } | null>;
  /** Ends one session; ending an ended one does nothing. */
  end(idHash: string): Promise<void>;
  /** Ends every session of the account. */
  endAll(accountId: string): Promise<void>;
  /** Deletes the expired sessions of every account; resolves with how many. */
  sweep(): Promise<number>;
}

/** 32 random bytes, base64url (43 characters): a session cookie's value or a CSRF token. */
export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function createSessionStore(db: Kysely<DatabaseSchema>, options: { now?: () => number } = {}): SessionStore {
  const now = options.now ?? Date.now;
  const live = (row: Pick<SessionRow, 'created_at' | 'last_used_at'>, at: number) =>
    at - row.created_at < SESSION_LIFETIME.maxAgeMs && at - row.last_used_at < SESSION_LIFETIME.idleMs;

  return {
    async start(accountId) {
      const token = newSecretToken();
      const at = now();
      const row: SessionRow = { id_hash: hashSessionToken(token), account_id: accountId, csrf_token: newSecretToken(), created_at: at, last_used_at: at };
      await db.insertInto('sessions').values(row).execute();
      return { token, session: toSession(row) };
    },

    async find(token) {
      if (token === undefined || !TOKEN_SHAPE.test(token)) return null;
      const idHash = hashSessionToken(token);
      const row = await db
        .selectFrom('sessions')
        .innerJoin('accounts', 'accounts.id', 'sessions.account_id')
        .select([
          'sessions.id_hash',
          'sessions.account_id',
          'sessions.csrf_token',
          'sessions.created_at',
          'sessions.last_used_at',
          'accounts.email',
          'accounts.created_at as account_created_at',
        ])
        .where('sessions.id_hash', '=', idHash)
        .executeTakeFirst();
      if (!row) return null;
      const at = now();
      if (!live(row, at)) {
        await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
        return null;
      }
      if (at - row.last_used_at >= TOUCH_EVERY_MS) {
        await db.updateTable('sessions').set({ last_used_at: at }).where('id_hash', '=', idHash).execute();
        row.last_used_at = at;
      }
      return { session: toSession(row), account: toAccount({ id: row.account_id, email: row.email, created_at: row.account_created_at }) };
    },

    async end(idHash) {
      await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
    },

    async endAll(accountId) {
      await db.deleteFrom('sessions').where('account_id', '=', accountId).execute();
    },

    async sweep() {
      const at = now();
      const result = await db
        .deleteFrom('sessions')
        .where((eb) => eb.or([eb('last_used_at', '<=', at - SESSION_LIFETIME.idleMs), eb('created_at', '<=', at - SESSION_LIFETIME.maxAgeMs)]))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

function toSession(row: SessionRow): Session {
  return { idHash: row.id_hash, accountId: row.account_id, csrfToken: row.csrf_token, createdAt: row.created_at, lastUsedAt: row.last_used_at };
}
