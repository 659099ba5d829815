import type { FaucetError, FaucetSendSuccess, FaucetTransactionStatus } from './bodies.ts';
import type { FaucetSendCode, FaucetStatusCode, RateLimitKind } from './errors.ts';

// What the faucet service answers, as values (spec 2.2–2.4, 7.1, 7.2): a body, or a failure
// whose statusCode the HTTP layer (src/api/faucet-handlers.ts) answers from the one error table
// (./errors.ts): HTTP status, `error`, and `hint`/`message` unless given here.

/** What a failure adds to its row of the table, as the FaucetError body carries it (spec 2.3). */
export type FaucetErrorExtras = Pick<FaucetError, 'details' | 'resetAt' | 'supportedChains' | 'message' | 'hint'> & {
  /** `rate_limit_exceeded`: which limit, for its sentence (default: the address's). */
  limit?: RateLimitKind;
};

export interface FaucetFailure<Code extends FaucetSendCode | FaucetStatusCode> extends FaucetErrorExtras {
  ok: false;
  statusCode: Code;
  /** For the server log only, never for the body. */
  cause?: unknown;
}

export type FaucetSendResult = { ok: true; body: FaucetSendSuccess } | FaucetFailure<FaucetSendCode>;
export type FaucetStatusResult = { ok: true; body: FaucetTransactionStatus } | FaucetFailure<FaucetStatusCode>;

export function failure<Code extends FaucetSendCode | FaucetStatusCode>(
  statusCode: Code,
  extras: Omit<FaucetFailure<Code>, 'ok' | 'statusCode'> = {},
): FaucetFailure<Code> {
  return { ok: false, statusCode, ...extras };
}
