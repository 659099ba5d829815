// Strict query parsing: URLSearchParams silently keeps malformed escapes such as `%zz`,
// while an operation must be able to answer 400 for an unparseable query (docs/errors.md#error-body).

export type QueryParse = { ok: true; value: Record<string, string | string[]> } | { ok: false; reason: 'unparseable' };

/** `?a=1&b=2&b=3` -> `{ a: '1', b: ['2', '3'] }`; a repeated key becomes an array. */
export function parseQuery(search: string): QueryParse {
  // No prototype: a `__proto__` key is data, not a setter.
  const value = Object.create(null) as Record<string, string | string[]>;
  const source = search.startsWith('?') ? search.slice(1) : search;
  if (source === '') return { ok: true, value };
  try {
    for (const pair of source.split('&')) {
      if (pair === '') continue;
      const equals = pair.indexOf('=');
      const key = decode(equals === -1 ? pair : pair.slice(0, equals));
      const item = equals === -1 ? '' : decode(pair.slice(equals + 1));
      const previous = value[key];
      if (previous === undefined) value[key] = item;
      else value[key] = Array.isArray(previous) ? [...previous, item] : [previous, item];
    }
  } catch {
    return { ok: false, reason: 'unparseable' };
  }
  return { ok: true, value };
}

function decode(component: string): string {
  return decodeURIComponent(component.replace(/\+/g, ' '));
}
