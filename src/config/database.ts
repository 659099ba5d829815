import { resolve } from 'node:path';
import { z } from 'zod';
import { envValue, type Env } from './env.ts';
import { ConfigError } from './config-error.ts';
import { count } from './numbers.ts';

// Where the platform's database lives: one SQLite file by default,
// PostgreSQL when DATABASE_URL names one. The URL carries a password, so no message here
// repeats it. Every variable is listed in .env.example.

/** Which engine, and where: openDatabase (src/db/) takes this. */
export type DatabaseLocation =
  | { engine: 'postgres'; url: string }
  /** `cacheMib`: SQLITE_CACHE_MIB, the page cache of the connection; unset, SQLite's own (2 MiB). */
  | { engine: 'sqlite'; path: string; cacheMib?: number };

export type DatabaseConfig = DatabaseLocation & {
  /**
   * APP_KEY_SECRET: seals the app keys stored in this database (docs/keys-and-limits.md#key-format, keys can be viewed
   * again). null: SQLite only, where the secret is generated into a file beside the database.
   */
  appKeySecret: Buffer | null;
};

const DEFAULT_DATABASE_PATH = '.data/crucible.sqlite';

const databasePath = z.string().trim().min(1).default(DEFAULT_DATABASE_PATH);
/**
 * The SQLite connection's page cache: the transfer index's address indexes take a row per transfer
 * at each address's end, and a cache too small for those pages re-reads them (BENCHMARKS.md,
 * "Transfer indexer: where the backfill's time goes").
 */
const DEFAULT_SQLITE_CACHE_MIB = 16;

const postgresUrl = z.string().refine((value) => /^postgres(ql)?:$/.test(urlProtocol(value) ?? ''), {
  // The value itself may hold a password: the message names its scheme at most.
  error: (issue) => {
    const protocol = urlProtocol(String(issue.input));
    return `must be a postgres:// or postgresql:// URL (got ${protocol ? `a ${protocol} URL` : 'something that is not a URL'})`;
  },
});
const appKeySecret = z.string().transform((value, ctx) => {
  const bytes = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : decodeBase64(value);
  if (bytes?.length === 32) return bytes;
  ctx.addIssue({ code: 'custom', message: 'must be 32 bytes written as 64 hexadecimal digits or in base64 (openssl rand -hex 32)' });
  return z.NEVER;
});

/**
 * DATABASE_URL (postgres:// or postgresql://) selects PostgreSQL; unset, the SQLite file at
 * DATABASE_PATH with a page cache of SQLITE_CACHE_MIB. APP_KEY_SECRET is required with PostgreSQL: every process sharing the database
 * must open the keys sealed in it, so a secret generated on one machine will not do.
 */
export function readDatabaseConfig(env: Env): DatabaseConfig {
  const url = read(env, 'DATABASE_URL', postgresUrl.optional());
  const secret = read(env, 'APP_KEY_SECRET', appKeySecret.optional()) ?? null;
  if (url === undefined)
    return {
      engine: 'sqlite',
      path: readDatabasePath(env),
      cacheMib: read(env, 'SQLITE_CACHE_MIB', count(4096).optional()) ?? DEFAULT_SQLITE_CACHE_MIB,
      appKeySecret: secret,
    };
  if (!secret)
    throw new ConfigError('Invalid database configuration: APP_KEY_SECRET is required when DATABASE_URL is set (openssl rand -hex 32). See .env.example.');
  return { engine: 'postgres', url, appKeySecret: secret };
}

/** DATABASE_PATH as an absolute path (from the working directory): the faucet's store uses the same file. */
export function readDatabasePath(env: Env): string {
  return resolve(read(env, 'DATABASE_PATH', databasePath));
}

function read<T>(env: Env, name: string, schema: z.ZodType<T, string | undefined>): T {
  const parsed = schema.safeParse(envValue(env, name));
  if (parsed.success) return parsed.data;
  throw new ConfigError(`Invalid database configuration: ${name} ${parsed.error.issues[0]?.message ?? 'is invalid'}. See .env.example.`);
}

function urlProtocol(value: string): string | null {
  return URL.canParse(value) ? new URL(value).protocol : null;
}

/** base64 or base64url, strictly: a typo must not decode to some other secret. */
function decodeBase64(value: string): Buffer | null {
  const standard = value.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  if (!/^[A-Za-z0-9+/]+$/.test(standard)) return null;
  const bytes = Buffer.from(standard, 'base64');
  return bytes.toString('base64').replace(/=+$/, '') === standard ? bytes : null;
}
