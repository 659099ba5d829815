import type { Account } from '../accounts/account.ts';
import { cookieNames, parseCookies, serializeCookie, type CookieNames } from '../accounts/cookies.ts';
import { csrfVerdict } from '../accounts/csrf.ts';
import { SESSION_LIFETIME, type Session, type SessionStore } from '../accounts/sessions.ts';
import type { ApiRequest } from '../api/operation.ts';
import { dashboardErrorResponse } from './errors.ts';

// Who is calling, and whether a state change may proceed (docs/dashboard.md#csrf): the session a request's
// cookie names, and the CSRF check of every unsafe method. The dashboard's operations and the
// webhook API (when a session rather than X-Crucible-Token authenticates it) ask the same guard.

export interface Visitor {
  /** The request's cookies by name. */
  cookies: Map<string, string>;
  /** The live session the session cookie names, with its account. */
  signedIn: { session: Session; account: Account } | null;
  /** A session cookie was sent that names no live session: the answer clears it. */
  staleSessionCookie: boolean;
}

type Admission = { ok: true; visitor: Visitor } | { ok: false; response: Response };

export interface DashboardGuard {
  names: CookieNames;
  /** Whether the request carries a session cookie at all. */
  carriesSession(request: ApiRequest): boolean;
  /** The visitor; an unsafe request that fails the CSRF check is refused with 403 `csrf_failed`. */
  admit(request: ApiRequest): Promise<Admission>;
  /** Set-Cookie values of a new session and its CSRF token. */
  sessionCookies(token: string, csrfToken: string): string[];
  /** The Set-Cookie value of a CSRF token alone (a signed-out visitor's). */
  csrfCookie(csrfToken: string): string;
  /** The Set-Cookie value that deletes the session cookie. */
  endedSessionCookie(): string;
}

export function createDashboardGuard(options: {
  sessions: SessionStore;
  siteOrigin: string;
  secureCookies: boolean;
  documentationUrl: string;
}): DashboardGuard {
  const names = cookieNames(options.secureCookies);
  const maxAgeSeconds = SESSION_LIFETIME.maxAgeMs / 1000;
  const cookie = (name: string, value: string, httpOnly: boolean, maxAge = maxAgeSeconds) =>
    serializeCookie(name, value, { httpOnly, secure: options.secureCookies, maxAgeSeconds: maxAge });

  return {
    names,
    carriesSession: (request) => parseCookies(request.headers.get('cookie')).has(names.session),
    async admit(request) {
      const cookies = parseCookies(request.headers.get('cookie'));
      const token = cookies.get(names.session);
      const signedIn = await options.sessions.find(token);
      const verdict = csrfVerdict({
        method: request.method,
        origin: request.headers.get('origin'),
        host: request.headers.get('host'),
        siteOrigin: options.siteOrigin,
        secFetchSite: request.headers.get('sec-fetch-site'),
        headerToken: request.headers.get('x-csrf-token'),
        cookieToken: cookies.get(names.csrf) ?? null,
        sessionToken: signedIn?.session.csrfToken ?? null,
      });
      if (!verdict.ok) return { ok: false, response: dashboardErrorResponse({ code: 'csrf_failed', message: verdict.reason }, options.documentationUrl) };
      return { ok: true, visitor: { cookies, signedIn, staleSessionCookie: token !== undefined && signedIn === null } };
    },
    sessionCookies: (token, csrfToken) => [cookie(names.session, token, true), cookie(names.csrf, csrfToken, false)],
    csrfCookie: (csrfToken) => cookie(names.csrf, csrfToken, false),
    endedSessionCookie: () => cookie(names.session, '', true, 0),
  };
}
