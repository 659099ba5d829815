import { jsonType } from '../../integrations/surface/manifest.ts';
import type { RateLimitKind } from '../faucet/results.ts';
import { BufferedResponse } from './buffered-response.ts';

// FaucetError codes (spec 2.3, 7.1, 7.2): statusCode -> HTTP status -> error -> hint/message.
// The faucet service answers from this table, its page renders these sentences, and the
// OpenAPI document takes the statusCode enum from it.

interface FaucetErrorRow {
  status: number;
  /** The body's `error`: the human-readable reason. */
  error: string;
  /** The body's `hint`: the next step (every validation failure has one, spec 7.1). */
  hint?: string;
  /** The body's `message`: extra detail on unexpected-failure paths. */
  message?: string;
}

export const faucetErrors = {
  // Send (7.1), in the order the decision chain checks them.
  invalid_request_body: {
    status: 400,
    error: 'The request body is not a JSON object of the expected shape.',
    hint: 'Send Content-Type: application/json with {"address": "0x…", "turnstileToken": "…"}.',
  },
  unsupported_faucet: {
    status: 400,
    error: 'There is no faucet for this network.',
    hint: 'Use one of the faucet ids listed in supportedChains.',
  },
  missing_address: {
    status: 400,
    error: 'The recipient address is missing.',
    hint: 'Add "address": a 0x-prefixed address of 40 hexadecimal digits.',
  },
  invalid_address: {
    status: 400,
    error: 'The recipient address is not a valid address.',
    hint: 'An address is 0x followed by 40 hexadecimal digits, for example 0x71C7656EC7ab88b098defB751B7401B5f6d8976F.',
  },
  missing_turnstile: {
    status: 400,
    error: 'The CAPTCHA token is missing.',
    hint: 'Complete the check on the faucet page of this network and send its token as "turnstileToken".',
  },
  turnstile_failed: {
    status: 403,
    error: 'The CAPTCHA check was rejected.',
    hint: 'Complete the check again on the faucet page; each token can be used once.',
  },
  insufficient_mainnet_balance: {
    status: 403,
    error: 'The address holds too little on mainnet to use this faucet.',
    hint: 'Fund the address on the matching mainnet, then try again.',
  },
  insufficient_mainnet_activity: {
    status: 403,
    error: 'The address has too little mainnet activity to use this faucet.',
    hint: 'Use an address with a transaction history on the matching mainnet.',
  },
  max_balance_exceeded: {
    status: 403,
    error: 'The address already holds more than this faucet tops up to.',
    hint: 'Spend from the balance you have, or request for another address.',
  },
  nonce_conflict: {
    status: 409,
    error: 'The faucet wallet is busy with another transaction.',
    message: 'Retry after a few seconds.',
  },
  rate_limit_exceeded: {
    status: 429,
    error: 'This address has already received a drip on this network recently.',
    hint: 'Try again after the time in resetAt.',
  },
  faucet_request_failed: {
    status: 500,
    error: 'The faucet could not send the transaction.',
    message: 'This is retryable: try again in a moment.',
  },
  insufficient_faucet_balance: {
    status: 503,
    error: 'The faucet wallet for this network is out of funds.',
    hint: 'Try a different network; this is not something the caller can fix.',
  },
  insufficient_faucet_balance_tx: {
    status: 503,
    error: 'The network rejected the transaction because the faucet wallet cannot pay for it.',
    hint: 'Try a different network; this is not something the caller can fix.',
  },
  // Status (7.2 leaves these codes open; unknown faucet ids reuse unsupported_faucet).
  invalid_transaction_hash: {
    status: 400,
    error: 'The transaction hash is missing or malformed.',
    hint: 'Pass ?transactionHash= with the 0x-prefixed 64-hex-digit hash the send returned.',
  },
  status_check_failed: {
    status: 500,
    error: 'The transaction status could not be read from the network.',
    message: 'This is retryable: poll again in a moment.',
  },
} as const satisfies Record<string, FaucetErrorRow>;

export type FaucetErrorCode = keyof typeof faucetErrors;

/** `rate_limit_exceeded` says which limit it is; the table's row is the per-address one. */
const rateLimitTexts: Record<RateLimitKind, { error: string; hint: string }> = {
  address: faucetErrors.rate_limit_exceeded,
  network: {
    error: 'Too many drips from your network on this network recently.',
    hint: 'Try again after the time in resetAt; each network of addresses (an IP, or an IPv6 /64) has a drip allowance per window.',
  },
  polls: {
    error: 'Too many status requests from your network.',
    hint: 'Poll once every few seconds; try again after the time in resetAt.',
  },
};
export const faucetErrorCodes = Object.keys(faucetErrors) as [FaucetErrorCode, ...FaucetErrorCode[]];

/** Codes the status operation (4.2) answers with; every code but the status-only ones belongs to the send (4.1). */
export const faucetStatusErrorCodes = ['unsupported_faucet', 'invalid_transaction_hash', 'rate_limit_exceeded', 'status_check_failed'] as const satisfies readonly FaucetErrorCode[];
const statusOnlyCodes: readonly FaucetErrorCode[] = ['invalid_transaction_hash', 'status_check_failed'];
export const faucetSendErrorCodes = faucetErrorCodes.filter((code) => !statusOnlyCodes.includes(code));

/** Fields a FaucetError carries beyond the table's text (spec 2.3). */
export interface FaucetErrorExtras {
  supportedChains?: string[];
  resetAt?: string;
  /** `rate_limit_exceeded`: which limit, for its sentence (default: the address's). */
  limit?: RateLimitKind;
  details?: string;
  /** Replaces the table's `message` where a path knows more (never internals). */
  message?: string;
  /** Replaces the table's `hint` where a path knows more (a deprecated network: which one to use). */
  hint?: string;
}

export interface FaucetErrorBody extends FaucetErrorExtras {
  error: string;
  statusCode: FaucetErrorCode;
}

export function faucetErrorBody(code: FaucetErrorCode, extras: FaucetErrorExtras = {}): FaucetErrorBody {
  const row: FaucetErrorRow = code === 'rate_limit_exceeded' ? { ...faucetErrors[code], ...rateLimitTexts[extras.limit ?? 'address'] } : faucetErrors[code];
  const body: FaucetErrorBody = { error: row.error, statusCode: code };
  const hint = extras.hint ?? row.hint;
  if (hint) body.hint = hint;
  const message = extras.message ?? row.message;
  if (message) body.message = message;
  if (extras.supportedChains) body.supportedChains = extras.supportedChains;
  if (extras.resetAt) body.resetAt = extras.resetAt;
  if (extras.details) body.details = extras.details;
  return body;
}

export function faucetErrorResponse(code: FaucetErrorCode, extras: FaucetErrorExtras = {}): Response {
  return new BufferedResponse(JSON.stringify(faucetErrorBody(code, extras)), {
    status: faucetErrors[code].status,
    headers: { 'content-type': jsonType, 'cache-control': 'no-store' },
  });
}
