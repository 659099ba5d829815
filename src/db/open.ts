import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Kysely, PostgresDialect, type Dialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import type { DatabaseLocation } from '../config/database.ts';
import { redactUrls } from '../log/redact.ts';
import { migrationProvider } from './migrations/index.ts';
import { NodeSqliteDialect } from './node-sqlite-dialect.ts';
import type { DatabaseSchema } from './schema.ts';

// One database interface over two engines: the SQLite file under
// .data/ that the faucet's store also uses (its tables versioned by PRAGMA user_version, these by
// kysely's migration tables), or PostgreSQL shared by many processes.

export interface Database {
  db: Kysely<DatabaseSchema>;
  engine: DatabaseLocation['engine'];
  /** Closes the connection (SQLite) or the pool (PostgreSQL), resolving once every connection has ended; a second call does nothing. */
  close(): Promise<void>;
}

class MigrationError extends Error {
  override name = 'MigrationError';
}

/**
 * Opens the database and brings its schema up to date before resolving. Open a SQLite file once
 * per process and share the Database: node:sqlite is synchronous, so a second connection waiting
 * for the file's write lock would block the thread the first one needs to commit.
 */
export async function openDatabase(location: DatabaseLocation): Promise<Database> {
  const { dialect, connectionsEnded } =
    location.engine === 'postgres'
      ? postgresDialect(location.url)
      : { dialect: sqliteDialect(location.path, location.cacheMib), connectionsEnded: async () => {} };
  const db = new Kysely<DatabaseSchema>({ dialect });
  let closed: Promise<void> | undefined;
  const close = () => (closed ??= db.destroy().then(connectionsEnded));
  try {
    await migrateToLatest(db);
  } catch (error) {
    await close();
    throw error;
  }
  return { db, engine: location.engine, close };
}

/**
 * Runs the migrations not yet run; none left is a no-op. kysely's migrator serializes
 * processes that start at once: an advisory lock on PostgreSQL, an IMMEDIATE transaction on
 * SQLite (src/db/node-sqlite-dialect.ts). Resolves with the names of the migrations it ran.
 */
export async function migrateToLatest(db: Kysely<DatabaseSchema>): Promise<string[]> {
  const { error, results = [] } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  if (error !== undefined) {
    const failed = results.find((result) => result.status === 'Error')?.migrationName;
    const cause = redactUrls(error instanceof Error ? error.message : String(error));
    throw new MigrationError(`Database migration${failed ? ` ${failed}` : 's'} failed: ${cause}`, { cause: error });
  }
  return results.filter((result) => result.status === 'Success').map((result) => result.migrationName);
}

function sqliteDialect(path: string, cacheMib: number | undefined): Dialect {
  mkdirSync(dirname(path), { recursive: true });
  const database = new DatabaseSync(path, { timeout: 5000 });
  // busy_timeout first: switching to WAL waits for other connections too.
  database.exec('PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;');
  // A negative cache_size is KiB.
  if (cacheMib !== undefined) database.exec(`PRAGMA cache_size = -${Math.trunc(cacheMib) * 1024};`);
  return new NodeSqliteDialect(database);
}

/** `connectionsEnded`: resolves once every connection the pool opened has closed. */
function postgresDialect(url: string): { dialect: Dialect; connectionsEnded: () => Promise<void> } {
  // bigint columns (ms timestamps, counters) read as numbers, as SQLite gives them.
  const types = new pg.TypeOverrides();
  types.setTypeParser(pg.types.builtins.INT8, parseSafeInteger);
  const pool = new pg.Pool({ connectionString: url, types });
  // A connection that fails while idle is replaced by the pool; without a listener it would end the process.
  pool.on('error', (error) =>
    console.error(JSON.stringify({ level: 'error', component: 'database', message: 'an idle PostgreSQL connection failed', cause: redactUrls(error.message) })),
  );
  // The pool's end() resolves once it has asked each connection to end, not once they have: until
  // then a server shutting down would still end them, and that is logged as a failure above.
  const open = new Set<Promise<void>>();
  pool.on('connect', (client) => {
    const ended = new Promise<void>((resolve) => client.once('end', resolve));
    open.add(ended);
    void ended.then(() => open.delete(ended));
  });
  return { dialect: new PostgresDialect({ pool }), connectionsEnded: async () => void (await Promise.all(open)) };
}

function parseSafeInteger(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`a bigint column holds ${text}, beyond the integers a number holds exactly`);
  return value;
}
