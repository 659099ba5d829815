import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { DatabaseConfig } from '../config/database.ts';

// The secret that seals app keys: APP_KEY_SECRET when set (required with PostgreSQL, where
// every process must hold the same one). Unset with SQLite, one machine's database, it is
// generated once into `app-key-secret` beside the database file and reused.

export const GENERATED_SECRET_FILE = 'app-key-secret';

export class AppKeySecretError extends Error {
  override name = 'AppKeySecretError';
}

export async function loadAppKeySecret(config: DatabaseConfig): Promise<Buffer> {
  if (config.appKeySecret) return config.appKeySecret;
  if (config.engine === 'postgres') throw new AppKeySecretError('APP_KEY_SECRET is required with PostgreSQL (openssl rand -hex 32).');
  const file = join(dirname(config.path), GENERATED_SECRET_FILE);
  return (await readSecretFile(file)) ?? (await createSecretFile(file));
}

async function readSecretFile(file: string): Promise<Buffer | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if (!/^[0-9a-f]{64}\n?$/.test(text)) {
    throw new AppKeySecretError(`${file} does not hold 64 hexadecimal digits; the keys sealed with it cannot be shown until it is restored.`);
  }
  return Buffer.from(text.trim(), 'hex');
}

/** Written whole under a temporary name and linked into place: processes starting at once agree on one secret. */
async function createSecretFile(file: string): Promise<Buffer> {
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(temporary, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
  try {
    await link(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(temporary);
  }
  return (await readSecretFile(file))!;
}
