import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';

// App keys (docs/keys-and-limits.md#key-format): 32 characters of [A-Za-z0-9_-] from 24 random bytes (192 bits). The
// database holds a key twice: as its SHA-256 (the gateway's lookup, compared in constant time)
// and sealed with AES-256-GCM under APP_KEY_SECRET (its owner can view it again). The sealed
// copy is bound to its app id, so it cannot be moved to another app's row.

const KEY_SHAPE = /^[A-Za-z0-9_-]{32}$/;
const SEALED_VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export function newAppKey(): string {
  return randomBytes(24).toString('base64url');
}

export function newAppId(): string {
  return `app_${randomBytes(8).toString('hex')}`;
}

/** Whether a string could be an app key at all; anything else is refused before a lookup. */
export function hasAppKeyShape(key: string): boolean {
  return KEY_SHAPE.test(key);
}

/** SHA-256 hex of a key, as stored in apps.key_hash. */
export function hashAppKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Constant-time comparison of two key hashes. */
export function sameKeyHash(stored: string, presented: string): boolean {
  const a = Buffer.from(stored, 'hex');
  const b = Buffer.from(presented, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

export function sealAppKey(key: string, appId: string, secret: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', secret, iv);
  cipher.setAAD(Buffer.from(appId));
  const ciphertext = Buffer.concat([cipher.update(key, 'utf8'), cipher.final()]);
  return `${SEALED_VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url')}`;
}

/** The key sealed for this app, or null when this secret (or this app id) does not open it. */
export function openSealedAppKey(sealed: string, appId: string, secret: Buffer): string | null {
  const [version, body] = sealed.split('.');
  if (version !== SEALED_VERSION || !body) return null;
  const bytes = Buffer.from(body, 'base64url');
  if (bytes.length <= IV_BYTES + TAG_BYTES) return null;
  const decipher = createDecipheriv('aes-256-gcm', secret, bytes.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(appId));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
