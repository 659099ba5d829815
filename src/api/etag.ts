import { createHash, type Hash } from 'node:crypto';

// Strong validators and If-None-Match, shared by the static server and API handlers.

const tagOf = (hash: Hash) => `"${hash.digest('base64url').slice(0, 27)}"`;

/** A strong ETag over the exact bytes. */
export function strongEtag(bytes: string | Uint8Array): string {
  return tagOf(createHash('sha256').update(bytes));
}

/** The same tag as strongEtag(), for a file too large to hold in memory. */
export async function strongEtagOfStream(chunks: AsyncIterable<Uint8Array>): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of chunks) hash.update(chunk);
  return tagOf(hash);
}

/** Tells encoded variants of one representation apart: `"abc"` -> `"abc-br"`. */
export function variantEtag(etag: string, suffix: string): string {
  return suffix ? `${etag.slice(0, -1)}${suffix}"` : etag;
}

/** If-None-Match uses the weak comparison (RFC 9110 13.1.2). */
export function matchesEtag(ifNoneMatch: string | null | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
