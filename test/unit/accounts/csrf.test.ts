import { describe, expect, it } from 'vitest';
import { csrfVerdict, type CsrfInput } from '../../../src/accounts/csrf.ts';

// The CSRF decision (docs/dashboard.md#csrf) on each kind of request a browser or a forger can send.

const TOKEN = 'a'.repeat(43);
const base: CsrfInput = {
  method: 'POST',
  origin: 'https://crucible.example',
  host: 'crucible.example',
  siteOrigin: 'https://crucible.example',
  secFetchSite: 'same-origin',
  headerToken: TOKEN,
  cookieToken: TOKEN,
  sessionToken: TOKEN,
};
const verdict = (change: Partial<CsrfInput>) => csrfVerdict({ ...base, ...change });

describe('the CSRF check', () => {
  it('lets safe methods through whatever they carry', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS', 'get'])
      expect(verdict({ method, headerToken: null, origin: 'https://evil.example', secFetchSite: 'cross-site' }).ok).toBe(true);
  });

  it('lets a state change from the site through with the header equal to the cookie and the session', () => {
    for (const method of ['POST', 'PATCH', 'PUT', 'DELETE']) expect(verdict({ method }).ok, method).toBe(true);
  });

  it('lets a signed-out visitor through with the header equal to the cookie (no session to match)', () => {
    expect(verdict({ sessionToken: null, headerToken: 'b'.repeat(43), cookieToken: 'b'.repeat(43) }).ok).toBe(true);
  });

  it('lets through a request without Origin or Sec-Fetch-Site (older browsers), on the tokens alone', () => {
    expect(verdict({ origin: null, secFetchSite: null }).ok).toBe(true);
  });

  it('takes an Origin naming the host the request was sent to as the same origin', () => {
    const local = { siteOrigin: 'http://localhost:4321', host: '127.0.0.1:4321' };
    expect(verdict({ ...local, origin: 'http://127.0.0.1:4321' }).ok).toBe(true);
    expect(verdict({ ...local, origin: 'http://localhost:4321' }).ok).toBe(true);
    expect(verdict({ ...local, origin: 'http://127.0.0.1:9999' }).ok).toBe(false);
    expect(verdict({ ...local, origin: 'https://127.0.0.1:4321' }).ok).toBe(false);
  });

  it('refuses a request without the header, with another token, or without the cookie', () => {
    expect(verdict({ headerToken: null })).toEqual({ ok: false, reason: 'The request carries no X-CSRF-Token header.' });
    expect(verdict({ headerToken: '' }).ok).toBe(false);
    expect(verdict({ headerToken: 'b'.repeat(43) })).toEqual({ ok: false, reason: 'X-CSRF-Token does not match the CSRF cookie.' });
    expect(verdict({ cookieToken: null }).ok).toBe(false);
  });

  it("refuses a header and cookie that match each other but not the session's token (a planted cookie)", () => {
    const planted = 'c'.repeat(43);
    expect(verdict({ headerToken: planted, cookieToken: planted })).toEqual({ ok: false, reason: 'X-CSRF-Token does not belong to this session.' });
  });

  it('refuses a foreign Origin, an opaque one, and Sec-Fetch-Site: cross-site, even with the right tokens', () => {
    expect(verdict({ origin: 'https://evil.example' })).toEqual({ ok: false, reason: 'The request comes from https://evil.example, not from this site.' });
    expect(verdict({ origin: 'null' }).ok).toBe(false);
    expect(verdict({ origin: 'http://crucible.example' }).ok).toBe(false);
    expect(verdict({ origin: 'https://crucible.example.evil.example' }).ok).toBe(false);
    expect(verdict({ secFetchSite: 'cross-site' })).toEqual({ ok: false, reason: 'The browser says this request comes from another site.' });
    expect(verdict({ secFetchSite: 'same-site' }).ok).toBe(true);
  });
});
