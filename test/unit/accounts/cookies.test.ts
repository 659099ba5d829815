import { describe, expect, it } from 'vitest';
import { cookieNames, parseCookies, serializeCookie } from '../../../src/accounts/cookies.ts';

// The dashboard's cookies (docs/dashboard.md#cookies): names and attributes locally and outside local mode.

describe('cookie names', () => {
  it('are crucible_session and crucible_csrf locally, with the __Host- prefix outside local mode', () => {
    expect(cookieNames(false)).toEqual({ session: 'crucible_session', csrf: 'crucible_csrf' });
    expect(cookieNames(true)).toEqual({ session: '__Host-crucible_session', csrf: '__Host-crucible_csrf' });
  });
});

describe('Set-Cookie values', () => {
  it('give the session cookie HttpOnly, SameSite=Lax and Path=/, and Secure only when asked', () => {
    expect(serializeCookie('crucible_session', 'abc_-1', { httpOnly: true, secure: false, maxAgeSeconds: 2_592_000 })).toBe(
      'crucible_session=abc_-1; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax',
    );
    expect(serializeCookie('__Host-crucible_session', 'abc', { httpOnly: true, secure: true, maxAgeSeconds: 60 })).toBe(
      '__Host-crucible_session=abc; Path=/; Max-Age=60; HttpOnly; Secure; SameSite=Lax',
    );
  });

  it('leave the CSRF cookie readable by page scripts (no HttpOnly)', () => {
    expect(serializeCookie('crucible_csrf', 'xyz', { httpOnly: false, secure: false, maxAgeSeconds: 10 })).toBe(
      'crucible_csrf=xyz; Path=/; Max-Age=10; SameSite=Lax',
    );
  });

  it('delete a cookie with Max-Age=0 and an empty value', () => {
    expect(serializeCookie('crucible_session', '', { httpOnly: true, secure: false, maxAgeSeconds: 0 })).toBe(
      'crucible_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax',
    );
  });

  it('refuse a value that would need quoting or could carry another attribute', () => {
    expect(() => serializeCookie('crucible_csrf', 'a; Domain=evil.example', { httpOnly: false, secure: false, maxAgeSeconds: 1 })).toThrow(/base64url/);
  });
});

describe('Cookie headers', () => {
  it('are read by name, the first of a repeated name winning, quotes and spaces removed', () => {
    const cookies = parseCookies('theme=dark; crucible_session=first ; crucible_session=second; crucible_csrf="quoted"; broken; =x');
    expect(cookies.get('crucible_session')).toBe('first');
    expect(cookies.get('crucible_csrf')).toBe('quoted');
    expect(cookies.get('theme')).toBe('dark');
    expect(cookies.has('broken')).toBe(false);
    expect(parseCookies(null).size).toBe(0);
  });
});
