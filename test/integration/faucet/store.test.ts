import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisLock } from '../../../src/store/redis-lock.ts';
import { connectRedis, createRedisLimitStore, type RedisClient } from '../../../src/store/redis.ts';
import { openSqliteStore } from '../../../src/store/sqlite.ts';
import type { CaptchaTokenStore, FaucetStore, LimitStore } from '../../../src/store/types.ts';
import { startRedis, type TestRedis } from '../../support/redis.ts';

// One contract, two real backends: a SQLite file and a redis-server.

const HOUR = 3_600_000;
const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);
const ADDRESS = '0xAbCdEf0123456789aBcDeF0123456789AbCdEf01';

let dir: string;
let redis: TestRedis;
let client: RedisClient;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crucible-store-'));
  redis = await startRedis();
  client = await connectRedis(redis.url);
});
afterAll(async () => {
  await client?.close();
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

let counter = 0;
const backends: Record<string, () => Promise<LimitStore & CaptchaTokenStore>> = {
  sqlite: async () => openSqliteStore(join(dir, `limits-${++counter}.sqlite`)),
  redis: async () => createRedisLimitStore(client, `test-${++counter}:`),
};

describe.each(Object.keys(backends))('limit store contract (%s)', (backend) => {
  const open = backends[backend]!;

  it('reserves an address once per network and window, and says when the window lapses', async () => {
    const store = await open();
    const first = await store.reserveAddress({ networkId: 'base-sepolia', address: ADDRESS, windowMs: 24 * HOUR, now: at(0) });
    expect(first.ok).toBe(true);
    // Any spelling of the same address is the same recipient.
    const again = await store.reserveAddress({ networkId: 'base-sepolia', address: ADDRESS.toLowerCase(), windowMs: 24 * HOUR, now: at(HOUR) });
    expect(again).toEqual({ ok: false, resetAt: at(24 * HOUR) });
    const otherNetwork = await store.reserveAddress({ networkId: 'ink-sepolia', address: ADDRESS, windowMs: 24 * HOUR, now: at(HOUR) });
    expect(otherNetwork.ok).toBe(true);
  });

  it('restarts the window at confirmation, and frees the address after it', async () => {
    const store = await open();
    const reserved = await store.reserveAddress({ networkId: 'n', address: ADDRESS, windowMs: 10 * HOUR, now: at(0) });
    if (!reserved.ok) throw new Error('not reserved');
    await store.confirmAddress(reserved.reservation, at(HOUR));
    expect(await store.reserveAddress({ networkId: 'n', address: ADDRESS, windowMs: 10 * HOUR, now: at(10 * HOUR) })).toEqual({
      ok: false,
      resetAt: at(11 * HOUR),
    });
    // Releasing a confirmed drip does nothing: the drip happened.
    await store.releaseAddress(reserved.reservation);
    expect((await store.reserveAddress({ networkId: 'n', address: ADDRESS, windowMs: 10 * HOUR, now: at(10 * HOUR) })).ok).toBe(false);
    expect((await store.reserveAddress({ networkId: 'n', address: ADDRESS, windowMs: 10 * HOUR, now: at(11 * HOUR) })).ok).toBe(true);
  });

  it('frees a released reservation at once, but only the holder can release or confirm it', async () => {
    const store = await open();
    const first = await store.reserveAddress({ networkId: 'n', address: ADDRESS, windowMs: HOUR, now: at(0) });
    if (!first.ok) throw new Error('not reserved');
    await store.releaseAddress(first.reservation);
    const second = await store.reserveAddress({ networkId: 'n', address: ADDRESS, windowMs: HOUR, now: at(1) });
    if (!second.ok) throw new Error('not reserved after release');
    // The first holder's late release or confirm must not touch the second reservation.
    await store.releaseAddress(first.reservation);
    await store.confirmAddress(first.reservation, at(2));
    expect(await store.reserveAddress({ networkId: 'n', address: ADDRESS, windowMs: HOUR, now: at(3) })).toEqual({ ok: false, resetAt: at(1 + HOUR) });
  });

  it('lets exactly one of many concurrent reservations for one address through', async () => {
    const store = await open();
    const results = await Promise.all(Array.from({ length: 25 }, () => store.reserveAddress({ networkId: 'n', address: ADDRESS, windowMs: HOUR, now: at(0) })));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
  });

  it('counts an IP per network in a fixed window, and takes back unused slots', async () => {
    const store = await open();
    const take = (ms: number) => store.takeIpSlot({ networkId: 'n', ipHash: 'ip-a', max: 2, windowMs: HOUR, now: at(ms) });
    const one = await take(0);
    const two = await take(10);
    expect(one.ok && two.ok).toBe(true);
    expect(await take(20)).toEqual({ ok: false, resetAt: at(HOUR) });
    expect((await store.takeIpSlot({ networkId: 'other', ipHash: 'ip-a', max: 2, windowMs: HOUR, now: at(20) })).ok).toBe(true);
    if (two.ok) await store.returnIpSlot(two.slot);
    expect((await take(30)).ok).toBe(true);
    expect((await take(40)).ok).toBe(false);
    // A new window starts from zero; a slot of the old window is not handed back into it.
    const fresh = await take(HOUR);
    expect(fresh.ok).toBe(true);
    if (one.ok) await store.returnIpSlot(one.slot);
    expect((await take(HOUR + 1)).ok).toBe(true);
    expect((await take(HOUR + 2)).ok).toBe(false);
  });

  it('claims a CAPTCHA token hash once', async () => {
    const store = await open();
    expect(await store.claimCaptchaToken('hash-1', at(300_000), at(0))).toBe(true);
    expect(await store.claimCaptchaToken('hash-1', at(300_000), at(1_000))).toBe(false);
    expect(await store.claimCaptchaToken('hash-2', at(300_000), at(1_000))).toBe(true);
  });
});

describe('SQLite store', () => {
  const record = (n: number) => ({
    networkId: 'base-sepolia',
    address: `0x${n.toString(16).padStart(40, '0')}`,
    amountWei: 10n ** 17n,
    txHash: `0x${n.toString(16).padStart(64, '0')}` as const,
    ipHash: 'hashed-ip',
    createdAt: at(n),
    outcome: 'sent' as const,
    statusCode: null,
  });

  it('keeps every ledger row and reservation across close and reopen', async () => {
    const path = join(dir, 'restart.sqlite');
    const first: FaucetStore = openSqliteStore(path);
    for (let n = 1; n <= 5; n++) await first.recordDrip(record(n));
    await first.recordDrip({ ...record(6), txHash: null, outcome: 'failed', statusCode: 'faucet_request_failed' });
    const reserved = await first.reserveAddress({ networkId: 'n', address: ADDRESS, windowMs: HOUR, now: at(0) });
    expect(reserved.ok).toBe(true);
    await first.close();

    const second = openSqliteStore(path);
    const rows = await second.listDrips();
    expect(rows).toHaveLength(6);
    expect(rows[0]).toEqual({ ...record(1), address: record(1).address.toLowerCase() });
    expect(rows[5]).toMatchObject({ outcome: 'failed', txHash: null, statusCode: 'faucet_request_failed' });
    expect(await second.listDrips({ address: record(3).address.toUpperCase().replace('0X', '0x') })).toHaveLength(1);
    expect(await second.reserveAddress({ networkId: 'n', address: ADDRESS, windowMs: HOUR, now: at(1) })).toEqual({ ok: false, resetAt: at(HOUR) });
    await second.close();
  });

  it('is atomic across two connections to one file (two processes on one machine)', async () => {
    const path = join(dir, 'shared.sqlite');
    const a = openSqliteStore(path);
    const b = openSqliteStore(path);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).reserveAddress({ networkId: 'n', address: ADDRESS, windowMs: HOUR, now: at(0) })),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    await a.recordDrip(record(1));
    expect(await b.listDrips()).toHaveLength(1);
    await a.close();
    await b.close();
  });
});

