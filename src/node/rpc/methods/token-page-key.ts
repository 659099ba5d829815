import type { Address } from 'viem';

// The pageKey of "erc20" answers (docs/token-data.md#paging): opaque to callers, it is the last contract of the
// page as base64url of its 20 bytes; the next page starts after it in the index's address order.

/** The pageKey after `lastContract`. */
export function encodePageKey(lastContract: Address): string {
  return Buffer.from(lastContract.slice(2), 'hex').toString('base64url');
}

/** The contract a pageKey names, or null when it is not one this method gave (only the canonical spelling is). */
export function decodePageKey(pageKey: string): Address | null {
  if (!/^[A-Za-z0-9_-]{27}$/.test(pageKey)) return null;
  const bytes = Buffer.from(pageKey, 'base64url');
  if (bytes.length !== 20 || bytes.toString('base64url') !== pageKey) return null;
  return `0x${bytes.toString('hex')}`;
}
