import { randomUUID } from 'node:crypto';
import type { CrossProcessLock } from '../chain/sender.ts';
import type { RedisClient } from './redis.ts';

// The per-network sender lock across processes (src/chain/sender.ts): SET NX PX with a random
// token, released only by its holder. The TTL frees the lock if its holder dies; a holder that
// outlives it can at worst collide on a nonce, which the sender detects and retries.

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

export interface RedisLockOptions {
  /** How long a holder may keep the lock before it lapses. */
  ttlMs?: number;
  /** How long to wait for the lock before giving up (the send then fails as retryable). */
  waitMs?: number;
}

export function createRedisLock(client: RedisClient, key: string, options: RedisLockOptions = {}): CrossProcessLock {
  const ttlMs = options.ttlMs ?? 15_000;
  const waitMs = options.waitMs ?? 30_000;
  return {
    async acquire() {
      const token = randomUUID();
      const deadline = Date.now() + waitMs;
      for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
        const set = await client.set(key, token, { condition: 'NX', expiration: { type: 'PX', value: ttlMs } });
        if (set === 'OK') break;
        if (Date.now() >= deadline) throw new Error(`timed out waiting for the sender lock ${key}`);
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
      return async () => {
        // A lost release only delays the next holder until the TTL lapses.
        await client.eval(RELEASE, { keys: [key], arguments: [token] }).catch(() => undefined);
      };
    },
  };
}
