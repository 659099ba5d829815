import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseLocation } from '../../../src/config/database.ts';
import { migrationProvider } from '../../../src/db/migrations/index.ts';
import { migrateToLatest, openDatabase, type Database } from '../../../src/db/open.ts';
import { openSqliteStore } from '../../../src/store/sqlite.ts';
import { databaseEngines, startPostgres } from '../../support/postgres.ts';

const engines = databaseEngines();

const openModule = pathToFileURL(resolve('src/db/open.ts')).href;

/** Opens the database in a child process, as a server or worker starting: resolves with its exit code. */
function openInChildProcess(location: DatabaseLocation): Promise<number> {
  const script = `
    const { openDatabase } = await import(${JSON.stringify(openModule)});
    await (await openDatabase(${JSON.stringify(location)})).close();`;
  return new Promise((done) => {
    const child = execFile(process.execPath, ['--input-type=module', '-e', script], (error, _stdout, stderr) => {
      if (error) console.error(stderr);
    });
    child.once('exit', (code) => done(code ?? -1));
  });
}

/** Each migration once, in name order. */
const everyMigration = Object.keys(await migrationProvider.getMigrations()).sort();

async function migrationsRun(database: Database): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(database.db);
  return rows.map((row) => row.name);
}

describe.each(engines)('openDatabase on $name', (engine) => {
  it('creates the tables, and a second run of the migrations is a no-op', async () => {
    const location = await engine.location();
    const first = await openDatabase(location);
    expect(first.engine).toBe(engine.name);
    expect(await first.db.selectFrom('apps').selectAll().execute()).toEqual([]);
    expect(await migrateToLatest(first.db)).toEqual([]);
    await first.close();
    await first.close();

    const again = await openDatabase(location);
    expect(await migrateToLatest(again.db)).toEqual([]);
    expect(await migrationsRun(again)).toEqual(everyMigration);
    await again.close();
  });

  it('migrates once when two processes open a fresh database at once', async () => {
    const location = await engine.location();
    // Were the migration run twice, its second CREATE TABLE would fail that process.
    expect(await Promise.all([openInChildProcess(location), openInChildProcess(location)])).toEqual([0, 0]);
    const database = await openDatabase(location);
    expect(await migrationsRun(database)).toEqual(everyMigration);
    await database.close();
  });

  it('reads bigint columns back as numbers beyond 32 bits', async () => {
    const database = await engine.open();
    const minute = Date.UTC(2030, 0, 1);
    const row = { app_id: 'app_x', network: 'base-sepolia', method: 'eth_call', minute, requests: 1, compute_units: 2 ** 40, errors: 0 };
    await database.db.insertInto('usage_minutes').values(row).execute();
    expect(await database.db.selectFrom('usage_minutes').selectAll().executeTakeFirst()).toEqual(row);
    await database.close();
  });
});

// In one process a SQLite file is opened once: node:sqlite is synchronous, so a second
// connection waiting for the file's lock would block the thread its peer needs to commit.
// PostgreSQL's pool may be opened twice in one process, and then migrates once too.
describe('openDatabase on PostgreSQL', () => {
  it('migrates once when two opens in one process race', async () => {
    const location = await engines.find((engine) => engine.name === 'postgres')!.location();
    const both = await Promise.all([openDatabase(location), openDatabase(location)]);
    expect(await migrationsRun(both[0])).toEqual(everyMigration);
    await Promise.all(both.map((database) => database.close()));
  });

  it('has ended every connection when close() resolves, so a server stopped right after logs no failed connection', async () => {
    const server = await startPostgres();
    const logged = vi.spyOn(console, 'error');
    try {
      const database = await openDatabase({ engine: 'postgres', url: server.url });
      // Several pooled connections at once, all idle once their callbacks return.
      const held = 4;
      let entered = 0;
      let allIn!: () => void;
      const everyoneIn = new Promise<void>((resolve) => (allIn = resolve));
      await Promise.all(
        Array.from({ length: held }, () =>
          database.db.connection().execute(async (connection) => {
            await sql`select 1`.execute(connection);
            if (++entered === held) allIn();
            await everyoneIn;
          }),
        ),
      );
      await database.close();
      // A fast shutdown ends every session still open with "terminating connection due to
      // administrator command": none is left to end.
      await server.stop();
      expect(logged.mock.calls.filter((call) => String(call[0]).includes('PostgreSQL'))).toEqual([]);
    } finally {
      logged.mockRestore();
      await server.stop();
    }
  });
});

describe('openDatabase on SQLite', () => {
  const folders: string[] = [];
  afterAll(() => Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true }))));

  it("shares one file with the faucet's store, each versioning its own tables", async () => {
    const folder = await mkdtemp(join(tmpdir(), 'crucible-db-'));
    folders.push(folder);
    const path = join(folder, 'nested', 'crucible.sqlite');
    const store = openSqliteStore(path);
    const database = await openDatabase({ engine: 'sqlite', path });
    expect(await database.db.selectFrom('apps').selectAll().execute()).toEqual([]);
    const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table' order by name`.execute(database.db);
    expect(tables.rows.map((row) => row.name)).toEqual(expect.arrayContaining(['apps', 'drips', 'address_limits', 'kysely_migration']));
    const pragmas = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(database.db);
    expect(pragmas.rows[0]?.journal_mode).toBe('wal');
    const foreignKeys = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(database.db);
    expect(foreignKeys.rows[0]?.foreign_keys).toBe(1);
    await database.close();
    await store.close();
    // Reopened in the other order, neither migrates again.
    const reopened = await openDatabase({ engine: 'sqlite', path });
    expect(await migrateToLatest(reopened.db)).toEqual([]);
    await reopened.close();
    openSqliteStore(path).close();
  });
});
