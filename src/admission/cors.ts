// Cross-origin reads of the keyed products (JSON-RPC and every REST product behind an app key):
// app keys ship in web front ends, so any origin may call and read the answer, and the app's domain
// allow-list (./callers.ts) decides who may use a key. One set of headers on every answer, and the
// preflight answered with them.

/**
 * Request headers a page may send besides the CORS-safelisted ones: JSON bodies, and what
 * alchemy-sdk adds to every call from a browser (its ethers provider and its REST calls both:
 * Alchemy-Ethers-Sdk-Version and Alchemy-Ethers-Sdk-Method), which a preflight must allow or the
 * SDK cannot call from a web page. Keys ride in the path, so no credential header is allowed.
 */
const ALLOWED_REQUEST_HEADERS = ['content-type', 'alchemy-ethers-sdk-version', 'alchemy-ethers-sdk-method'];

export const KEYED_CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, GET, OPTIONS',
  'access-control-allow-headers': ALLOWED_REQUEST_HEADERS.join(', '),
  'access-control-max-age': '86400',
};
