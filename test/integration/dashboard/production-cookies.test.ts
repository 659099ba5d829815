import { afterAll, beforeAll, expect, it } from 'vitest';
import { newEmail, PASSWORD, startDashboardSite, type DashboardSite } from './dashboard-site.ts';

// Outside local mode (production mode) the dashboard's cookies are Secure and named with
// the __Host- prefix (docs/dashboard.md#cookies), which a browser accepts only from a secure origin, for Path=/
// and without a Domain: no subdomain can plant or overwrite them. (The test reads them over plain
// HTTP; a browser would send them only over HTTPS.) The server is put in production mode by
// FAUCET_MODE, the former name of CRUCIBLE_MODE, which it still reads and warns about.

let site: DashboardSite;

beforeAll(async () => {
  site = await startDashboardSite({
    FAUCET_MODE: 'production',
    TURNSTILE_SECRET_KEY: 'dashboard-test-secret',
    TURNSTILE_SITE_KEY: 'dashboard-test-site-key',
    TURNSTILE_EXPECTED_HOSTNAME: 'crucible.test',
    TURNSTILE_ACTION: 'faucet-send',
    IP_HASH_SALT: 'dashboard-test-ip-hash-salt',
    ANTI_SYBIL_MIN_BALANCE_ETH: '0',
    ANTI_SYBIL_MIN_TX_COUNT: '0',
  });
});

afterAll(async () => {
  await site?.stop();
});

it('sets __Host-crucible_session (HttpOnly) and __Host-crucible_csrf, both Secure, SameSite=Lax, Path=/ and without Domain', async () => {
  const browser = site.browser();
  const visitor = await browser.session();
  expect(visitor.setCookies).toEqual([expect.stringMatching(/^__Host-crucible_csrf=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=2592000; Secure; SameSite=Lax$/)]);
  const signedUp = await browser.call('POST', '/api/dashboard/sign-up', { body: { email: newEmail(), password: PASSWORD } });
  expect(signedUp.status).toBe(201);
  expect(signedUp.setCookies).toEqual([
    expect.stringMatching(/^__Host-crucible_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=2592000; HttpOnly; Secure; SameSite=Lax$/),
    expect.stringMatching(/^__Host-crucible_csrf=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=2592000; Secure; SameSite=Lax$/),
  ]);
  expect((await browser.call('GET', '/api/dashboard/apps')).status).toBe(200);
  // The local names mean nothing here.
  const local = site.browser();
  local.cookies.set('crucible_session', browser.sessionCookie()!);
  expect((await local.call('GET', '/api/dashboard/apps')).status).toBe(401);
  const signedOut = await browser.call('POST', '/api/dashboard/sign-out');
  expect(signedOut.setCookies).toEqual(['__Host-crucible_session=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Lax']);
});

it('reads FAUCET_MODE, the former name of CRUCIBLE_MODE, and says so at start-up', () => {
  const renamed = site
    .logLines()
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg?: string; warning?: string })
    .filter((record) => record.msg === 'setting renamed');
  expect(renamed.map((record) => record.warning)).toContainEqual(expect.stringMatching(/^FAUCET_MODE is renamed CRUCIBLE_MODE .*FAUCET_MODE=production/));
});
