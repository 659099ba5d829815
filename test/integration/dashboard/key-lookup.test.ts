import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAccountStore } from '../../../src/accounts/store.ts';
import { createSessionStore } from '../../../src/accounts/sessions.ts';
import { createAttemptLimits } from '../../../src/accounts/attempt-limits.ts';
import { readDashboardConfig } from '../../../src/config/dashboard.ts';
import { createRouter, type Router } from '../../../src/api/router.ts';
import { createAppStore } from '../../../src/apps/store.ts';
import { isDemoKey } from '../../../src/apps/demo.ts';
import type { Database } from '../../../src/db/open.ts';
import { dashboardEndpoints } from '../../../src/dashboard/operations.ts';
import { createMemoryRateLimiter } from '../../../src/limits/memory-rate-limiter.ts';
import { createKeyLookup } from '../../../src/admission/callers.ts';
import { createAccountTokens } from '../../../src/accounts/auth-tokens.ts';
import { databaseEngines } from '../../support/postgres.ts';

// The gateway remembers each key it looked up for a second (src/admission/callers.ts). With the
// dashboard's keysChanged wired to its forgetAll, a key rotated, disabled or deleted through the
// dashboard is refused by that process at once, not a second later: here the dashboard's router and
// the gateway's key lookup over one real database, in one process, with a lookup that would remember
// a key for an hour.

const ORIGIN = 'https://crucible.test';
const [sqlite] = databaseEngines();
let database: Database;
let router: Router;
let lookup: ReturnType<typeof createKeyLookup>;
const cookies = new Map<string, string>();

beforeAll(async () => {
  database = await sqlite!.open();
  const apps = createAppStore(database, { keySecret: randomBytes(32), networks: ['ethereum-sepolia'] });
  lookup = createKeyLookup({ findApp: (key) => apps.findByKey(key), isDemoKey, ttlMs: 3_600_000 });
  const { db } = database;
  const endpoints = dashboardEndpoints(ORIGIN, {
    accounts: createAccountStore(db),
    sessions: createSessionStore(db),
    attemptLimits: createAttemptLimits(createMemoryRateLimiter(), { ...readDashboardConfig({}), ipv6PrefixLength: 64 }),
    apps,
    maxAppsPerAccount: 20,
    tokens: createAccountTokens(db),
    db,
    networks: [{ id: 'ethereum-sepolia', name: 'Ethereum Sepolia', nodeUrl: `${ORIGIN}/node/ethereum-sepolia` }],
    siteOrigin: ORIGIN,
    secureCookies: true,
    keysChanged: () => lookup.forgetAll(),
  });
  router = createRouter(endpoints.operations, { origin: ORIGIN });
});

afterAll(() => database?.close());

async function call(method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = { origin: ORIGIN, cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') };
  const csrf = cookies.get('__Host-crucible_csrf');
  if (csrf) headers['x-csrf-token'] = csrf;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await router.handle(new Request(`${ORIGIN}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }), {
    requestId: 'test',
    clientIp: '192.0.2.1',
    log: { info: () => {}, error: () => {} },
  });
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(';')[0]!;
    cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
  }
  // biome-ignore lint/suspicious/noExplicitAny: read freely; the answers' shapes are checked in apps.test.ts.
  return { status: response.status, body: response.status === 204 ? undefined : ((await response.json()) as any) };
}

const caller = async (key: string) => (await lookup.find(key))?.kind ?? null;

it('refuses a rotated, a disabled and a deleted key at once in the process that made the change', async () => {
  await call('GET', '/api/dashboard/session');
  expect((await call('POST', '/api/dashboard/sign-up', { email: 'ada@example.com', password: 'correct horse battery' })).status).toBe(201);
  const created = await call('POST', '/api/dashboard/apps', { name: 'cached', allowedNetworks: [], allowedDomains: [] });
  const { app, key } = created.body;
  expect(await caller(key)).toBe('app');

  const rotated = await call('POST', `/api/dashboard/apps/${app.id}/rotate`, {});
  expect(await caller(key)).toBeNull();
  expect(await caller(rotated.body.key)).toBe('app');

  const disabled = await call('PATCH', `/api/dashboard/apps/${app.id}`, { version: rotated.body.app.version, state: 'disabled' });
  expect(disabled.body.app.state).toBe('disabled');
  expect(await lookup.find(rotated.body.key)).toMatchObject({ kind: 'app', app: { state: 'disabled' } });

  expect((await call('DELETE', `/api/dashboard/apps/${app.id}`)).status).toBe(204);
  expect(await caller(rotated.body.key)).toBeNull();
});
