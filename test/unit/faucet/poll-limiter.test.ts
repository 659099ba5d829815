import { describe, expect, it } from 'vitest';
import { createPollLimiter } from '../../../src/faucet/poll-limiter.ts';

describe('createPollLimiter', () => {
  it('allows a burst, then the sustained rate, per bucket', () => {
    const limiter = createPollLimiter({ perMinute: 60, burst: 3 });
    for (let i = 0; i < 3; i++) expect(limiter.take('a', 0)).toEqual({ ok: true });
    expect(limiter.take('a', 0)).toEqual({ ok: false, retryAt: 1_000 });
    // Another client is not affected.
    expect(limiter.take('b', 0)).toEqual({ ok: true });
    // One poll per second refills.
    expect(limiter.take('a', 999)).toMatchObject({ ok: false });
    expect(limiter.take('a', 1_000)).toEqual({ ok: true });
    expect(limiter.take('a', 1_000)).toMatchObject({ ok: false });
  });

  it('never holds more than the burst, however long a client was away', () => {
    const limiter = createPollLimiter({ perMinute: 60, burst: 2 });
    limiter.take('a', 0);
    const later = 3_600_000;
    expect(limiter.take('a', later)).toEqual({ ok: true });
    expect(limiter.take('a', later)).toEqual({ ok: true });
    expect(limiter.take('a', later)).toMatchObject({ ok: false });
  });
});
