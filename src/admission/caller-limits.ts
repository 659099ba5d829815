import type { ComputeUnitRate } from '../config/node.ts';
import type { RateLimit } from '../errors/codes.ts';
import { overBurst, overLimit, type CrucibleError } from '../errors/crucible-error.ts';
import { ipBucketOf } from '../http/ip-bucket.ts';
import { asManyAsFit } from '../limits/as-many-as-fit.ts';
import type { QuotaCounter } from '../limits/quota.ts';
import { andThen, type Awaitable } from '../limits/awaitable.ts';
import type { RateLimiter } from '../limits/rate-limiter.ts';
import { retryAfterSeconds } from '../limits/retry-after.ts';
import type { Caller } from './callers.ts';

// The buckets a caller's compute units are taken from (README, "Server limits"): an
// app's own rate, then its owner account's (so an account cannot multiply its rate by creating
// apps), then its monthly quota; the demo key's rate per client IP and network, then the total of
// every demo caller on the network. The narrower bucket is taken first, so a caller over its own
// limit takes nothing from the bucket it shares with others.

export interface CallerLimitSettings {
  demo: { perClient: ComputeUnitRate; perNetwork: ComputeUnitRate };
  /** What the apps of one account share, besides each app's own rate. */
  account: ComputeUnitRate;
  /** IPv6 clients of the demo key count per prefix of this length. */
  ipv6PrefixLength: number;
}

export interface CallerLimits {
  /**
   * Takes `computeUnits` from each rate bucket the caller draws on in `scope` (a network, or a
   * product such as `prices`): the refusal of the first that is short, or null. `prepaid`: what
   * the same request paid before (its least charge), so a refusal names the request's whole cost.
   * At once when every bucket answers at once (in memory), else a promise.
   */
  takeRate(caller: Caller, scope: string, computeUnits: number, clientIp: string | null, prepaid?: number): Awaitable<CrucibleError | null>;
  /** Counts `computeUnits` against an app's monthly quota; a refusal counts nothing. At once when the count is in memory. */
  countQuota(caller: Caller, computeUnits: number): Awaitable<CrucibleError | null>;
  /**
   * `count` charges of `computeUnits` each, taken together as `count` charges (rate, then quota)
   * one after another would be: how many fit, which are the first ones. From each bucket in
   * order as many as fit of those the one before let through, then the quota; a charge one of
   * them refuses takes nothing from the ones after it.
   */
  chargeEach(caller: Caller, scope: string, computeUnits: number, count: number, clientIp: string | null): Promise<number>;
  /**
   * Names a charge of `caller` in `scope` by what it draws on (its buckets and their rules, its
   * quota) and its scope: charges with the same name may be taken together (chargeEach).
   */
  payerOf(caller: Caller, scope: string, clientIp: string | null): string;
}

/** One rate bucket a caller draws on: its key, its rule, and the limit a refusal names. */
interface Bucket {
  key: string;
  rate: ComputeUnitRate;
  limit: RateLimit;
}

/** An app's bucket holds this many seconds of its rate. */
const APP_BURST_SECONDS = 10;

