import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/db/open.ts';
import { newEmail, PASSWORD, startDashboardSite, type DashboardSite } from './dashboard-site.ts';

// Accounts and sessions through the production server in local mode (docs/dashboard.md#accounts): sign-up, sign-in,
// sign-out here and everywhere, the password, the cookies' flags, session fixation, forged
// cross-site requests, the sign-in limits per account and client address and per address, and the
// sign-up limit per address. The limits are set low here (each attempt is a scrypt of 128 MiB);
// their defaults are checked with the configuration (test/unit/config/dashboard.test.ts).

const LIMITS = { signUpsPerIp: 3, signInsPerEmailAndIp: 3, signInsPerIp: 6 };

let site: DashboardSite;

beforeAll(async () => {
  site = await startDashboardSite({
    DASHBOARD_SIGN_UPS_PER_IP: String(LIMITS.signUpsPerIp),
    DASHBOARD_SIGN_INS_PER_EMAIL_AND_IP: String(LIMITS.signInsPerEmailAndIp),
    DASHBOARD_SIGN_INS_PER_IP: String(LIMITS.signInsPerIp),
  });
});

afterAll(async () => {
  await site?.stop();
});

/** The attributes of the Set-Cookie line for `name`. */
function cookieLine(setCookies: string[], name: string): string[] {
  const line = setCookies.find((cookie) => cookie.startsWith(`${name}=`));
  expect(line, `Set-Cookie ${name}`).toBeDefined();
  return line!.split(';').map((part) => part.trim());
}

