import { createHash } from 'node:crypto';
import { ipBucketOf } from '../http/ip-bucket.ts';
import type { RateLimiter } from '../limits/rate-limiter.ts';
import { retryAfterSeconds } from '../limits/retry-after.ts';
import type { RateRule } from '../limits/token-bucket.ts';
import { normalizeEmail } from './account.ts';

// Sign-in attempts (platform §8), limited per account email and per client IP with the token
// buckets of src/limits/ (in memory, or in Redis with REDIS_URL so every process counts together).
// "N attempts per W seconds" is a bucket of N·W tokens refilled N per second, where an attempt
// costs W: N attempts at once, then one more every W/N seconds, all N back after W; every amount a
// whole number, as the buckets' exact arithmetic wants. An unknown email counts as a known one:
// the answer must not tell them apart.

export interface AttemptLimit {
  attempts: number;
  windowSeconds: number;
}

export const SIGN_IN_LIMITS: Readonly<{ perEmail: AttemptLimit; perIp: AttemptLimit }> = Object.freeze({
  perEmail: { attempts: 10, windowSeconds: 15 * 60 },
  perIp: { attempts: 50, windowSeconds: 15 * 60 },
});

export function attemptRule({ attempts, windowSeconds }: AttemptLimit): { rule: RateRule; cost: number } {
  return { rule: { ratePerSecond: attempts, burst: attempts * windowSeconds }, cost: windowSeconds };
}

type AttemptDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface SignInLimits {
  /** Counts one attempt for this email and this client; refused when either is over its limit. */
  attempt(email: string, clientIp: string | null): Promise<AttemptDecision>;
}

export function createSignInLimits(limiter: RateLimiter, options: { ipv6PrefixLength: number }): SignInLimits {
  const perEmail = attemptRule(SIGN_IN_LIMITS.perEmail);
  const perIp = attemptRule(SIGN_IN_LIMITS.perIp);
  return {
    async attempt(email, clientIp) {
      // A client over its limit spends none of the account's attempts.
      const byIp = await limiter.take(`sign-in:ip:${ipBucketOf(clientIp, options.ipv6PrefixLength)}`, perIp.cost, perIp.rule);
      if (!byIp.allowed) return { allowed: false, retryAfterSeconds: retryAfterSeconds(byIp.retryAfterMs) };
      // The email is hashed: the limiter's keys (in Redis too) name no one.
      const emailKey = `sign-in:email:${createHash('sha256').update(normalizeEmail(email)).digest('hex')}`;
      const byEmail = await limiter.take(emailKey, perEmail.cost, perEmail.rule);
      return byEmail.allowed ? { allowed: true } : { allowed: false, retryAfterSeconds: retryAfterSeconds(byEmail.retryAfterMs) };
    },
  };
}
