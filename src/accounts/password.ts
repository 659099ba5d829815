import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// Account passwords (docs/dashboard.md#passwords): scrypt from node:crypto, stored as `scrypt$N$r$p$salt$key` with
// salt and key in base64url, so the cost can be raised later: a hash made with lower parameters
// still verifies, and says it wants to be made again (needsRehash) at the next sign-in.

export interface ScryptParameters {
  /** CPU and memory cost, a power of two. */
  N: number;
  r: number;
  p: number;
  saltBytes: number;
  keyBytes: number;
}

/**
 * N=2^17, r=8, p=1, OWASP's minimum for scrypt: 128·N·r = 128 MiB and a few hundred milliseconds
 * of one libuv thread per hash (store.ts bounds how many run at once).
 */
export const PASSWORD_HASHING: Readonly<ScryptParameters> = Object.freeze({ N: 2 ** 17, r: 8, p: 1, saltBytes: 16, keyBytes: 64 });

const PREFIX = 'scrypt';

/** Passwords are hashed in Unicode NFC: the same password typed on another system's keyboard matches. */
function scrypt(password: string, salt: Buffer, keyBytes: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(password.normalize('NFC'), salt, keyBytes, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** scrypt needs about 128·N·r bytes; node refuses more than `maxmem`, 32 MiB by default, so it is raised to fit with room to spare. */
const optionsOf = ({ N, r, p }: Pick<ScryptParameters, 'N' | 'r' | 'p'>): ScryptOptions => ({ N, r, p, maxmem: 256 * N * r + 1024 * 1024 });

export async function hashPassword(password: string, parameters: ScryptParameters = PASSWORD_HASHING): Promise<string> {
  const salt = randomBytes(parameters.saltBytes);
  const key = await scrypt(password, salt, parameters.keyBytes, optionsOf(parameters));
  return [PREFIX, parameters.N, parameters.r, parameters.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

interface StoredHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

/** The parts of a stored hash, or null when it is not one this module wrote. */
export function parsePasswordHash(stored: string): StoredHash | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== PREFIX) return null;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const salt = Buffer.from(parts[4]!, 'base64url');
  const key = Buffer.from(parts[5]!, 'base64url');
  const powerOfTwo = Number.isSafeInteger(N) && N > 1 && (N & (N - 1)) === 0;
  if (!powerOfTwo || !Number.isSafeInteger(r) || r < 1 || !Number.isSafeInteger(p) || p < 1 || salt.length < 8 || key.length < 16) return null;
  return { N, r, p, salt, key };
}

/** Whether `password` is the one `stored` was made from; a malformed hash matches nothing. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parsePasswordHash(stored);
  if (!parsed) return false;
  const key = await scrypt(password, parsed.salt, parsed.key.length, optionsOf(parsed));
  return timingSafeEqual(key, parsed.key);
}

/** A hash made with weaker parameters than today's: make it again while the password is at hand. */
export function needsRehash(stored: string, parameters: ScryptParameters = PASSWORD_HASHING): boolean {
  const parsed = parsePasswordHash(stored);
  return !parsed || parsed.N < parameters.N || parsed.r < parameters.r || parsed.p < parameters.p || parsed.key.length < parameters.keyBytes;
}
