import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EmailTakenError, WrongPasswordError } from '../../../src/accounts/errors.ts';
import { hashPassword, parsePasswordHash, PASSWORD_HASHING, verifyPassword } from '../../../src/accounts/password.ts';
import { createSessionStore, hashSessionToken, SESSION_LIFETIME, type SessionStore } from '../../../src/accounts/sessions.ts';
import { createAccountStore, type AccountStore } from '../../../src/accounts/store.ts';
import { AppInputError, AppNotFoundError, StaleVersionError } from '../../../src/apps/errors.ts';
import { createAppStore, type AppStore } from '../../../src/apps/store.ts';
import { createUsageMeter } from '../../../src/apps/usage-meter.ts';
import type { Database } from '../../../src/db/open.ts';
import { readAppUsage } from '../../../src/dashboard/usage.ts';
import { createWebhookStore } from '../../../src/webhooks/store.ts';
import { databaseEngines } from '../../support/postgres.ts';

// What the dashboard stands on, on SQLite and PostgreSQL (migration 0009 and the app store's
// additions): accounts, their password hashes made again at today's cost and hashed a few at a
// time, sessions and their lifetimes, an account's apps and webhooks up to their caps, a change of
// state under a version, deletion, and usage read back by range with errors by code.

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
      expect(parsePasswordHash(stored.password_hash)).toMatchObject({ N: 2 ** 17, r: 8, p: 1 });
      await expect(accounts.changePassword(ada.id, { currentPassword: 'not the password', newPassword: 'a brand new password' })).rejects.toThrow(
        WrongPasswordError,
      );
      expect(await accounts.verify({ email: 'ada@example.com', password: 'correct horse battery' })).toEqual(ada);
      await accounts.changePassword(ada.id, { currentPassword: 'correct horse battery', newPassword: 'a brand new password' });
      expect(await accounts.verify({ email: 'ada@example.com', password: 'correct horse battery' })).toBeNull();
      expect(await accounts.verify({ email: 'ada@example.com', password: 'a brand new password' })).toEqual(ada);
    });

    it('sign in with a hash of the former cost (N=2^15) and have it made again at N=2^17; a wrong password changes nothing', async () => {
      const former = await hashPassword('correct horse battery', { ...PASSWORD_HASHING, N: 2 ** 15 });
      const id = 'acc_0123456789abcdef';
      await database.db.insertInto('accounts').values({ id, email: 'ada@example.com', password_hash: former, created_at: START, updated_at: START }).execute();
      const storedHash = async () =>
        (await database.db.selectFrom('accounts').select('password_hash').where('id', '=', id).executeTakeFirstOrThrow()).password_hash;

      expect(await accounts.verify({ email: 'ada@example.com', password: 'wrong horse battery' })).toBeNull();
      expect(await storedHash()).toBe(former);
      expect(await accounts.verify({ email: 'ada@example.com', password: 'correct horse battery' })).toEqual({
        id,
        email: 'ada@example.com',
        createdAt: START,
      });
      const rewritten = await storedHash();
      expect(parsePasswordHash(rewritten)).toMatchObject({ N: 2 ** 17, r: 8, p: 1 });
      expect(await verifyPassword('correct horse battery', rewritten)).toBe(true);
    });

    it('hash at most `concurrency` passwords at once, and refuse a sign-up when `queue` more already wait', async () => {
      const bounded = createAccountStore(database.db, { now, hashing: { concurrency: 1, queue: 1 } });
      const raced = await Promise.allSettled(
        ['ada', 'grace', 'alan'].map((name) => bounded.create({ email: `${name}@example.com`, password: 'correct horse battery' })),
      );
      expect(raced.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
      expect((raced[2] as PromiseRejectedResult).reason).toMatchObject({ name: 'PasswordHashingBusyError' });
      expect(await database.db.selectFrom('accounts').select('email').orderBy('email').execute()).toEqual([
        { email: 'ada@example.com' },
        { email: 'grace@example.com' },
      ]);
      // Once the queue drains, the next is taken.
      expect(await bounded.create({ email: 'alan@example.com', password: 'correct horse battery' })).toMatchObject({ email: 'alan@example.com' });
    });
  });

  describe('sessions', () => {
    /** An account as sign-up leaves it, without its scrypt (128 MiB, most of a second): these tests never sign in. */
    const signedUp = async (email: string) => {
      const account = { id: `acc_${randomBytes(8).toString('hex')}`, email, createdAt: clock };
      await database.db
        .insertInto('accounts')
        .values({ id: account.id, email, password_hash: 'not read here', created_at: clock, updated_at: clock })
        .execute();
      return account;
    };

    it('are kept by a hash of the cookie only, and found with their account', async () => {
      const ada = await signedUp('ada@example.com');
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
      const ada = await signedUp('ada@example.com');
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
      const ada = await signedUp('ada@example.com');
      const grace = await signedUp('grace@example.com');
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

    it('stop at the cap the caller gives, however many are created at once; the operator’s (no cap) do not', async () => {
      const owner = 'acc_1111111111111111';
      const raced = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => apps.create({ name: `app ${i}`, ownerId: owner }, { maxPerOwner: 3 })));
      expect(raced.filter((result) => result.status === 'fulfilled')).toHaveLength(3);
      for (const result of raced.filter((result) => result.status === 'rejected'))
        expect(result.reason).toMatchObject({ name: 'AccountLimitError', limit: 'appsPerAccount', max: 3 });
      expect(await apps.listByOwner(owner)).toHaveLength(3);
      expect((await apps.create({ name: 'theirs', ownerId: 'acc_2222222222222222' }, { maxPerOwner: 3 })).app.ownerId).toBe('acc_2222222222222222');
      expect((await apps.create({ name: 'by the operator', ownerId: owner })).app.ownerId).toBe(owner);
    });
  });

  describe("an account's webhooks", () => {
    it('stop at the store’s cap, however many are created at once, and another can be made once one is deleted', async () => {
      const webhooks = createWebhookStore(database.db, { networks: NETWORKS, urlRules: { local: true }, maxPerOwner: 2, now });
      const owner = 'acc_1111111111111111';
      const input = { type: 'NFT_ACTIVITY', network: NETWORKS[0]!, url: 'https://hooks.example.com/nft' } as const;
      const raced = await Promise.allSettled(Array.from({ length: 5 }, () => webhooks.create(owner, input)));
      expect(raced.filter((result) => result.status === 'fulfilled')).toHaveLength(2);
      for (const result of raced.filter((result) => result.status === 'rejected'))
        expect(result.reason).toMatchObject({ name: 'AccountLimitError', limit: 'webhooksPerAccount', max: 2 });
      const listed = await webhooks.list(owner);
      expect(listed).toHaveLength(2);
      expect((await webhooks.create('acc_2222222222222222', input)).url).toBe(input.url);
      await webhooks.delete(owner, listed[0]!.id);
      expect((await webhooks.create(owner, input)).url).toBe(input.url);
      expect(webhooks.maxPerOwner).toBe(2);
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
