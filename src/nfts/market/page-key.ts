import { createHash } from 'node:crypto';

// The pageKey of getNFTSales: opaque to callers, it is the last sale of the page (its block and log
// index) with a fingerprint of the query it was given for (filters and order), as base64url. A key
// another query gave, or any text this did not write, is refused (400).

export interface SalesCursor {
  blockNumber: number;
  logIndex: number;
}

const SHAPE = /^s1:([0-9a-f]{16}):(0|[1-9]\d{0,15}):(0|[1-9]\d{0,9})$/;

/** What identifies a query across its pages: every filter and the order, normalised. */
export function salesFingerprint(query: Record<string, string | number | undefined>): string {
  const fields = Object.keys(query)
    .sort()
    .map((name) => `${name}=${query[name] ?? ''}`);
  return createHash('sha256').update(fields.join('&')).digest('hex').slice(0, 16);
}

export function encodeSalesPageKey(fingerprint: string, cursor: SalesCursor): string {
  return Buffer.from(`s1:${fingerprint}:${cursor.blockNumber}:${cursor.logIndex}`).toString('base64url');
}

/** The cursor a pageKey names for the query of `fingerprint`, or null when it is not one this gave for it. */
export function decodeSalesPageKey(fingerprint: string, pageKey: string): SalesCursor | null {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(pageKey)) return null;
  const text = Buffer.from(pageKey, 'base64url').toString('latin1');
  if (Buffer.from(text, 'latin1').toString('base64url') !== pageKey) return null;
  const match = SHAPE.exec(text);
  if (!match || match[1] !== fingerprint) return null;
  return { blockNumber: Number(match[2]), logIndex: Number(match[3]) };
}
