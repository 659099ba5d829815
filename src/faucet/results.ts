import type { FaucetSendSuccess, FaucetTransactionStatus } from './bodies.ts';
import type { FaucetErrorExtras, FaucetSendCode, FaucetStatusCode } from './errors.ts';

// What the faucet service answers, as values (docs/website.md#faucet-send, docs/website.md#faucet-status, docs/errors.md#faucet-error-body): a body, or a failure
// whose statusCode the HTTP layer (src/faucet/api/handlers.ts) answers from the one error table
// (src/errors/codes.ts, through ./errors.ts): HTTP status, `error`, and `hint`/`message` unless given here.

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
