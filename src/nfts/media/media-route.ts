import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.ts';
import { readMediaBody } from './media-table.ts';
import { MEDIA_PATH_PREFIX, parseMediaPath } from './media-urls.ts';

// GET /nft-media/<sha256>[/thumbnail|/png] (docs/nft-data.md#media): the stored images, read from the
// database. A hash names its bytes for good, so answers are cached immutably and revalidate by
// ETag. An SVG original is served under a CSP that runs no script and loads nothing (sandbox
// also makes it a unique origin when opened as a page); its renderings are rasters.

/** An SVG original's policy: inline styles only, no scripts, no requests, sandboxed. */
export const SVG_CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

interface MediaRequest {
  method: string;
  /** The decoded path, without the query. */
  path: string;
  ifNoneMatch?: string | null;
}

export interface MediaRoute {
  /** The answer to a request under /nft-media/; null for any other path. */
  handle(request: MediaRequest): Promise<Response> | null;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

function isMediaPath(path: string): boolean {
  return path.startsWith(MEDIA_PATH_PREFIX);
}

export function createMediaRoute(db: Kysely<DatabaseSchema>): MediaRoute {
  return {
    handle(request) {
      if (!isMediaPath(request.path)) return null;
      return answer(db, request);
    },
  };
}

async function answer(db: Kysely<DatabaseSchema>, request: MediaRequest): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return text(405, 'Method Not Allowed\n', { allow: 'GET, HEAD' });
  }
  const target = parseMediaPath(request.path);
  const body = target && (await readMediaBody(db, target.sha256, target.variant));
  if (!target || !body) return text(404, 'Not Found\n');
  const etag = `"${target.sha256}${target.variant === 'original' ? '' : `-${target.variant}`}"`;
  const headers: Record<string, string> = {
    'content-type': body.contentType,
    'cache-control': IMMUTABLE,
    etag,
    'x-content-type-options': 'nosniff',
  };
  if (body.contentType === 'image/svg+xml') headers['content-security-policy'] = SVG_CONTENT_SECURITY_POLICY;
  if (matches(request.ifNoneMatch, etag)) return new Response(null, { status: 304, headers });
  headers['content-length'] = String(body.bytes.byteLength);
  return new Response(Buffer.from(body.bytes), { status: 200, headers });
}

/** RFC 9110 If-None-Match: `*`, or the tag among the listed ones (weak comparison). */
function matches(header: string | null | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

function text(status: number, message: string, extra: Record<string, string> = {}): Response {
  return new Response(message, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', 'cache-control': 'no-store', ...extra },
  });
}
