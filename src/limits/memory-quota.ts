import { checkConsume, checkSeed, type QuotaCounter, type QuotaDecision, type QuotaSeed } from './quota.ts';

// Monthly counts in this process's memory (one server process). A key's count starts from what
// `seed` says was already used this month (after a restart, the database's recorded usage),
// read once however many calls arrive together. Keys are apps, which operators create, so the
// map is as large as the number of active apps; a month's counts are dropped when a later month
// is first counted. A seed that fails fails the calls that waited for it and is asked again by
// the next call.

export function createMemoryQuotaCounter(seed: QuotaSeed): QuotaCounter {
  // month -> key -> units used, or the seed still being read.
  const months = new Map<string, Map<string, number | Promise<number>>>();

  function countsOf(month: string): Map<string, number | Promise<number>> {
    let counts = months.get(month);
    if (counts) return counts;
    counts = new Map();
    months.set(month, counts);
    for (const earlier of months.keys()) if (earlier < month) months.delete(earlier);
    return counts;
  }

  /** Counts `cost` on a count known to be `used`. */
  function decide(counts: Map<string, number | Promise<number>>, key: string, used: number, cost: number, limit: number, resetAt: Date): QuotaDecision {
    if (used + cost > limit) {
      counts.set(key, used);
      return { allowed: false, used, resetAt };
    }
    counts.set(key, used + cost);
    return { allowed: true, used: used + cost };
  }

  return {
    consume(key, cost, limit, month) {
      let resetAt: Date;
      try {
        resetAt = checkConsume(cost, limit, month);
      } catch (error) {
        return Promise.reject(error);
      }
      const counts = countsOf(month);
      let entry = counts.get(key);
      // The count is known: answered now, without a promise (the gateway's hot path).
      if (typeof entry === 'number') return decide(counts, key, entry, cost, limit, resetAt);
      if (entry === undefined) {
        const seeding = seed(key, month)
          .then((used) => checkSeed(key, month, used))
          .catch((error: unknown) => {
            if (counts.get(key) === seeding) counts.delete(key);
            throw error;
          });
        counts.set(key, seeding);
        entry = seeding;
      }
      return entry.then((seeded) => {
        // Calls that waited with this one may have counted first.
        const latest = counts.get(key);
        return decide(counts, key, typeof latest === 'number' ? latest : seeded, cost, limit, resetAt);
      });
    },
  };
}
