import { randomBytes } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { hashAppKey as hashToken, sameKeyHash as sameHash } from '../apps/keys.ts';
import type { AccountTokenRow, DatabaseSchema } from '../db/schema.ts';
import { AppInputError } from '../apps/errors.ts';
import { NotFoundError } from './errors.ts';

// Account auth tokens for the webhook API (docs/webhooks.md#authentication, `X-Crucible-Token`). Until accounts exist an
// account is an owner id (apps carry the same `owner_id`). A token is `crt_` and 43 characters of
// base64url from 32 CSPRNG bytes (256 bits); it is shown once, when created: the database keeps its
// SHA-256 (the lookup, compared again in constant time) and nothing it could be read back from. An
// app key (32 characters, no prefix) never has a token's shape, so it is refused before any lookup.

const TOKEN_PREFIX = 'crt_';
const TOKEN_SHAPE = /^crt_[A-Za-z0-9_-]{43}$/;
const OWNER_SHAPE = /^[A-Za-z0-9_.:@-]{1,100}$/;

interface AccountToken {
  id: string;
  ownerId: string;
  name: string | null;
  createdAt: number;
  lastUsedAt: number | null;
  /** null while the token works. */
  revokedAt: number | null;
}

export interface AccountTokens {
  /** A new token for `ownerId`: the one time its text is handed out. */
  create(input: { ownerId: string; name?: string | null }): Promise<{ token: AccountToken; secret: string }>;
  /** Every token, or one owner's, oldest first; never their text. */
  list(ownerId?: string): Promise<AccountToken[]>;
  /** The token stops working at once; revoking it again does nothing. */
  revoke(id: string): Promise<AccountToken>;
  /** The owner a presented token authenticates, or null (absent, malformed, unknown or revoked). */
  authenticate(presented: string | null): Promise<string | null>;
}

export function createAccountTokens(db: Kysely<DatabaseSchema>, options: { now?: () => number } = {}): AccountTokens {
  const now = options.now ?? Date.now;
  return {
    async create(input) {
      const ownerId = input.ownerId.trim();
      if (!OWNER_SHAPE.test(ownerId)) throw new AppInputError('ownerId', 'must be 1 to 100 letters, digits or _.:@-');
      const name = input.name?.trim() || null;
      if (name !== null && name.length > 100) throw new AppInputError('name', 'must be at most 100 characters');
      const secret = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
      const row: AccountTokenRow = {
        id: `tok_${randomBytes(8).toString('hex')}`,
        owner_id: ownerId,
        name,
        token_hash: hashToken(secret),
        created_at: now(),
        last_used_at: null,
        revoked_at: null,
      };
      await db.insertInto('account_tokens').values(row).execute();
      return { token: toToken(row), secret };
    },

    async list(ownerId) {
      let query = db.selectFrom('account_tokens').selectAll().orderBy('created_at').orderBy('id');
      if (ownerId !== undefined) query = query.where('owner_id', '=', ownerId);
      return (await query.execute()).map(toToken);
    },

    async revoke(id) {
      const at = now();
      await db.updateTable('account_tokens').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).execute();
      const row = await db.selectFrom('account_tokens').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) throw new NotFoundError('token', id);
      return toToken(row);
    },

    async authenticate(presented) {
      if (presented === null || !TOKEN_SHAPE.test(presented)) return null;
      const hash = hashToken(presented);
      const row = await db
        .selectFrom('account_tokens')
        .select(['id', 'owner_id', 'token_hash', 'revoked_at'])
        .where('token_hash', '=', hash)
        .executeTakeFirst();
      if (!row || row.revoked_at !== null || !sameHash(row.token_hash, hash)) return null;
      await db.updateTable('account_tokens').set({ last_used_at: now() }).where('id', '=', row.id).execute();
      return row.owner_id;
    },
  };
}

function toToken(row: Selectable<AccountTokenRow>): AccountToken {
  return { id: row.id, ownerId: row.owner_id, name: row.name, createdAt: row.created_at, lastUsedAt: row.last_used_at, revokedAt: row.revoked_at };
}
