import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { readDatabaseConfig, readDatabasePath } from '../../../src/config/database.ts';
import { openDatabase } from '../../../src/db/open.ts';

const SECRET_HEX = 'ab'.repeat(32);

/** Matches a ConfigError whose message matches `pattern` and holds none of `secrets`. */
function configError(pattern: RegExp, ...secrets: string[]) {
  return expect.objectContaining({
    name: 'ConfigError',
    message: expect.toSatisfy((message: string) => pattern.test(message) && secrets.every((secret) => !message.includes(secret))),
  });
}

describe('readDatabaseConfig', () => {
  it('is the SQLite file under .data/ by default, resolved from the working directory', () => {
    expect(readDatabaseConfig({})).toEqual({ engine: 'sqlite', path: resolve('.data/crucible.sqlite'), cacheMib: 16, appKeySecret: null });
    expect(readDatabaseConfig({ DATABASE_PATH: 'var/db.sqlite', DATABASE_URL: '' })).toMatchObject({ engine: 'sqlite', path: resolve('var/db.sqlite') });
    expect(readDatabasePath({ DATABASE_PATH: '/srv/crucible.sqlite' })).toBe('/srv/crucible.sqlite');
  });

  it('takes the SQLite page cache from SQLITE_CACHE_MIB, and refuses a size it cannot be, naming it', () => {
    expect(readDatabaseConfig({ SQLITE_CACHE_MIB: ' 64 ' })).toMatchObject({ engine: 'sqlite', cacheMib: 64 });
    for (const written of ['0', '-16', '1.5', '16MiB', '4097']) {
      expect(() => readDatabaseConfig({ SQLITE_CACHE_MIB: written })).toThrow(
        configError(/^Invalid database configuration: SQLITE_CACHE_MIB must be a whole number from 1 to 4096/),
      );
    }
  });

  it('opens SQLite with that page cache', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'crucible-cache-'));
    const database = await openDatabase(readDatabaseConfig({ DATABASE_PATH: join(folder, 'db.sqlite'), SQLITE_CACHE_MIB: '24' }));
    try {
      // Negative: KiB.
      expect((await sql<{ cache_size: number }>`pragma cache_size`.execute(database.db)).rows).toEqual([{ cache_size: -24 * 1024 }]);
    } finally {
      await database.close();
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('is PostgreSQL for a postgres:// or postgresql:// URL, with the app key secret', () => {
    for (const url of ['postgres://crucible:pw@db.internal:5432/crucible', 'postgresql://db.internal/crucible?sslmode=require']) {
      const config = readDatabaseConfig({ DATABASE_URL: url, APP_KEY_SECRET: SECRET_HEX });
      expect(config).toEqual({ engine: 'postgres', url, appKeySecret: Buffer.from(SECRET_HEX, 'hex') });
    }
  });

  it('refuses another scheme naming DATABASE_URL, and never repeats its password', () => {
    for (const url of ['mysql://crucible:hunter2@db.internal/crucible', 'crucible:hunter2@db.internal', 'sqlite:///tmp/x.sqlite']) {
      expect(() => readDatabaseConfig({ DATABASE_URL: url, APP_KEY_SECRET: SECRET_HEX })).toThrow(
        configError(/^Invalid database configuration: DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL/, 'hunter2', 'db.internal'),
      );
    }
  });

  it('takes APP_KEY_SECRET as 32 bytes of hex, base64 or base64url', () => {
    const bytes = Buffer.from(SECRET_HEX, 'hex');
    for (const written of [SECRET_HEX, SECRET_HEX.toUpperCase(), bytes.toString('base64'), bytes.toString('base64url')]) {
      expect(readDatabaseConfig({ APP_KEY_SECRET: written }).appKeySecret).toEqual(bytes);
    }
  });

  it('refuses a secret of another length or spelling, without repeating it', () => {
    for (const written of ['ab'.repeat(31), 'ab'.repeat(33), Buffer.alloc(16, 7).toString('base64'), `${SECRET_HEX.slice(0, 63)}g`, 'not a secret']) {
      expect(() => readDatabaseConfig({ APP_KEY_SECRET: written })).toThrow(
        configError(/^Invalid database configuration: APP_KEY_SECRET must be 32 bytes/, written),
      );
    }
  });

  it('requires APP_KEY_SECRET with PostgreSQL: every process must open the same sealed keys', () => {
    expect(() => readDatabaseConfig({ DATABASE_URL: 'postgres://db.internal/crucible' })).toThrow(
      configError(/APP_KEY_SECRET is required when DATABASE_URL is set/),
    );
  });
});
