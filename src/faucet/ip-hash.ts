import { createHmac } from 'node:crypto';

/**
 * The form in which a client IP is stored (ledger, per-IP limit): an HMAC-SHA256 keyed with
 * IP_HASH_SALT, so the stored value cannot be reversed by hashing all IPv4 addresses without
 * the secret. `::ffff:1.2.3.4` and `1.2.3.4` are one client.
 */
export function hashIp(ip: string, salt: string): string {
  const normalized = ip
    .trim()
    .toLowerCase()
    .replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  return createHmac('sha256', salt).update(normalized).digest('hex');
}
