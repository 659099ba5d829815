import type { ComputeUnitRate } from '../config/node.ts';
import type { RateLimit } from '../errors/codes.ts';
import { overBurst, overLimit, type CrucibleError } from '../errors/crucible-error.ts';
import { ipBucketOf } from '../http/ip-bucket.ts';
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

  return {
    takeRate(caller, scope, computeUnits, clientIp, prepaid = 0) {
      if (computeUnits <= 0) return null;
      const take = (key: string, rate: ComputeUnitRate, limit: RateLimit) => takeFrom(key, computeUnits, prepaid, rate, limit);
      if (caller.kind === 'demo') {
        const client = ipBucketOf(clientIp, options.ipv6PrefixLength);
        const { perClient, perNetwork } = demo;
        return andThen(
          take(`demo:${scope}:${client}`, perClient, { kind: 'demo-ip', computeUnitsPerSecond: perClient.computeUnitsPerSecond }),
          (refused) => refused ?? take(`demo-network:${scope}`, perNetwork, { kind: 'demo-network', computeUnitsPerSecond: perNetwork.computeUnitsPerSecond }),
        );
      }
      const { app } = caller;
      const own = { computeUnitsPerSecond: app.computeUnitsPerSecond, burst: app.computeUnitsPerSecond * APP_BURST_SECONDS };
      return andThen(take(`app:${app.id}`, own, { kind: 'app-rate', computeUnitsPerSecond: app.computeUnitsPerSecond }), (refused) =>
        // An app the CLI created without --owner is limited per app only.
        refused || app.ownerId === null
          ? refused
          : take(`account:${app.ownerId}`, account, { kind: 'account-rate', computeUnitsPerSecond: account.computeUnitsPerSecond }),
      );
    },

    countQuota(caller, computeUnits) {
      const perMonth = caller.kind === 'app' ? caller.app.monthlyComputeUnitQuota : null;
      if (caller.kind === 'demo' || perMonth === null || computeUnits <= 0) return null;
      const at = now();
      return andThen(options.quota.consume(`app:${caller.app.id}`, computeUnits, perMonth, monthOf(at)), (quota) =>
        quota.allowed ? null : overLimit({ kind: 'app-quota', computeUnitsPerMonth: perMonth }, retryAfterSeconds(quota.resetAt.getTime() - at)),
      );
    },
  };
}
