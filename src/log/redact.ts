// What of a URL may go to a log: its origin. RPC URLs carry API keys in their path or query,
// Redis and database URLs a password before the host. file: URLs stay whole: they are the
// stack frames of ES modules and name local paths, never a credential.

const URL_PATTERN = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi;

/** The text with every URL in it cut to its origin (`[url]` where the URL does not parse). */
export function redactUrls(text: string): string {
  return text.replace(URL_PATTERN, originOf);
}

function originOf(url: string): string {
  if (/^file:/i.test(url)) return url;
  try {
    const { protocol, host } = new URL(url);
    return `${protocol}//${host}`;
  } catch {
    return '[url]';
  }
}

// App keys ride in paths: `/v2/<key>/…` and `/nft/v3/<key>/…` of `{node_url}` (after
// `/node/<network>`, or on `<network>.<NODE_DOMAIN>`), `/prices/v1/<key>/…` and `/data/v1/<key>/…`. The segment after
// any of those prefixes is a key wherever it appears, whatever route the path reaches (a 404, a
// malformed path, an absolute URL): logging `<key>` for a segment that was not one costs nothing.

/** The prefixes an app key follows, as decoded, lower-cased segments. */
const KEY_PREFIXES: ReadonlyArray<readonly string[]> = [['v2'], ['nft', 'v3'], ['prices', 'v1'], ['data', 'v1']];

/**
 * A separator (`/`, `\` or their percent-encodings: a server may decode them into one), a break
 * (whitespace, quotes, `?`, `#`: the path ends there), or a segment (anything else).
 */
const PATH_TOKEN = /(\/|\\|%2f|%5c)|([\s"'<>?#]+)|((?:[^/\\%\s"'<>?#]|%(?!2f|5c))+)/gi;

/** A segment as a server would compare it: percent-escapes decoded byte by byte, lower case. */
function segmentValue(segment: string): string {
  return segment.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))).toLowerCase();
}

/** The text with every path segment that follows a key prefix replaced by `<key>` (empty segments, as in `//`, skipped). */
export function redactKeyPaths(text: string): string {
  // Most paths (the site's pages) name no version segment and escape nothing.
  if (!/v[123]|%/i.test(text)) return text;
  let out = '';
  /** The segments read since the path began, as values (the last few are all that matter). */
  let seen: string[] = [];
  for (const [token, , pathEnd, segment] of text.matchAll(PATH_TOKEN)) {
    if (segment === undefined) {
      if (pathEnd !== undefined) seen = [];
      out += token;
      continue;
    }
    const isKey = KEY_PREFIXES.some((prefix) => prefix.every((part, i) => seen[seen.length - prefix.length + i] === part));
    seen = [...seen.slice(-1), segmentValue(segment)];
    out += isKey ? '<key>' : segment;
  }
  return out;
}
