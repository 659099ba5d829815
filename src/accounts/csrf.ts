import { timingSafeEqual } from 'node:crypto';

// Whether a state change may proceed (docs/dashboard.md#csrf): a request with an unsafe method must carry
// X-CSRF-Token equal to the CSRF cookie (a page of another site can neither read the cookie nor
// set the header without CORS, which this site never grants) and, with a session, equal to that
// session's token too; and it is refused when the browser says it comes from elsewhere: an Origin
// that is not the site's, or Sec-Fetch-Site: cross-site.

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface CsrfInput {
  method: string;
  /** The Origin header, or null when absent. */
  origin: string | null;
  /** The Host header: an Origin naming this host (over the site's scheme) is the same origin, whatever name the site was reached by. */
  host: string | null;
  /** The site's configured origin. */
  siteOrigin: string;
  secFetchSite: string | null;
  /** X-CSRF-Token. */
  headerToken: string | null;
  cookieToken: string | null;
  /** The session's own token; null when the request has no session. */
  sessionToken: string | null;
}

export type CsrfVerdict = { ok: true } | { ok: false; reason: string };

export function csrfVerdict(input: CsrfInput): CsrfVerdict {
  if (SAFE_METHODS.has(input.method.toUpperCase())) return { ok: true };
  if (input.secFetchSite?.trim().toLowerCase() === 'cross-site') return { ok: false, reason: 'The browser says this request comes from another site.' };
  if (input.origin !== null && !sameOrigin(input.origin, input.siteOrigin, input.host))
    return { ok: false, reason: `The request comes from ${input.origin}, not from this site.` };
  if (!input.headerToken) return { ok: false, reason: 'The request carries no X-CSRF-Token header.' };
  if (!input.cookieToken || !sameToken(input.headerToken, input.cookieToken)) return { ok: false, reason: 'X-CSRF-Token does not match the CSRF cookie.' };
  if (input.sessionToken !== null && !sameToken(input.headerToken, input.sessionToken))
    return { ok: false, reason: 'X-CSRF-Token does not belong to this session.' };
  return { ok: true };
}

function sameOrigin(origin: string, siteOrigin: string, host: string | null): boolean {
  // `null` (an opaque origin: a sandboxed frame, a data: URL) is never this site.
  const url = URL.parse(origin);
  if (!url || url.origin === 'null') return false;
  const site = new URL(siteOrigin);
  if (url.origin === site.origin) return true;
  // The site reached by another name (127.0.0.1 for localhost), over the same scheme.
  return host !== null && url.protocol === site.protocol && url.host === host.trim().toLowerCase();
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
