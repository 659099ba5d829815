import { stat, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AppKeySecretError, GENERATED_SECRET_FILE, loadAppKeySecret } from '../../../src/apps/key-secret.ts';

const folders: string[] = [];
afterAll(() => Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true }))));

async function sqliteIn(): Promise<{ folder: string; path: string }> {
  const folder = await mkdtemp(join(tmpdir(), 'crucible-secret-'));
  folders.push(folder);
  return { folder, path: join(folder, 'data', 'crucible.sqlite') };
}

describe('loadAppKeySecret', () => {
  it('takes APP_KEY_SECRET when it is set', async () => {
    const secret = Buffer.alloc(32, 9);
    expect(await loadAppKeySecret({ engine: 'postgres', url: 'postgres://db/x', appKeySecret: secret })).toBe(secret);
    const { path } = await sqliteIn();
    expect(await loadAppKeySecret({ engine: 'sqlite', path, appKeySecret: secret })).toBe(secret);
  });

  it('generates one secret beside the SQLite file, readable by its owner only, and reuses it', async () => {
    const { folder, path } = await sqliteIn();
    const config = { engine: 'sqlite' as const, path, appKeySecret: null };
    const [first, second] = await Promise.all([loadAppKeySecret(config), loadAppKeySecret(config)]);
    expect(first).toHaveLength(32);
    expect(second).toEqual(first);
    expect(await loadAppKeySecret(config)).toEqual(first);
    const file = join(folder, 'data', GENERATED_SECRET_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readFile(file, 'utf8')).trim()).toBe(first.toString('hex'));
  });

  it('refuses a damaged secret file rather than replacing it', async () => {
    const { folder, path } = await sqliteIn();
    await loadAppKeySecret({ engine: 'sqlite', path, appKeySecret: null });
    await writeFile(join(folder, 'data', GENERATED_SECRET_FILE), 'short');
    await expect(loadAppKeySecret({ engine: 'sqlite', path, appKeySecret: null })).rejects.toThrow(AppKeySecretError);
  });

  it('refuses PostgreSQL without a configured secret', async () => {
    await expect(loadAppKeySecret({ engine: 'postgres', url: 'postgres://db/x', appKeySecret: null })).rejects.toThrow(/APP_KEY_SECRET is required/);
  });
});
