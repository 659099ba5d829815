import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll } from 'vitest';
import type { DatabaseLocation } from '../../src/config/database.ts';
import { openDatabase, type Database } from '../../src/db/open.ts';
import { freePort } from './free-port.ts';

// A real, throwaway PostgreSQL (Debian's `postgresql` package): its own cluster in a temp
// folder, listening on 127.0.0.1 on a free port, without fsync, removed by stop(). PostgreSQL
// refuses to run as root, so under root (CI) the cluster belongs to the `postgres` user.

const BIN = '/usr/lib/postgresql/15/bin';
const SUPERUSER = 'crucible';

export interface TestPostgres {
  /** URL of a database created for the caller. */
  url: string;
  /** Creates another empty database on the same server; resolves with its URL. */
  createDatabase(): Promise<string>;
  stop(): Promise<void>;
}

interface RunAs {
  uid: number;
  gid: number;
}

export async function startPostgres(): Promise<TestPostgres> {
  if (!existsSync(join(BIN, 'postgres'))) throw new Error(`${BIN}/postgres is missing: apt-get install -y postgresql`);
  const dir = await mkdtemp(join(tmpdir(), 'crucible-postgres-'));
  try {
    const runAs = process.getuid?.() === 0 ? postgresUser() : null;
    if (runAs) await chown(dir, runAs.uid, runAs.gid);
    const dataDir = join(dir, 'data');
    await run(join(BIN, 'initdb'), ['-D', dataDir, '-U', SUPERUSER, '--auth=trust', '--encoding=UTF8', '--no-locale', '--no-sync'], runAs, dir);
    // postgres cannot report an OS-chosen port, so take a free one and retry if it was taken meanwhile.
    let lastError: unknown;
    for (let attempt = 0; attempt < 3; attempt++) {
      const port = await freePort();
      try {
        const server = await startServer(dataDir, dir, port, runAs);
        return await serving(server, dir, port);
      } catch (error) {
        lastError = error;
      }
    }
    throw lastError;
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

function postgresUser(): RunAs {
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw new Error('PostgreSQL refuses to run as root and there is no `postgres` user: apt-get install -y postgresql');
  }
}

function run(command: string, args: string[], runAs: RunAs | null, cwd: string): Promise<void> {
  // The cluster's own folder as the working directory: the postgres user may not enter ours.
  const child = spawn(command, args, { ...runAs, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited (code ${code}):\n${output}`))));
  });
}

function startServer(dataDir: string, socketDir: string, port: number, runAs: RunAs | null): Promise<ChildProcess> {
  const settings = [
    'listen_addresses=127.0.0.1',
    `port=${port}`,
    `unix_socket_directories=${socketDir}`,
    'fsync=off',
    'synchronous_commit=off',
    'full_page_writes=off',
  ];
  const child = spawn(join(BIN, 'postgres'), ['-D', dataDir, ...settings.flatMap((setting) => ['-c', setting])], {
    ...runAs,
    cwd: socketDir,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const onExit = (code: number | null) => reject(new Error(`postgres exited (code ${code}):\n${output}`));
    child.once('exit', onExit);
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!output.includes('database system is ready to accept connections')) return;
      child.off('exit', onExit);
      child.stderr.removeAllListeners('data');
      child.stderr.resume();
      resolve(child);
    });
  });
}

async function serving(server: ChildProcess, dir: string, port: number): Promise<TestPostgres> {
  let databases = 0;
  const urlOf = (name: string) => `postgres://${SUPERUSER}@127.0.0.1:${port}/${name}`;
  const createDatabase = async () => {
    const name = `test_${++databases}`;
    const client = new pg.Client({ connectionString: urlOf('postgres') });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE ${name}`);
    } finally {
      await client.end();
    }
    return urlOf(name);
  };
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((done) => server.once('exit', done));
      server.kill('SIGINT'); // fast shutdown: ends open sessions
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    return { url: await createDatabase(), createDatabase, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** One engine the tests run against: each location() is a fresh, empty database. */
export interface TestDatabaseEngine {
  name: DatabaseLocation['engine'];
  location(): Promise<DatabaseLocation>;
  /** openDatabase over a fresh location. */
  open(): Promise<Database>;
}

/**
 * Both engines, for `describe.each(databaseEngines())`: a SQLite file in a temp folder, and a
 * database on one PostgreSQL server started when first asked for. Both are removed after the
 * test file (call this at its top level).
 */
export function databaseEngines(): TestDatabaseEngine[] {
  let server: Promise<TestPostgres> | undefined;
  const folders: string[] = [];
  afterAll(async () => {
    const stopped = server?.then(
      (started) => started.stop(),
      () => undefined,
    );
    await Promise.all([stopped, ...folders.map((folder) => rm(folder, { recursive: true, force: true }))]);
  });
  const engine = (name: DatabaseLocation['engine'], location: () => Promise<DatabaseLocation>): TestDatabaseEngine => ({
    name,
    location,
    open: async () => openDatabase(await location()),
  });
  return [
    engine('sqlite', async () => {
      const folder = await mkdtemp(join(tmpdir(), 'crucible-sqlite-'));
      folders.push(folder);
      return { engine: 'sqlite', path: join(folder, 'crucible.sqlite') };
    }),
    engine('postgres', async () => {
      server ??= startPostgres();
      return { engine: 'postgres', url: await (await server).createDatabase() };
    }),
  ];
}