describe('signing up, in and out', () => {
  it('gives a signed-out visitor a CSRF cookie and no account, then signs up with a session cookie', async () => {
    const browser = site.browser();
    const visitor = await browser.session();
    expect(visitor.status).toBe(200);
    expect(visitor.headers.get('cache-control')).toBe('no-store');
    expect(visitor.body).toEqual({ account: null, csrfToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    expect(browser.csrfCookie()).toBe(visitor.body.csrfToken);
    // Local mode: no Secure, no __Host- prefix; the CSRF cookie is readable by page scripts.
    const csrf = cookieLine(visitor.setCookies, 'crucible_csrf');
    expect(csrf).toEqual(expect.arrayContaining(['Path=/', 'SameSite=Lax']));
    expect(csrf).not.toContain('HttpOnly');
    expect(csrf).not.toContain('Secure');
    // Asked again, the cookie stays.
    expect((await browser.session()).setCookies).toEqual([]);

    const email = newEmail();
    const signedUp = await browser.call('POST', '/api/dashboard/sign-up', { body: { email: `  ${email.toUpperCase()} `, password: PASSWORD } });
    expect(signedUp.status).toBe(201);
    expect(signedUp.body).toEqual({
      account: { id: expect.stringMatching(/^acc_[0-9a-f]{16}$/), email, createdAt: expect.any(String) },
      csrfToken: browser.csrfCookie(),
    });
    const session = cookieLine(signedUp.setCookies, 'crucible_session');
    expect(session).toEqual(expect.arrayContaining(['Path=/', 'HttpOnly', 'SameSite=Lax', 'Max-Age=2592000']));
    expect(session).not.toContain('Secure');
    expect(signedUp.body.csrfToken).not.toBe(visitor.body.csrfToken);
    expect((await browser.session()).body).toEqual({ account: signedUp.body.account, csrfToken: signedUp.body.csrfToken });

    // The database keeps the session's hash, never the cookie.
    const database = await openDatabase({ engine: 'sqlite', path: site.databasePath });
    try {
      const rows = await database.db.selectFrom('sessions').selectAll().where('account_id', '=', signedUp.body.account.id).execute();
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain(browser.sessionCookie()!);
    } finally {
      await database.close();
    }
  });

  it('refuses a taken email with 409, and bad input with the field at fault', async () => {
    const email = newEmail();
    await site.browser().signUp(email, PASSWORD);
    const again = site.browser();
    await again.session();
    const taken = await again.call('POST', '/api/dashboard/sign-up', { body: { email: email.toUpperCase(), password: 'another password' } });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({ code: 'email_taken', field: 'email', message: 'An account with this email already exists. Sign in instead.' });
    const badEmail = await again.call('POST', '/api/dashboard/sign-up', { body: { email: 'not-an-email', password: PASSWORD } });
    expect(badEmail.status).toBe(400);
    expect(badEmail.body.error).toMatchObject({ code: 'invalid_input', field: 'email' });
    const shortPassword = await again.call('POST', '/api/dashboard/sign-up', { body: { email: newEmail(), password: 'short' } });
    expect(shortPassword.body.error).toEqual(expect.objectContaining({ code: 'invalid_input', field: 'password', message: 'Use 10 to 200 characters.' }));
    const notJson = await again.call('POST', '/api/dashboard/sign-up', { body: '{"email":', headers: {} });
    expect(notJson.status).toBe(400);
    expect(notJson.body.error.code).toBe('invalid_input');
    expect(again.sessionCookie()).toBeUndefined();
  });

  it('signs out, and signs in again with the same answer for a wrong password and an unknown email', async () => {
    const email = newEmail();
    const browser = site.browser();
    await browser.signUp(email, PASSWORD);
    const signedOut = await browser.call('POST', '/api/dashboard/sign-out');
    expect(signedOut.status).toBe(204);
    expect(cookieLine(signedOut.setCookies, 'crucible_session')).toContain('Max-Age=0');
    expect((await browser.session()).body.account).toBeNull();
    expect((await browser.call('GET', '/api/dashboard/apps')).status).toBe(401);

    const wrong = await browser.signIn(email, 'not the password');
    const unknown = await browser.signIn(newEmail(), PASSWORD);
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.error).toMatchObject({ code: 'wrong_credentials', message: 'Email or password is wrong.' });

    const signedIn = await browser.signIn(email.toUpperCase(), PASSWORD);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.account.email).toBe(email);
    expect((await browser.call('GET', '/api/dashboard/apps')).status).toBe(200);
  });

  it('issues a new session at sign-in, whatever session cookie the request carried, and ends that one (no fixation)', async () => {
    const email = newEmail();
    const victim = site.browser();
    await victim.signUp(email, PASSWORD);
    const before = victim.sessionCookie()!;
    const signedIn = await victim.signIn(email, PASSWORD);
    expect(signedIn.status).toBe(200);
    expect(victim.sessionCookie()).not.toBe(before);
    // The session the request carried no longer works.
    const old = site.browser();
    old.cookies.set('crucible_session', before);
    expect((await old.call('GET', '/api/dashboard/apps')).status).toBe(401);
    expect((await old.session()).body.account).toBeNull();

    // A session id planted before sign-in (by a script on a sibling site, say) is not the one issued.
    const planted = 'P'.repeat(43);
    const browser = site.browser();
    browser.cookies.set('crucible_session', planted);
    const fixated = await browser.signIn(email, PASSWORD);
    expect(fixated.status).toBe(200);
    expect(browser.sessionCookie()).not.toBe(planted);
    const attacker = site.browser();
    attacker.cookies.set('crucible_session', planted);
    expect((await attacker.call('GET', '/api/dashboard/apps')).status).toBe(401);
  });

  it('signs out everywhere: every session of the account ends', async () => {
    const email = newEmail();
    const laptop = site.browser();
    await laptop.signUp(email, PASSWORD);
    const phone = site.browser();
    expect((await phone.signIn(email, PASSWORD)).status).toBe(200);
    const other = site.browser();
    await other.signUp(newEmail(), PASSWORD);
    expect((await phone.call('POST', '/api/dashboard/sign-out-everywhere')).status).toBe(204);
    expect((await phone.call('GET', '/api/dashboard/apps')).status).toBe(401);
    const stale = await laptop.call('GET', '/api/dashboard/apps');
    expect(stale.status).toBe(401);
    expect(stale.body.error.code).toBe('unauthorized');
    // The dead cookie is cleared.
    expect(laptop.sessionCookie()).toBeUndefined();
    expect((await other.call('GET', '/api/dashboard/apps')).status).toBe(200);
  });

  it('changes the password: the current one is a field error when wrong; other sessions end and this one is issued anew', async () => {
    const email = newEmail();
    const laptop = site.browser();
    await laptop.signUp(email, PASSWORD);
    const phone = site.browser();
    await phone.signIn(email, PASSWORD);

    const wrong = await laptop.call('POST', '/api/dashboard/password', { body: { currentPassword: 'not the password', newPassword: 'a brand new password' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatchObject({ code: 'invalid_input', field: 'currentPassword', message: 'The current password is wrong.' });
    expect((await phone.call('GET', '/api/dashboard/apps')).status).toBe(200);

    const before = laptop.sessionCookie()!;
    const changed = await laptop.call('POST', '/api/dashboard/password', { body: { currentPassword: PASSWORD, newPassword: 'a brand new password' } });
    expect(changed.status).toBe(200);
    expect(changed.body.account.email).toBe(email);
    expect(laptop.sessionCookie()).not.toBe(before);
    expect(changed.body.csrfToken).toBe(laptop.csrfCookie());
    expect((await laptop.call('GET', '/api/dashboard/apps')).status).toBe(200);
    expect((await phone.call('GET', '/api/dashboard/apps')).status).toBe(401);
    const old = site.browser();
    old.cookies.set('crucible_session', before);
    expect((await old.call('GET', '/api/dashboard/apps')).status).toBe(401);

    expect((await site.browser().signIn(email, PASSWORD)).status).toBe(401);
    expect((await site.browser().signIn(email, 'a brand new password')).status).toBe(200);
  });

  it('answers 401 unauthorized without a session on every endpoint but session, sign-up and sign-in', async () => {
    const browser = site.browser();
    await browser.session();
    const app = 'app_0123456789abcdef';
    const calls: Array<[string, string, unknown?]> = [
      ['POST', '/api/dashboard/sign-out'],
      ['POST', '/api/dashboard/sign-out-everywhere'],
      ['POST', '/api/dashboard/password', { currentPassword: PASSWORD, newPassword: 'a brand new password' }],
      ['GET', '/api/dashboard/networks'],
      ['GET', '/api/dashboard/apps'],
      ['POST', '/api/dashboard/apps', { name: 'x', allowedNetworks: [], allowedDomains: [] }],
      ['GET', `/api/dashboard/apps/${app}`],
      ['PATCH', `/api/dashboard/apps/${app}`, { version: 1, name: 'x' }],
      ['DELETE', `/api/dashboard/apps/${app}`],
      ['POST', `/api/dashboard/apps/${app}/key`],
      ['POST', `/api/dashboard/apps/${app}/rotate`, {}],
      ['GET', `/api/dashboard/apps/${app}/usage?range=hour`],
      ['GET', '/api/dashboard/tokens'],
      ['POST', '/api/dashboard/tokens', {}],
      ['DELETE', '/api/dashboard/tokens/tok_0123456789abcdef'],
      // Before its input is judged, too.
      ['POST', '/api/dashboard/apps', { name: '' }],
    ];
    for (const [method, path, body] of calls) {
      const answer = await browser.call(method, path, { body });
      expect(answer.status, `${method} ${path}`).toBe(401);
      expect(answer.body.error.code).toBe('unauthorized');
    }
  });
});

describe('forged cross-site requests', () => {
  it('are refused with 403 csrf_failed and change nothing', async () => {
    const browser = site.browser();
    await browser.signUp(newEmail(), PASSWORD);
    const app = { name: 'forged', allowedNetworks: [], allowedDomains: [] };
    const token = browser.csrfCookie()!;
    const forgeries: Array<[string, Parameters<typeof browser.call>[2]]> = [
      ['no X-CSRF-Token', { body: app, csrf: null }],
      ['a wrong token', { body: app, csrf: 'W'.repeat(43) }],
      ['a foreign Origin', { body: app, origin: 'https://evil.example' }],
      ['an opaque Origin', { body: app, origin: 'null' }],
      ['Sec-Fetch-Site: cross-site', { body: app, headers: { 'sec-fetch-site': 'cross-site' } }],
      ['a planted CSRF cookie with its header', { body: app, csrf: 'Q'.repeat(43), headers: {} }],
    ];
    for (const [what, options] of forgeries) {
      if (what.startsWith('a planted')) browser.cookies.set('crucible_csrf', 'Q'.repeat(43));
      const answer = await browser.call('POST', '/api/dashboard/apps', options);
      expect(answer.status, what).toBe(403);
      expect(answer.body.error.code, what).toBe('csrf_failed');
      browser.cookies.set('crucible_csrf', token);
    }
    expect((await browser.call('GET', '/api/dashboard/apps')).body.apps).toEqual([]);

    // Deleting, signing out and a state change of the webhook API with the session are checked too.
    const created = await browser.call('POST', '/api/dashboard/apps', { body: app });
    expect(created.status).toBe(201);
    expect((await browser.call('DELETE', `/api/dashboard/apps/${created.body.app.id}`, { csrf: null })).status).toBe(403);
    expect((await browser.call('POST', '/api/dashboard/sign-out', { origin: 'https://evil.example' })).status).toBe(403);
    const hook = await browser.call('POST', '/api/webhooks', {
      body: { type: 'NFT_ACTIVITY', network: 'ethereum-sepolia', url: 'https://hooks.example.com/x' },
      csrf: null,
    });
    expect(hook.status).toBe(403);
    expect(hook.body.error.code).toBe('csrf_failed');
    expect((await browser.call('GET', `/api/dashboard/apps/${created.body.app.id}`)).status).toBe(200);
    expect((await browser.call('GET', '/api/webhooks')).body.webhooks).toEqual([]);
    expect((await browser.call('GET', '/api/dashboard/apps')).status).toBe(200);
  });

  it('refuses a forged sign-in and sign-up (no CSRF cookie of this site) and issues no session', async () => {
    const email = newEmail();
    await site.browser().signUp(email, PASSWORD);
    const forger = site.browser();
    const signIn = await forger.call('POST', '/api/dashboard/sign-in', { body: { email, password: PASSWORD }, csrf: null, origin: 'https://evil.example' });
    expect(signIn.status).toBe(403);
    const noCookie = await forger.call('POST', '/api/dashboard/sign-in', { body: { email, password: PASSWORD }, csrf: 'Z'.repeat(43) });
    expect(noCookie.status).toBe(403);
    const signUp = await forger.call('POST', '/api/dashboard/sign-up', { body: { email: newEmail(), password: PASSWORD }, csrf: null });
    expect(signUp.status).toBe(403);
    expect(forger.sessionCookie()).toBeUndefined();
  });

  it('takes a request without Origin (an older browser) on its tokens, and the address the site is reached at over another scheme as foreign', async () => {
    const browser = site.browser();
    await browser.signUp(newEmail(), PASSWORD);
    const app = { name: 'ok', allowedNetworks: [], allowedDomains: [] };
    expect((await browser.call('POST', '/api/dashboard/apps', { body: app, origin: null, headers: { 'sec-fetch-site': '' } })).status).toBe(201);
    // The site is https://crucible.test; a page at http://127.0.0.1 is not it.
    expect((await browser.call('POST', '/api/dashboard/apps', { body: app, origin: site.origin })).status).toBe(403);
  });
});

describe('sign-in limits', () => {
  /** The answer with the number of seconds taken out, to compare two refusals. */
  const shape = (body: { error: Record<string, unknown> }) => ({ ...body.error, message: String(body.error.message).replace(/\d+/g, 'N') });

  it('refuse an address’s attempt past the limit for one email with 429 and Retry-After, the same for a known and an unknown email', async () => {
    const known = newEmail();
    await site.browser().signUp(known, PASSWORD);
    const unknown = newEmail();
    const [forKnown, forUnknown] = [site.browser('203.0.113.1'), site.browser('203.0.113.2')];
    for (let i = 0; i < LIMITS.signInsPerEmailAndIp; i++) {
      expect((await forKnown.signIn(known, 'wrong password!')).status).toBe(401);
      expect((await forUnknown.signIn(unknown, 'wrong password!')).status).toBe(401);
    }
    const refusedKnown = await forKnown.signIn(known, PASSWORD);
    const refusedUnknown = await forUnknown.signIn(unknown, PASSWORD);
    for (const refused of [refusedKnown, refusedUnknown]) {
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('rate_limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(refusedKnown.body.error.message).toMatch(/^Too many sign-in attempts\. Try again in \d+ (seconds|minutes)\.$/);
    expect(shape(refusedKnown.body)).toEqual(shape(refusedUnknown.body));
    // The address may still try another account.
    const other = newEmail();
    await site.browser().signUp(other, PASSWORD);
    expect((await site.browser('203.0.113.1').signIn(other, PASSWORD)).status).toBe(200);
  });

  it('do not lock the owner out: attempts from another address, however many, leave the owner’s own address its attempts', async () => {
    const email = newEmail();
    await site.browser('198.51.100.1').signUp(email, PASSWORD);
    // An attacker elsewhere tries until refused (a bound, in case no limit ever refuses).
    let refused = false;
    for (let i = 0; i < 60 && !refused; i++) refused = (await site.browser('203.0.113.66').signIn(email, 'a guessed password')).status === 429;
    expect(refused).toBe(true);
    const owner = await site.browser('198.51.100.1').signIn(email, PASSWORD);
    expect(owner.status, JSON.stringify(owner.body)).toBe(200);
  });

  it('refuse an address’s attempt past its limit, for any email, and spend none of that email’s attempts', async () => {
    const email = newEmail();
    await site.browser().signUp(email, PASSWORD);
    const ip = '192.0.2.99';
    // At once: each is a scrypt of its own.
    const answers = await Promise.all(Array.from({ length: LIMITS.signInsPerIp }, () => site.browser(ip).signIn(newEmail(), 'wrong password!')));
    expect(answers.map((answer) => answer.status)).toEqual(Array(LIMITS.signInsPerIp).fill(401));
    const refused = await site.browser(ip).signIn(email, PASSWORD);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
    expect((await site.browser('192.0.2.100').signIn(email, PASSWORD)).status).toBe(200);
  });
});

describe('the sign-up limit', () => {
  it('refuses an address’s sign-up past the limit with 429 before anything is hashed or looked up, a taken email too; other addresses sign up', async () => {
    const taken = newEmail();
    await site.browser().signUp(taken, PASSWORD);
    const ip = '192.0.2.150';
    // A taken email counts too: the limit is what holds back enumerating emails by their 409.
    const first = site.browser(ip);
    await first.session();
    expect((await first.call('POST', '/api/dashboard/sign-up', { body: { email: taken, password: PASSWORD } })).status).toBe(409);
    for (let i = 1; i < LIMITS.signUpsPerIp; i++) await site.browser(ip).signUp(newEmail(), PASSWORD);
    for (const email of [newEmail(), taken]) {
      const browser = site.browser(ip);
      await browser.session();
      const refused = await browser.call('POST', '/api/dashboard/sign-up', { body: { email, password: PASSWORD } });
      expect(refused.status).toBe(429);
      expect(refused.body.error).toMatchObject({ code: 'rate_limited' });
      expect(refused.body.error.message).toMatch(/^Too many sign-ups from this address\. Try again in \d+ (seconds|minutes)\.$/);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(browser.sessionCookie()).toBeUndefined();
    }
    // Bad input is refused before the limit counts it: it costs no hash.
    const browser = site.browser('192.0.2.151');
    await browser.session();
    for (let i = 0; i <= LIMITS.signUpsPerIp; i++)
      expect((await browser.call('POST', '/api/dashboard/sign-up', { body: { email: 'not-an-email', password: PASSWORD } })).status).toBe(400);
    await browser.signUp(newEmail(), PASSWORD);
  });
});
