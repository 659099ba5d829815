import { errorCodes, type ErrorCode, type MessageArgs, type RateLimit } from './codes.ts';

// The one typed error: a code of the table (./codes.ts), its HTTP status, the sentence that says
// what went wrong, and what else its answer carries. Handlers throw it, refusals return it as a
// value; ./error-body.ts, ./json-rpc.ts and ./faucet-body.ts write it as each wire shape.

/** A JSON value, as a JSON-RPC error's `data` may be. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export interface CrucibleErrorOptions {
  /** The next step, where the caller knows a better one than the row's. */
  hint?: string;
  /** The input at fault, by its (dotted) name: the Error body's `field`. */
  field?: string;
  /** What failed underneath: for the log, never for the answer. */
  cause?: unknown;
  /** When to come back: the Retry-After header, in whole seconds (src/limits/retry-after.ts). */
  retryAfterSeconds?: number;
  /** The JSON-RPC error's `data`. */
  data?: JsonValue;
  /** Members the Error body's `error` (a 409's `limit`) or the FaucetError (`supportedChains`, `resetAt`, `details`) carries besides its own. */
  members?: Record<string, JsonValue>;
  /** The FaucetError's `message`, where it is not the row's. */
  detail?: string;
  /** A 405's methods: its Allow header. */
  allow?: readonly string[];
}

export class CrucibleError extends Error {
  override name = 'CrucibleError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly hint?: string;
  readonly field?: string;
  readonly retryAfterSeconds?: number;
  readonly data?: JsonValue;
  readonly members?: Record<string, JsonValue>;
  readonly detail?: string;
  readonly allow?: readonly string[];

  /** `message`: one sentence, ending with a full stop; absent: the row's own. */
  constructor(code: ErrorCode, message?: string, options: CrucibleErrorOptions = {}) {
    const row = errorCodes[code];
    super(
      message ?? (typeof row.message === 'string' ? row.message : (row.message as () => string)()),
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.code = code;
    this.status = row.status;
    if (options.hint !== undefined) this.hint = options.hint;
    if (options.field !== undefined) this.field = options.field;
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
    if (options.data !== undefined) this.data = options.data;
    if (options.members !== undefined) this.members = options.members;
    if (options.detail !== undefined) this.detail = options.detail;
    if (options.allow !== undefined) this.allow = options.allow;
  }
}

/** An error of `code` in its row's own words, written from `args`. */
export function fail<C extends ErrorCode>(code: C, ...args: [...MessageArgs<C>, CrucibleErrorOptions?]): CrucibleError {
  const row = errorCodes[code];
  const message = typeof row.message === 'string' ? row.message : (row.message as (facts?: unknown) => string)(args[0]);
  const options = (typeof row.message === 'string' ? args[0] : args[1]) as CrucibleErrorOptions | undefined;
  return new CrucibleError(code, message, options);
}

/** A keyed call over one of its compute-unit limits: `data` names the limit for JSON-RPC clients. */
export function overLimit(limit: RateLimit, retryAfterSeconds: number): CrucibleError {
  return fail('rate_limited', { limit, retryAfterSeconds }, { retryAfterSeconds, data: { limit: limit.kind, retryAfterSeconds } });
}

/** A keyed call costing more than `limit`'s bucket holds (`burst`): refused for good, so without Retry-After. */
export function overBurst(limit: RateLimit, computeUnits: number, burst: number): CrucibleError {
  return fail('cost_exceeds_burst', { limit, computeUnits, burst }, { data: { limit: limit.kind, computeUnits, burst } });
}
