// Turns the raw request target into a decoded site path that cannot name anything outside
// dist/: dot segments (plain or percent-encoded), encoded separators and NUL are refused
// before any lookup, and lookups only ever hit the file index built from dist/ itself.

export type RequestPath =
  /** `rawPath`: the path as sent, for logs. */
  | { ok: true; path: string; rawPath: string; query: string }
  /** `malformed`: not a path or bad percent-encoding (400). `forbidden`: a traversal attempt (404). */
  | { ok: false; reason: 'malformed' | 'forbidden'; query: string };

export function resolveRequestPath(target: string | undefined): RequestPath {
  const raw = target ?? '';
  const queryAt = raw.indexOf('?');
  const rawPath = queryAt === -1 ? raw : raw.slice(0, queryAt);
  const query = queryAt === -1 ? '' : raw.slice(queryAt);
  if (!rawPath.startsWith('/') || rawPath.startsWith('//')) return { ok: false, reason: 'malformed', query };
  // Fast path: nothing to decode and no dot segment.
  if (!/[%\\]|\/\.\.?(?:\/|$)/.test(rawPath)) return { ok: true, path: rawPath, rawPath, query };

  const segments = rawPath.slice(1).split('/');
  const decoded: string[] = [];
  for (const segment of segments) {
    let value: string;
    try {
      value = decodeURIComponent(segment);
    } catch {
      return { ok: false, reason: 'malformed', query };
    }
    if (value === '.' || value === '..' || /[/\\\0]/.test(value)) return { ok: false, reason: 'forbidden', query };
    decoded.push(value);
  }
  return { ok: true, path: `/${decoded.join('/')}`, rawPath, query };
}
