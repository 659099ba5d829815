import { createHash } from 'node:crypto';
import { ipBucketOf } from '../http/ip-bucket.ts';
import type { RateLimiter } from '../limits/rate-limiter.ts';
import { retryAfterSeconds } from '../limits/retry-after.ts';
import type { RateRule } from '../limits/token-bucket.ts';
import { normalizeEmail } from './account.ts';

// Sign-in and sign-up attempts (docs/dashboard.md#sign-in-limits), limited with the token buckets of src/limits/ (in
// memory, or in Redis with REDIS_URL so every process counts together), each checked before any
// password is hashed. "N attempts per W seconds" is a bucket of N·W tokens refilled N per second,
// where an attempt costs W: N attempts at once, then one more every W/N seconds, all N back after
// W; every amount a whole number, as the buckets' exact arithmetic wants.
//
// Sign-in counts per email and client IP together, and per client IP: an attacker elsewhere uses
// up their own attempts at an account, never its owner's. An unknown email counts as a known one:
// the answer must not tell them apart. A client IP is its IPv6 prefix (ipBucketOf).

export interface AttemptLimit {
  attempts: number;
  windowSeconds: number;
}

export interface AttemptLimitsConfig {
  signInsPerEmailAndIp: AttemptLimit;
  signInsPerIp: AttemptLimit;
  signUpsPerIp: AttemptLimit;
  /** IPv6 clients count per prefix of this many bits. */
  ipv6PrefixLength: number;
}

export function attemptRule({ attempts, windowSeconds }: AttemptLimit): { rule: RateRule; cost: number } {
  return { rule: { ratePerSecond: attempts, burst: attempts * windowSeconds }, cost: windowSeconds };
}

type AttemptDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface AttemptLimits {
  /** Counts a sign-in (or a password change) of this email from this client; refused when either count is over its limit. */
  signIn(email: string, clientIp: string | null): Promise<AttemptDecision>;
  /** Counts a sign-up from this client, whatever becomes of it. */
  signUp(clientIp: string | null): Promise<AttemptDecision>;
}

export function createAttemptLimits(limiter: RateLimiter, config: AttemptLimitsConfig): AttemptLimits {
  const perEmailAndIp = attemptRule(config.signInsPerEmailAndIp);
  const signInsPerIp = attemptRule(config.signInsPerIp);
  const signUpsPerIp = attemptRule(config.signUpsPerIp);
  const bucketOf = (clientIp: string | null) => ipBucketOf(clientIp, config.ipv6PrefixLength);
  const take = async (key: string, { rule, cost }: { rule: RateRule; cost: number }): Promise<AttemptDecision> => {
    const decision = await limiter.take(key, cost, rule);
    return decision.allowed ? { allowed: true } : { allowed: false, retryAfterSeconds: retryAfterSeconds(decision.retryAfterMs) };
  };
  return {
    async signIn(email, clientIp) {
      const ip = bucketOf(clientIp);
      // A client over its limit spends none of its attempts at the account.
      const byIp = await take(`sign-in:ip:${ip}`, signInsPerIp);
      if (!byIp.allowed) return byIp;
      // Hashed: the limiter's keys (in Redis too) name no one.
      const pair = createHash('sha256')
        .update(`${normalizeEmail(email)}\n${ip}`)
        .digest('hex');
      return take(`sign-in:email-ip:${pair}`, perEmailAndIp);
    },
    signUp: (clientIp) => take(`sign-up:ip:${bucketOf(clientIp)}`, signUpsPerIp),
  };
}
