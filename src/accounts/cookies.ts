// The dashboard's cookies (docs/dashboard.md#cookies): the session cookie (HttpOnly) and the CSRF cookie (read by
// page scripts), both `SameSite=Lax; Path=/`. Outside local mode they are `Secure` and carry the
// `__Host-` prefix, which a browser accepts only from a secure origin, without a Domain, for
// Path=/: no subdomain can plant or overwrite them.

export interface CookieNames {
  session: string;
  csrf: string;
}

/** `secure`: outside local mode. */
export function cookieNames(secure: boolean): CookieNames {
  const prefix = secure ? '__Host-' : '';
  return { session: `${prefix}crucible_session`, csrf: `${prefix}crucible_csrf` };
}

export interface CookieOptions {
  httpOnly: boolean;
  secure: boolean;
  /** Seconds; 0 deletes the cookie. */
  maxAgeSeconds: number;
}

/** A Set-Cookie value. The values this module is given are base64url, which needs no quoting. */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  if (!/^[A-Za-z0-9_-]*$/.test(value)) throw new Error(`cookie ${name}: the value must be base64url`);
  const parts = [`${name}=${value}`, 'Path=/', `Max-Age=${options.maxAgeSeconds}`];
  if (options.httpOnly) parts.push('HttpOnly');
  if (options.secure) parts.push('Secure');
  parts.push('SameSite=Lax');
  return parts.join('; ');
}

/** The cookies of a Cookie header by name; the first of a repeated name wins (the most specific path, as browsers order them). */
export function parseCookies(header: string | null): Map<string, string> {
  const cookies = new Map<string, string>();
  if (!header) return cookies;
  for (const pair of header.split(';')) {
    const equals = pair.indexOf('=');
    if (equals === -1) continue;
    const name = pair.slice(0, equals).trim();
    let value = pair.slice(equals + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (name && !cookies.has(name)) cookies.set(name, value);
  }
  return cookies;
}