describe('Redis sender lock', () => {
  it('admits one holder at a time across connections, in turn', async () => {
    const other = await connectRedis(redis.url);
    try {
      const key = `lock-${++counter}`;
      const events: string[] = [];
      const hold = async (name: string, lock: ReturnType<typeof createRedisLock>) => {
        const release = await lock.acquire();
        events.push(`in ${name}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
        events.push(`out ${name}`);
        await release();
      };
      await Promise.all([hold('a', createRedisLock(client, key)), hold('b', createRedisLock(other, key)), hold('c', createRedisLock(client, key))]);
      // Never two inside at once: every "in" is followed by its own "out".
      for (let i = 0; i < events.length; i += 2) expect(events[i + 1]).toBe(events[i]!.replace('in', 'out'));
      expect(events).toHaveLength(6);
    } finally {
      await other.close();
    }
  });

  it("lapses after its TTL when the holder vanished, and a late release does not free the next holder's lock", async () => {
    const key = `lock-${++counter}`;
    const staleRelease = await createRedisLock(client, key, { ttlMs: 50 }).acquire();
    const next = await createRedisLock(client, key, { ttlMs: 120_000 }).acquire();
    await staleRelease();
    await expect(createRedisLock(client, key, { waitMs: 100 }).acquire()).rejects.toThrow(/timed out waiting for the sender lock/);
    await next();
    const after = await createRedisLock(client, key, { waitMs: 100 }).acquire();
    await after();
  });
});
