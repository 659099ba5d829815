import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EmailTakenError, WrongPasswordError } from '../../../src/accounts/errors.ts';
import { parsePasswordHash } from '../../../src/accounts/password.ts';
import { createSessionStore, hashSessionToken, SESSION_LIFETIME, type SessionStore } from '../../../src/accounts/sessions.ts';
import { createAccountStore, type AccountStore } from '../../../src/accounts/store.ts';
import { AppInputError, AppNotFoundError, StaleVersionError } from '../../../src/apps/errors.ts';
import { createAppStore, type AppStore } from '../../../src/apps/store.ts';
import { createUsageMeter } from '../../../src/apps/usage-meter.ts';
import type { Database } from '../../../src/db/open.ts';
import { readAppUsage } from '../../../src/dashboard/usage.ts';
import { databaseEngines } from '../../support/postgres.ts';

// What the dashboard stands on, on SQLite and PostgreSQL (migration 0009 and the app store's
// additions): accounts, sessions and their lifetimes, an account's apps, a change of state under a
// version, deletion, and usage read back by range with errors by code.

const START = Date.UTC(2030, 0, 15, 12);
const DAY = 86_400_000;
const NETWORKS = ['ethereum-sepolia', 'base-sepolia'];

describe.each(databaseEngines())('the dashboard stores on $name', (engine) => {
  let database: Database;
  let clock: number;
  let accounts: AccountStore;
  let sessions: SessionStore;
  let apps: AppStore;
  const now = () => clock;

  beforeEach(async () => {
    database = await engine.open();
    clock = START;
    accounts = createAccountStore(database.db, { now });
    sessions = createSessionStore(database.db, { now });
    apps = createAppStore(database, { keySecret: randomBytes(32), networks: NETWORKS, now });
  });
  afterEach(() => database.close());

  describe('accounts', () => {
    it('are created once per email, whatever its case, and found by email and password', async () => {
      const ada = await accounts.create({ email: ' Ada@Example.com ', password: 'correct horse battery' });
      expect(ada).toEqual({ id: expect.stringMatching(/^acc_[0-9a-f]{16}$/), email: 'ada@example.com', createdAt: START });
      await expect(accounts.create({ email: 'ADA@example.com', password: 'another password' })).rejects.toThrow(EmailTakenError);
      // Two sign-ups racing with one email: one account.
      const raced = await Promise.allSettled([
        accounts.create({ email: 'grace@example.com', password: 'first password' }),
        accounts.create({ email: 'grace@example.com', password: 'second password' }),
      ]);
      expect(raced.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
      expect(await database.db.selectFrom('accounts').select('email').orderBy('email').execute()).toEqual([
        { email: 'ada@example.com' },
        { email: 'grace@example.com' },
      ]);

      expect(await accounts.verify({ email: 'ADA@example.com', password: 'correct horse battery' })).toEqual(ada);
      expect(await accounts.verify({ email: 'ada@example.com', password: 'wrong horse battery' })).toBeNull();
      expect(await accounts.verify({ email: 'nobody@example.com', password: 'correct horse battery' })).toBeNull();
      expect(await accounts.get(ada.id)).toEqual(ada);
      expect(await accounts.get('acc_0000000000000000')).toBeNull();
    });

    it('keep only a scrypt hash of the password, and change it only with the current one', async () => {
      const ada = await accounts.create({ email: 'ada@example.com', password: 'correct horse battery' });
      const stored = await database.db.selectFrom('accounts').select('password_hash').executeTakeFirstOrThrow();
      expect(stored.password_hash).not.toContain('correct horse');
      expect(parsePasswordHash(stored.password_hash)).toMatchObject({ N: 32768, r: 8, p: 1 });
      await expect(accounts.changePassword(ada.id, { currentPassword: 'not the password', newPassword: 'a brand new password' })).rejects.toThrow(
        WrongPasswordError,
      );
      expect(await accounts.verify({ email: 'ada@example.com', password: 'correct horse battery' })).toEqual(ada);
      await accounts.changePassword(ada.id, { currentPassword: 'correct horse battery', newPassword: 'a brand new password' });
      expect(await accounts.verify({ email: 'ada@example.com', password: 'correct horse battery' })).toBeNull();
      expect(await accounts.verify({ email: 'ada@example.com', password: 'a brand new password' })).toEqual(ada);
    });
  });

  describe('sessions', () => {
    it('are kept by a hash of the cookie only, and found with their account', async () => {
      const ada = await accounts.create({ email: 'ada@example.com', password: 'correct horse battery' });
      const { token, session } = await sessions.start(ada.id);
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(session.csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const rows = await database.db.selectFrom('sessions').selectAll().execute();
      expect(rows).toEqual([{ id_hash: hashSessionToken(token), account_id: ada.id, csrf_token: session.csrfToken, created_at: START, last_used_at: START }]);
      expect(JSON.stringify(rows)).not.toContain(token);
      expect(await sessions.find(token)).toEqual({ session, account: ada });
      expect(await sessions.find(undefined)).toBeNull();
      expect(await sessions.find('x'.repeat(43))).toBeNull();
      expect(await sessions.find(`${token}; drop table sessions`)).toBeNull();
    });

    it('end after 7 days unused, and 30 days after they began however often they are used', async () => {
      const ada = await accounts.create({ email: 'ada@example.com', password: 'correct horse battery' });
      const idle = await sessions.start(ada.id);
      const busy = await sessions.start(ada.id);
      clock += SESSION_LIFETIME.idleMs - 1;
      expect(await sessions.find(busy.token)).not.toBeNull();
      clock += 1;
      expect(await sessions.find(idle.token)).toBeNull();
      // Used every 6 days, it still ends at 30.
      for (let day = 13; day < 30; day += 6) {
        clock = START + day * DAY;
        expect(await sessions.find(busy.token), `day ${day}`).not.toBeNull();
      }
      clock = START + SESSION_LIFETIME.maxAgeMs;
      expect(await sessions.find(busy.token)).toBeNull();
      expect(await database.db.selectFrom('sessions').selectAll().execute()).toEqual([]);
    });

    it('end one at a time or all of an account, and expired ones are swept', async () => {
      const ada = await accounts.create({ email: 'ada@example.com', password: 'correct horse battery' });
      const grace = await accounts.create({ email: 'grace@example.com', password: 'correct horse battery' });
      const [a1, a2, g1] = [await sessions.start(ada.id), await sessions.start(ada.id), await sessions.start(grace.id)];
      await sessions.end(a1.session.idHash);
      expect(await sessions.find(a1.token)).toBeNull();
      expect(await sessions.find(a2.token)).not.toBeNull();
      await sessions.endAll(ada.id);
      expect(await sessions.find(a2.token)).toBeNull();
      expect(await sessions.find(g1.token)).not.toBeNull();

      await sessions.start(ada.id);
      clock += SESSION_LIFETIME.idleMs;
      const fresh = await sessions.start(grace.id);
      expect(await sessions.sweep()).toBe(2);
      expect(await database.db.selectFrom('sessions').select('id_hash').execute()).toEqual([{ id_hash: fresh.session.idHash }]);
    });
  });

  describe("an account's apps", () => {
    it('are listed newest first, only its own', async () => {
      const first = (await apps.create({ name: 'first', ownerId: 'acc_1111111111111111' })).app;
      clock += 1000;
      const second = (await apps.create({ name: 'second', ownerId: 'acc_1111111111111111' })).app;
      await apps.create({ name: 'theirs', ownerId: 'acc_2222222222222222' });
      await apps.create({ name: 'operators' });
      expect((await apps.listByOwner('acc_1111111111111111')).map((app) => app.id)).toEqual([second.id, first.id]);
      expect(await apps.listByOwner('acc_3333333333333333')).toEqual([]);
    });

    it('change settings and state in one step under the version read, and refuse an older version changing nothing', async () => {
      const { app } = await apps.create({ name: 'mine', ownerId: 'acc_1111111111111111' });
      clock += 1000;
      const disabled = await apps.update(app.id, { state: 'disabled' }, app.version);
      expect(disabled).toMatchObject({ state: 'disabled', version: app.version + 1, updatedAt: START + 1000, name: 'mine' });
      const both = await apps.update(app.id, { name: 'renamed', allowedDomains: ['Example.com'], state: 'active' }, disabled.version);
      expect(both).toMatchObject({ name: 'renamed', allowedDomains: ['example.com'], state: 'active', version: app.version + 2 });
      await expect(apps.update(app.id, { name: 'stale tab', state: 'disabled' }, disabled.version)).rejects.toThrow(StaleVersionError);
      expect(await apps.get(app.id)).toEqual(both);
      await expect(apps.update(app.id, { state: 'paused' as 'active' }, both.version)).rejects.toThrow(AppInputError);
      await expect(apps.update(app.id, { allowedNetworks: ['no-such-net'] }, both.version)).rejects.toMatchObject({ field: 'allowedNetworks' });
    });

    it('are deleted with their key, their usage kept', async () => {
      const { app, key } = await apps.create({ name: 'doomed', ownerId: 'acc_1111111111111111' });
      const meter = createUsageMeter(database, { flushIntervalMs: 3_600_000, now });
      meter.record({ appId: app.id, network: 'ethereum-sepolia', method: 'eth_chainId', computeUnits: 1 });
      await meter.close();
      await apps.delete(app.id);
      expect(await apps.findByKey(key)).toBeNull();
      await expect(apps.get(app.id)).rejects.toThrow(AppNotFoundError);
      await expect(apps.delete(app.id)).rejects.toThrow(AppNotFoundError);
      expect(await database.db.selectFrom('usage_minutes').select('app_id').execute()).toEqual([{ app_id: app.id }]);
    });
  });

  describe('usage by range', () => {
    it('sums the stored minutes by bucket, network and method, and errors by code over the range', async () => {
      const appId = 'app_0123456789abcdef';
      const meter = createUsageMeter(database, { flushIntervalMs: 3_600_000, now });
      const at = (minutesAgo: number) => START - minutesAgo * 60_000;
      meter.record({ appId, network: 'ethereum-sepolia', method: 'eth_call', computeUnits: 26, at: at(0) });
      meter.record({ appId, network: 'ethereum-sepolia', method: 'eth_call', computeUnits: 26, errorCode: 3, at: at(1) });
      meter.record({ appId, network: 'ethereum-sepolia', method: 'eth_call', computeUnits: 26, errorCode: 3, at: at(2) });
      meter.record({ appId, network: 'base-sepolia', method: 'eth_blockNumber', computeUnits: 10, errorCode: -32601, at: at(90) });
      meter.record({ appId, network: 'base-sepolia', method: 'eth_blockNumber', computeUnits: 10, at: at(60 * 24 * 20) });
      meter.record({ appId: 'app_ffffffffffffffff', network: 'base-sepolia', method: 'eth_blockNumber', computeUnits: 10, at: at(0) });
      await meter.close();

      const hour = await readAppUsage(database.db, appId, 'hour', START);
      expect(hour).toMatchObject({ range: 'hour', bucket: 'minute', from: '2030-01-15T11:01:00.000Z', to: '2030-01-15T12:01:00.000Z' });
      expect(hour.points).toEqual([
        { start: '2030-01-15T11:58:00.000Z', network: 'ethereum-sepolia', method: 'eth_call', requests: 1, computeUnits: 26, errors: 1 },
        { start: '2030-01-15T11:59:00.000Z', network: 'ethereum-sepolia', method: 'eth_call', requests: 1, computeUnits: 26, errors: 1 },
        { start: '2030-01-15T12:00:00.000Z', network: 'ethereum-sepolia', method: 'eth_call', requests: 1, computeUnits: 26, errors: 0 },
      ]);
      expect(hour.errorsByCode).toEqual([{ code: 3, count: 2 }]);

      const day = await readAppUsage(database.db, appId, 'day', START);
      expect(day.points).toEqual([
        { start: '2030-01-15T10:00:00.000Z', network: 'base-sepolia', method: 'eth_blockNumber', requests: 1, computeUnits: 10, errors: 1 },
        { start: '2030-01-15T11:00:00.000Z', network: 'ethereum-sepolia', method: 'eth_call', requests: 2, computeUnits: 52, errors: 2 },
        { start: '2030-01-15T12:00:00.000Z', network: 'ethereum-sepolia', method: 'eth_call', requests: 1, computeUnits: 26, errors: 0 },
      ]);
      expect(day.errorsByCode).toEqual([
        { code: 3, count: 2 },
        { code: -32601, count: 1 },
      ]);

      const month = await readAppUsage(database.db, appId, 'month', START);
      expect(month.points.map((point) => [point.start, point.requests])).toEqual([
        ['2029-12-26T00:00:00.000Z', 1],
        ['2030-01-15T00:00:00.000Z', 1],
        ['2030-01-15T00:00:00.000Z', 3],
      ]);
    });
  });
});
