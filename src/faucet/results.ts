import type { Address, Hex } from 'viem';

// What the faucet service answers, as values (spec 2.2–2.4, 7.1, 7.2). A failure is a
// statusCode; the HTTP layer (src/api/faucet-handlers.ts) answers it from the one error table,
// src/api/faucet-errors.ts: HTTP status, `error`, and `hint`/`message` unless given here.

/** statusCodes the service can answer on send. Steps 1–3 (body, id, address, token) are the HTTP layer's. */
export type FaucetSendCode =
  | 'unsupported_faucet'
  | 'invalid_address'
  | 'turnstile_failed'
  | 'rate_limit_exceeded'
  | 'insufficient_mainnet_balance'
  | 'insufficient_mainnet_activity'
  | 'max_balance_exceeded'
  | 'insufficient_faucet_balance'
  | 'insufficient_faucet_balance_tx'
  | 'nonce_conflict'
  | 'faucet_request_failed';

/** statusCodes the service can answer on status (7.2 leaves them open). */
export type FaucetStatusCode = 'unsupported_faucet' | 'invalid_transaction_hash' | 'rate_limit_exceeded' | 'status_check_failed';

/** Which limit a `rate_limit_exceeded` is: the address's drip, the client network's drips, or its status polls. */
export type RateLimitKind = 'address' | 'network' | 'polls';

export interface FaucetFailure<Code extends string> {
  ok: false;
  statusCode: Code;
  /** `turnstile_failed`: Cloudflare's error codes. */
  details?: string;
  /** `rate_limit_exceeded`: when the limit lifts (ISO 8601). */
  resetAt?: string;
  /** `rate_limit_exceeded`: which limit; the HTTP layer says so in the body. */
  limit?: RateLimitKind;
  /** `unsupported_faucet`: the faucet ids. */
  supportedChains?: string[];
  /** Replaces the table's `message` where this path knows more (a deprecated network). */
  message?: string;
  /** Replaces the table's `hint` where this path knows more (which network to use instead). */
  hint?: string;
  /** For the server log only, never for the body. */
  cause?: unknown;
}

/** 2.2 */
export interface FaucetSendSuccess {
  success: true;
  transactionHash: Hex;
  /** In the native unit, as in the network file (e.g. "0.1"). */
  amount: string;
  recipient: Address;
  explorerUrl?: string;
  statusCode: 'success';
}

/** 2.4 */
export type FaucetTransactionStatus =
  | { status: 'pending'; success: true; transactionHash: Hex; chainId: number; chainName: string }
  | { status: 'success' | 'failed'; mined: true; transactionHash: Hex; chainId: number; chainName: string; explorerUrl?: string };

export type FaucetSendResult = { ok: true; body: FaucetSendSuccess } | FaucetFailure<FaucetSendCode>;
export type FaucetStatusResult = { ok: true; body: FaucetTransactionStatus } | FaucetFailure<FaucetStatusCode>;

export function failure<Code extends FaucetSendCode | FaucetStatusCode>(
  statusCode: Code,
  extras: Omit<FaucetFailure<Code>, 'ok' | 'statusCode'> = {},
): FaucetFailure<Code> {
  return { ok: false, statusCode, ...extras };
}
