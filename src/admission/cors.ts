// Cross-origin reads of the keyed products (JSON-RPC and every REST product behind an app key):
// app keys ship in web front ends, so any origin may call and read the answer, and the app's domain
// allow-list (./callers.ts) decides who may use a key. One set of headers on every answer, and the
// preflight answered with them.

export const KEYED_CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, GET, OPTIONS',
  'access-control-allow-headers': 'content-type',
  'access-control-max-age': '86400',
};
