import pLimit from 'p-limit';

// Password hashes are computed a few at a time (docs/dashboard.md#passwords). Each scrypt holds 128 MiB and one
// thread of libuv's pool (4 by default, shared with file reads, DNS lookups and zlib) for a few
// hundred milliseconds, so unbounded sign-ins would exhaust memory and stall the rest of the
// server. Beyond `concurrency` running, up to `queue` wait their turn; more are refused at once.

export interface HashingSlotsOptions {
  /** Hashes computed at once. */
  concurrency: number;
  /** Hashes that may wait for a slot; past this, PasswordHashingBusyError. */
  queue: number;
}

export interface HashingSlots {
  /** Runs `hash` in a slot, after those already waiting; PasswordHashingBusyError when the queue is full. */
  run<T>(hash: () => Promise<T>): Promise<T>;
}

/** Too many password hashes already running and waiting: the caller should try again shortly. */
export class PasswordHashingBusyError extends Error {
  override name = 'PasswordHashingBusyError';
  constructor() {
    super('Too many passwords are being checked at once.');
  }
}

export function createHashingSlots({ concurrency, queue }: HashingSlotsOptions): HashingSlots {
  const limit = pLimit(concurrency);
  return {
    run(hash) {
      // Both counts change synchronously as work is taken and finished, so their sum is exact here.
      if (limit.activeCount + limit.pendingCount >= concurrency + queue) return Promise.reject(new PasswordHashingBusyError());
      return limit(hash);
    },
  };
}
