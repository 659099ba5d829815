import { LRUCache } from 'lru-cache';
import { isHostAllowed } from '../apps/domains.ts';
import { fail, type CrucibleError } from '../errors/crucible-error.ts';
import type { Awaitable } from '../limits/awaitable.ts';

// Who may call (docs/keys-and-limits.md): the key names an app (or is the public demo key); the app
// must be active, allowed on the network, and — when it lists domains — called from a listed origin.

/** What admission needs of an app (src/apps/ holds the rest). */
export interface KeyedApp {
  id: string;
  /** The owning account, whose bucket the app's calls also draw from; null: an app the CLI created without --owner. */
  ownerId: string | null;
  state: 'active' | 'disabled';
  allowedDomains: readonly string[];
  allowedNetworks: readonly string[];
  computeUnitsPerSecond: number;
  monthlyComputeUnitQuota: number | null;
}

export type Caller = { kind: 'app'; app: KeyedApp } | { kind: 'demo' };

export interface KeyLookup {
  /** The caller a key names, or null for an unknown key: at once when it is remembered. */
  find(key: string): Awaitable<Caller | null>;
}

/**
 * Keys looked up in the app store, remembered for `ttlMs` (unknown keys too, so a flood of made-up
 * keys does not reach the database). A rotated or disabled key therefore stops working within
 * `ttlMs` in every process; the process that made the change forgets the key at once (`forget`).
 */
export function createKeyLookup(options: {
  findApp(key: string): Promise<KeyedApp | null>;
  isDemoKey(key: string): boolean;
  ttlMs?: number;
  maxKeys?: number;
}): KeyLookup & { forgetAll(): void } {
  const known = new LRUCache<string, { caller: Caller | null }>({ max: options.maxKeys ?? 10_000, ttl: options.ttlMs ?? 1_000 });
  const pending = new Map<string, Promise<Caller | null>>();
  return {
    find(key) {
      if (options.isDemoKey(key)) return DEMO;
      const cached = known.get(key);
      if (cached) return cached.caller;
      // Concurrent first requests with one key share one database read.
      let lookup = pending.get(key);
      if (!lookup) {
        lookup = options
          .findApp(key)
          .then((app): Caller | null => (app ? { kind: 'app', app } : null))
          .then((caller) => {
            known.set(key, { caller });
            return caller;
          })
          .finally(() => pending.delete(key));
        pending.set(key, lookup);
      }
      return lookup;
    },
    forgetAll: () => known.clear(),
  };
}

/** The demo key's caller: one for every request. */
const DEMO: Caller = Object.freeze({ kind: 'demo' });

/** Why an app may not make this call, or null. `origin` is the request's Origin header; `network` null: a call of no network (prices). */
export function accessFailure(app: KeyedApp, network: string | null, origin: string | null): CrucibleError | null {
  if (app.state !== 'active') return fail('app_disabled');
  if (network !== null && app.allowedNetworks.length > 0 && !app.allowedNetworks.includes(network)) return fail('network_not_allowed', { network });
  if (origin !== null && app.allowedDomains.length > 0 && !isHostAllowed(URL.parse(origin)?.hostname ?? '', app.allowedDomains))
    return fail('origin_not_allowed', { origin });
  return null;
}
