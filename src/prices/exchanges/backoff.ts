// When an exchange may be asked again (docs/prices.md#sources: exchange sources "with timeouts and backoff"):
// after a call that found the host unwell, the host is left alone for a while that doubles with each
// failure in a row, from `initialMs` to `maxMs`, and at least as long as its Retry-After asked. A
// healthy answer forgets the failures.

export interface BackoffPolicy {
  /** The wait after the first failure. */
  initialMs: number;
  /** The longest wait, however many failures. */
  maxMs: number;
}

/** 30 s after a first failure, doubling to 30 min. */
export const DEFAULT_BACKOFF: BackoffPolicy = { initialMs: 30_000, maxMs: 30 * 60_000 };

export interface HostBackoff {
  /** When the host may be asked again, or null when it may be asked now. */
  until(host: string, now: number): number | null;
  /** Records a failure at `now`; `atLeastMs` is what the host asked for (Retry-After). Returns when the backoff ends. */
  failed(host: string, now: number, atLeastMs?: number | null): number;
  /** Records a healthy answer: the next failure waits `initialMs` again. */
  succeeded(host: string): void;
}

export function createHostBackoff(policy: BackoffPolicy = DEFAULT_BACKOFF): HostBackoff {
  if (!(policy.initialMs > 0 && policy.maxMs >= policy.initialMs)) throw new RangeError('backoff: need 0 < initialMs <= maxMs');
  const hosts = new Map<string, { failures: number; until: number }>();
  return {
    until(host, now) {
      const state = hosts.get(host);
      return state !== undefined && state.until > now ? state.until : null;
    },
    failed(host, now, atLeastMs) {
      const failures = (hosts.get(host)?.failures ?? 0) + 1;
      // 2^(failures − 1) · initial, capped before it can overflow.
      const wait = Math.min(policy.initialMs * 2 ** Math.min(failures - 1, 40), policy.maxMs);
      const until = now + Math.max(wait, atLeastMs ?? 0);
      hosts.set(host, { failures, until });
      return until;
    },
    succeeded(host) {
      hosts.delete(host);
    },
  };
}
