import { describe, expect, it } from 'vitest';
import { createHashingSlots, PasswordHashingBusyError } from '../../../src/accounts/hashing-slots.ts';
import { hashPassword, PASSWORD_HASHING } from '../../../src/accounts/password.ts';

// Password hashes a few at a time (src/accounts/hashing-slots.ts): each real scrypt here is counted
// while it runs, so the most running at once is what the slots allowed, not a guess from timing.

const cheap = { ...PASSWORD_HASHING, N: 2 ** 10 };

describe('hashing slots', () => {
  it('run at most `concurrency` hashes at once, the rest in turn, and refuse one more than `queue` can hold', async () => {
    const slots = createHashingSlots({ concurrency: 2, queue: 4 });
    let running = 0;
    let most = 0;
    const counted = () =>
      slots.run(async () => {
        most = Math.max(most, ++running);
        try {
          return await hashPassword('correct horse battery', cheap);
        } finally {
          running--;
        }
      });
    const hashes = Array.from({ length: 6 }, counted);
    await expect(counted()).rejects.toThrow(PasswordHashingBusyError);
    expect(new Set(await Promise.all(hashes)).size).toBe(6);
    expect(most).toBe(2);
    // Drained, they take work again.
    expect(await counted()).toMatch(/^scrypt\$1024\$/);
  });

  it('free a slot when a hash fails', async () => {
    const slots = createHashingSlots({ concurrency: 1, queue: 0 });
    await expect(slots.run(() => Promise.reject(new Error('scrypt failed')))).rejects.toThrow('scrypt failed');
    // The slot is given back just after the failure is delivered.
    await expect.poll(() => slots.run(async () => 'next').catch((error: Error) => error.name)).toBe('next');
  });
});
