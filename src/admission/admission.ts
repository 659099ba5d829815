import type { CrucibleError } from '../errors/crucible-error.ts';
import { fail } from '../errors/crucible-error.ts';
import { andThen, type Awaitable } from '../limits/awaitable.ts';
import type { QuotaCounter } from '../limits/quota.ts';
import type { RateLimiter } from '../limits/rate-limiter.ts';
import { createCallerLimits, type CallerLimits, type CallerLimitSettings } from './caller-limits.ts';
import { accessFailure, type Caller, type KeyLookup } from './callers.ts';

// The one admission step of every call behind an app key (docs/keys-and-limits.md#admission-order),
// JSON-RPC and REST alike: who the key names, whether that app may call this network from this
// origin, the compute units taken from the caller's buckets and monthly quota, and the call metered
// per app, network (or product) and method. The JSON-RPC gateway (src/node/gateway.ts) and the
// keyed REST door (src/rest/door.ts) are its only users.

/**
 * Metered calls (src/apps/ aggregates them per minute for the dashboard): one, or `calls` alike
 * (notifications charged together), `computeUnits` being their sum.
 */
export interface UsageRecorder {
  record(entry: { appId: string; network: string; method: string; computeUnits: number; errorCode?: number | null; calls?: number }): void;
}

/** Calls carried out, as metrics count them (the demo key's too): one, or `calls` alike, `computeUnits` being their sum. */
type CallObserver = (call: { network: string; method: string; computeUnits: number; errorCode: number | null; calls?: number }) => void;

export interface AdmissionOptions extends CallerLimitSettings {
  keys: KeyLookup;
  rateLimiter: RateLimiter;
  quota: QuotaCounter;
  usage: UsageRecorder;
  observeCall?: CallObserver;
  now?: () => number;
}

type Identified = { ok: true; caller: Caller } | { ok: false; error: CrucibleError };

export interface Admission {
  /**
   * Who `key` names, and whether they may call `network` (null: a product of no network, such as prices) from `origin`.
   * At once for a key the lookup remembers; this and the charges below answer without a promise when
   * everything they read is in this process's memory, so the gateway's hot path takes no microtask for them.
   */
  identify(key: string, request: { network: string | null; origin: string | null }): Awaitable<Identified>;
  /**
   * Takes `computeUnits` from each rate bucket the caller draws on in `scope` (a network, or a
   * product such as `prices`): the refusal of the first that is short, or null. `prepaid`: what
   * the same request paid before (its least charge), so a refusal names the request's whole cost.
   */
  takeRate(caller: Caller, scope: string, computeUnits: number, clientIp: string | null, prepaid?: number): Awaitable<CrucibleError | null>;
  /** Counts `computeUnits` against an app's monthly quota; a refusal counts nothing. */
  countQuota(caller: Caller, computeUnits: number): Awaitable<CrucibleError | null>;
  /** The rate, then the quota, for one call of `computeUnits` (a REST operation, a subscription kept open). */
  charge(caller: Caller, scope: string, computeUnits: number, clientIp: string | null): Awaitable<CrucibleError | null>;
  /**
   * The rate, then the quota, for `count` calls of `computeUnits` each taken together (a
   * notification to many subscribers), as that many charges one after another: how many fit,
   * which are the first ones; the others take nothing from the quota.
   */
  chargeEach: CallerLimits['chargeEach'];
  /** Names a charge of `caller` in `scope` by what it draws on and its scope: charges with the same name may be taken together (chargeEach). */
  payerOf: CallerLimits['payerOf'];
  /**
   * Records a call carried out, or `calls` alike (default 1), each of `computeUnits`: `errorCode`
   * is the JSON-RPC code, or the HTTP status of a REST answer other than 200.
   */
  meter(caller: Caller, scope: string, method: string, computeUnits: number, errorCode: number | null, calls?: number): void;
}

/** How logs name a caller: its app id, or `demo` (keys stay out of logs). */
export function callerLabel(caller: Caller): string {
  return caller.kind === 'app' ? caller.app.id : 'demo';
}

export function createAdmission(options: AdmissionOptions): Admission {
  const limits = createCallerLimits(options);
  const { takeRate, countQuota, chargeEach, payerOf } = limits;
  return {
    identify(key, request) {
      return andThen(key ? options.keys.find(key) : null, (caller): Identified => {
        if (!caller) return { ok: false, error: fail('invalid_api_key') };
        const denied = caller.kind === 'app' ? accessFailure(caller.app, request.network, request.origin) : null;
        return denied ? { ok: false, error: denied } : { ok: true, caller };
      });
    },
    takeRate,
    countQuota,
    charge: (caller, scope, computeUnits, clientIp) =>
      andThen(takeRate(caller, scope, computeUnits, clientIp), (refused) => refused ?? countQuota(caller, computeUnits)),
    chargeEach,
    payerOf,
    meter(caller, scope, method, computeUnits, errorCode, calls = 1) {
      // A record of one call (every call but a batch of notifications) names no count.
      if (calls === 1) {
        options.observeCall?.({ network: scope, method, computeUnits, errorCode });
        if (caller.kind === 'app') options.usage.record({ appId: caller.app.id, network: scope, method, computeUnits, errorCode });
        return;
      }
      const total = computeUnits * calls;
      options.observeCall?.({ network: scope, method, computeUnits: total, errorCode, calls });
      if (caller.kind === 'app') options.usage.record({ appId: caller.app.id, network: scope, method, computeUnits: total, errorCode, calls });
    },
  };
}
