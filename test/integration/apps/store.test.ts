import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppInputError, AppKeySealError, AppNotFoundError, StaleVersionError } from '../../../src/apps/errors.ts';
import { createAppStore, type AppStore } from '../../../src/apps/store.ts';
import type { Database } from '../../../src/db/open.ts';
import { databaseEngines } from '../../support/postgres.ts';

const NETWORKS = ['base-sepolia', 'ethereum-sepolia', 'crucible-testnet'];
const START = Date.UTC(2030, 0, 15, 12);

describe.each(databaseEngines())('the app store on $name', (engine) => {
  let database: Database;
  let store: AppStore;
  let clock: number;
  const keySecret = randomBytes(32);

  beforeEach(async () => {
    database = await engine.open();
    clock = START;
    store = createAppStore(database, { keySecret, networks: NETWORKS, now: () => clock });
  });
  afterEach(() => database.close());

  it('creates an app with the defaults, finds it by its key and shows the key again', async () => {
    const { app, key } = await store.create({ name: 'My dapp' });
    // The defaults themselves are the input parser's (test/unit/apps/input.test.ts).
    expect(app).toMatchObject({ name: 'My dapp', ownerId: null, state: 'active', createdAt: START, updatedAt: START, version: 1, previousKeyExpiresAt: null });
    expect(app.id).toMatch(/^app_[0-9a-f]{16}$/);
    expect(key).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(await store.findByKey(key)).toEqual(app);
    expect(await store.get(app.id)).toEqual(app);
    expect(await store.revealKey(app.id)).toBe(key);
    // The database holds neither the key nor anything it could be read from without the secret.
    const row = await database.db.selectFrom('apps').selectAll().where('id', '=', app.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(key);
  });

  it('keeps every setting given, normalized', async () => {
    const { app } = await store.create({
      name: 'Limited',
      ownerId: 'acct_1',
      allowedDomains: ['Example.com', '*.example.org'],
      allowedNetworks: ['base-sepolia'],
      computeUnitsPerSecond: 25,
      monthlyComputeUnitQuota: null,
    });
    expect(await store.get(app.id)).toMatchObject({
      ownerId: 'acct_1',
      allowedDomains: ['example.com', '*.example.org'],
      allowedNetworks: ['base-sepolia'],
      computeUnitsPerSecond: 25,
      monthlyComputeUnitQuota: null,
    });
  });

  it('lists apps oldest first', async () => {
    const first = await store.create({ name: 'first' });
    clock += 1000;
    const second = await store.create({ name: 'second' });
    expect((await store.list()).map((app) => app.id)).toEqual([first.app.id, second.app.id]);
  });

  it('finds nothing for an unknown, malformed or demo key', async () => {
    await store.create({ name: 'x' });
    for (const key of ['A'.repeat(32), 'demo', '', "' or 1=1 --", 'x'.repeat(10_000)]) expect(await store.findByKey(key)).toBeNull();
  });

  it('refuses the old key at once after a rotation without grace', async () => {
    const { app, key: oldKey } = await store.create({ name: 'x' });
    const rotated = await store.rotate(app.id);
    expect(rotated.key).not.toBe(oldKey);
    expect(rotated.app).toMatchObject({ version: 2, previousKeyExpiresAt: null });
    expect(await store.findByKey(oldKey)).toBeNull();
    expect(await store.findByKey(rotated.key)).toEqual(rotated.app);
    expect(await store.revealKey(app.id)).toBe(rotated.key);
  });

  it('accepts the old key until its grace period ends', async () => {
    const { app, key: oldKey } = await store.create({ name: 'x' });
    const rotated = await store.rotate(app.id, { graceSeconds: 60 });
    expect(rotated.app.previousKeyExpiresAt).toBe(START + 60_000);
    clock = START + 59_999;
    expect((await store.findByKey(oldKey))?.id).toBe(app.id);
    expect((await store.findByKey(rotated.key))?.id).toBe(app.id);
    clock = START + 60_000;
    expect(await store.findByKey(oldKey)).toBeNull();
    expect(await store.findByKey(rotated.key)).toMatchObject({ id: app.id, previousKeyExpiresAt: null });
  });

  it('forgets the first key when rotated twice within a grace period: one previous key at most', async () => {
    const { app, key: first } = await store.create({ name: 'x' });
    const { key: second } = await store.rotate(app.id, { graceSeconds: 600 });
    const { key: third } = await store.rotate(app.id);
    expect(await store.findByKey(first)).toBeNull();
    expect(await store.findByKey(second)).toBeNull();
    expect((await store.findByKey(third))?.id).toBe(app.id);
  });

  it('disables and enables an app, which its key still finds so the gateway can say why it refuses', async () => {
    const { app, key } = await store.create({ name: 'x' });
    const disabled = await store.setState(app.id, 'disabled');
    expect(disabled).toMatchObject({ state: 'disabled', version: 2 });
    expect(await store.findByKey(key)).toMatchObject({ id: app.id, state: 'disabled' });
    // Disabling a disabled app changes nothing.
    expect(await store.setState(app.id, 'disabled')).toMatchObject({ state: 'disabled', version: 2 });
    expect(await store.setState(app.id, 'active')).toMatchObject({ state: 'active', version: 3 });
  });

  it('updates settings, counting versions, and refuses a stale version', async () => {
    const { app } = await store.create({ name: 'x' });
    clock += 5000;
    const renamed = await store.update(app.id, { name: 'Renamed', allowedNetworks: ['crucible-testnet'] }, 1);
    expect(renamed).toMatchObject({ name: 'Renamed', allowedNetworks: ['crucible-testnet'], version: 2, updatedAt: START + 5000, createdAt: START });
    const stale = await store.update(app.id, { name: 'Lost edit' }, 1).catch((error: unknown) => error);
    expect(stale).toBeInstanceOf(StaleVersionError);
    expect(stale).toMatchObject({ expectedVersion: 1, currentVersion: 2 });
    expect((await store.get(app.id)).name).toBe('Renamed');
    // Without an expected version the change is made whatever the version.
    expect(await store.update(app.id, { monthlyComputeUnitQuota: null })).toMatchObject({ monthlyComputeUnitQuota: null, version: 3 });
  });

  it('refuses bad input naming the field, writing nothing', async () => {
    const { app } = await store.create({ name: 'x' });
    await expect(store.create({ name: 'y', allowedNetworks: ['nowhere'] })).rejects.toThrow(AppInputError);
    await expect(store.update(app.id, { allowedDomains: ['not a host'] })).rejects.toMatchObject({ field: 'allowedDomains' });
    await expect(store.rotate(app.id, { graceSeconds: -5 })).rejects.toMatchObject({ field: 'graceSeconds' });
    await expect(store.setState(app.id, 'paused' as 'active')).rejects.toMatchObject({ field: 'state' });
    expect(await store.list()).toEqual([app]);
  });

  it('answers AppNotFoundError for an unknown app, whatever the operation', async () => {
    const missing = 'app_0000000000000000';
    for (const operation of [
      () => store.get(missing),
      () => store.revealKey(missing),
      () => store.rotate(missing),
      () => store.setState(missing, 'disabled'),
      () => store.update(missing, { name: 'x' }),
      () => store.update(missing, { name: 'x' }, 1),
    ]) {
      await expect(operation()).rejects.toBeInstanceOf(AppNotFoundError);
    }
  });

  it('cannot show a key under another secret, and says so without the key', async () => {
    const { app, key } = await store.create({ name: 'x' });
    const otherSecret = createAppStore(database, { keySecret: randomBytes(32), networks: NETWORKS });
    const error = await otherSecret.revealKey(app.id).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppKeySealError);
    expect(String(error)).not.toContain(key);
    // The lookup by hash needs no secret.
    expect((await otherSecret.findByKey(key))?.id).toBe(app.id);
  });
});