export function createCallerLimits(options: CallerLimitSettings & { rateLimiter: RateLimiter; quota: QuotaCounter; now?: () => number }): CallerLimits {
  const now = options.now ?? Date.now;
  const { demo, account } = options;
  const takeFrom = (key: string, computeUnits: number, prepaid: number, rate: ComputeUnitRate, limit: RateLimit): Awaitable<CrucibleError | null> =>
    andThen(options.rateLimiter.take(key, computeUnits, { ratePerSecond: rate.computeUnitsPerSecond, burst: rate.burst }), (decision) => {
      if (decision.allowed) return null;
      // More than the bucket holds never fits: saying "retry later" would have clients retry for ever.
      if (decision.reason === 'cost-exceeds-burst') return overBurst(limit, prepaid + computeUnits, decision.burst);
      return overLimit(limit, retryAfterSeconds(decision.retryAfterMs));
    });

  // The UTC month (YYYY-MM) of an instant, computed once per month.
  let month = { key: '', from: 0, until: 0 };
  const monthOf = (at: number): string => {
    if (at < month.from || at >= month.until) {
      const date = new Date(at);
      const [year, index] = [date.getUTCFullYear(), date.getUTCMonth()];
      month = { key: date.toISOString().slice(0, 7), from: Date.UTC(year, index, 1), until: Date.UTC(year, index + 1, 1) };
    }
    return month.key;
  };

  /** The rate buckets a caller draws on in `scope`, the narrower first. */
  const bucketsOf = (caller: Caller, scope: string, clientIp: string | null): Bucket[] => {
    if (caller.kind === 'demo') {
      const client = ipBucketOf(clientIp, options.ipv6PrefixLength);
      const { perClient, perNetwork } = demo;
      return [
        { key: `demo:${scope}:${client}`, rate: perClient, limit: { kind: 'demo-ip', computeUnitsPerSecond: perClient.computeUnitsPerSecond } },
        { key: `demo-network:${scope}`, rate: perNetwork, limit: { kind: 'demo-network', computeUnitsPerSecond: perNetwork.computeUnitsPerSecond } },
      ];
    }
    const { app } = caller;
    const own = { computeUnitsPerSecond: app.computeUnitsPerSecond, burst: app.computeUnitsPerSecond * APP_BURST_SECONDS };
    const appBucket: Bucket = { key: `app:${app.id}`, rate: own, limit: { kind: 'app-rate', computeUnitsPerSecond: app.computeUnitsPerSecond } };
    // An app the CLI created without --owner is limited per app only.
    if (app.ownerId === null) return [appBucket];
    return [appBucket, { key: `account:${app.ownerId}`, rate: account, limit: { kind: 'account-rate', computeUnitsPerSecond: account.computeUnitsPerSecond } }];
  };

  /** An app's monthly quota, or null when it has none (the demo key, an app without a quota). */
  const quotaOf = (caller: Caller): { key: string; perMonth: number } | null => {
    const perMonth = caller.kind === 'app' ? caller.app.monthlyComputeUnitQuota : null;
    return caller.kind === 'app' && perMonth !== null ? { key: `app:${caller.app.id}`, perMonth } : null;
  };

  const takeRate: CallerLimits['takeRate'] = (caller, scope, computeUnits, clientIp, prepaid = 0) => {
    if (computeUnits <= 0) return null;
    const buckets = bucketsOf(caller, scope, clientIp);
    // Each bucket once the one before let the charge through: at once while every bucket answers at once.
    const from = (index: number): Awaitable<CrucibleError | null> => {
      const bucket = buckets[index];
      if (!bucket) return null;
      return andThen(takeFrom(bucket.key, computeUnits, prepaid, bucket.rate, bucket.limit), (refused) => refused ?? from(index + 1));
    };
    return from(0);
  };

  return {
    takeRate,

    countQuota(caller, computeUnits) {
      const quota = quotaOf(caller);
      if (quota === null || computeUnits <= 0) return null;
      const at = now();
      return andThen(options.quota.consume(quota.key, computeUnits, quota.perMonth, monthOf(at)), (decision) =>
        decision.allowed ? null : overLimit({ kind: 'app-quota', computeUnitsPerMonth: quota.perMonth }, retryAfterSeconds(decision.resetAt.getTime() - at)),
      );
    },

    async chargeEach(caller, scope, computeUnits, count, clientIp) {
      if (computeUnits <= 0) return count;
      let fit = count;
      for (const { key, rate } of bucketsOf(caller, scope, clientIp)) {
        const rule = { ratePerSecond: rate.computeUnitsPerSecond, burst: rate.burst };
        fit = await asManyAsFit(fit, async (n) => (await options.rateLimiter.take(key, n * computeUnits, rule)).allowed);
      }
      const quota = quotaOf(caller);
      if (quota === null) return fit;
      const month = monthOf(now());
      return asManyAsFit(fit, async (n) => (await options.quota.consume(quota.key, n * computeUnits, quota.perMonth, month)).allowed);
    },

    payerOf(caller, scope, clientIp) {
      const buckets = bucketsOf(caller, scope, clientIp).map(({ key, rate }) => `${key} ${rate.computeUnitsPerSecond}/${rate.burst}`);
      const quota = quotaOf(caller);
      return `${scope} ${buckets.join(' ')}${quota ? ` ${quota.key} ${quota.perMonth}` : ''}`;
    },
  };
}
