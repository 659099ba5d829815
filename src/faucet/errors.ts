// The FaucetError codes (spec 2.3, 7.1, 7.2) in one table: statusCode -> HTTP status -> error ->
// hint/message, and which operations answer each. The service's failures are typed from it,
// src/api/faucet-errors.ts renders its bodies, the OpenAPI document takes the statusCode enum and
// the responses of each operation from it, and the faucet page shows its sentences. It lives with
// the core, which answers these codes, so that the HTTP edge imports it and never the reverse.

export type FaucetOperation = 'send' | 'status';

export interface FaucetErrorRow {
  status: number;
  /** The body's `error`: the human-readable reason. */
  error: string;
  /** The body's `hint`: the next step (every validation failure has one, spec 7.1). */
  hint?: string;
  /** The body's `message`: extra detail on unexpected-failure paths. */
  message?: string;
  /** The operations that answer with this code (spec 4.1 send, 4.2 status). */
  operations: readonly FaucetOperation[];
  /** Decided from the request alone (send steps 1–3) by the HTTP layer; the service never answers it. */
  requestOnly?: true;
}

export const faucetErrors = {
  // Send (7.1), in the order the decision chain checks them.
  invalid_request_body: {
    status: 400,
    error: 'The request body is not a JSON object of the expected shape.',
    hint: 'Send Content-Type: application/json with {"address": "0x…", "turnstileToken": "…"}.',
    operations: ['send'],
    requestOnly: true,
  },
  unsupported_faucet: {
    status: 400,
    error: 'There is no faucet for this network.',
    hint: 'Use one of the faucet ids listed in supportedChains.',
    operations: ['send', 'status'],
  },
  missing_address: {
    status: 400,
    error: 'The recipient address is missing.',
    hint: 'Add "address": a 0x-prefixed address of 40 hexadecimal digits.',
    operations: ['send'],
    requestOnly: true,
  },
  invalid_address: {
    status: 400,
    error: 'The recipient address is not a valid address.',
    hint: 'An address is 0x followed by 40 hexadecimal digits, for example 0x71C7656EC7ab88b098defB751B7401B5f6d8976F.',
    operations: ['send'],
  },
  missing_turnstile: {
    status: 400,
    error: 'The CAPTCHA token is missing.',
    hint: 'Complete the check on the faucet page of this network and send its token as "turnstileToken".',
    operations: ['send'],
    requestOnly: true,
  },
  turnstile_failed: {
    status: 403,
    error: 'The CAPTCHA check was rejected.',
    hint: 'Complete the check again on the faucet page; each token can be used once.',
    operations: ['send'],
  },
  insufficient_mainnet_balance: {
    status: 403,
    error: 'The address holds too little on mainnet to use this faucet.',
    hint: 'Fund the address on the matching mainnet, then try again.',
    operations: ['send'],
  },
  insufficient_mainnet_activity: {
    status: 403,
    error: 'The address has too little mainnet activity to use this faucet.',
    hint: 'Use an address with a transaction history on the matching mainnet.',
    operations: ['send'],
  },
  max_balance_exceeded: {
    status: 403,
    error: 'The address already holds more than this faucet tops up to.',
    hint: 'Spend from the balance you have, or request for another address.',
    operations: ['send'],
  },
  nonce_conflict: {
    status: 409,
    error: 'The faucet wallet is busy with another transaction.',
    message: 'Retry after a few seconds.',
    operations: ['send'],
  },
  rate_limit_exceeded: {
    status: 429,
    error: 'This address has already received a drip on this network recently.',
    hint: 'Try again after the time in resetAt.',
    operations: ['send', 'status'],
  },
  faucet_request_failed: {
    status: 500,
    error: 'The faucet could not send the transaction.',
    message: 'This is retryable: try again in a moment.',
    operations: ['send'],
  },
  insufficient_faucet_balance: {
    status: 503,
    error: 'The faucet wallet for this network is out of funds.',
    hint: 'Try a different network; this is not something the caller can fix.',
    operations: ['send'],
  },
  insufficient_faucet_balance_tx: {
    status: 503,
    error: 'The network rejected the transaction because the faucet wallet cannot pay for it.',
    hint: 'Try a different network; this is not something the caller can fix.',
    operations: ['send'],
  },
  // Status (7.2 leaves these codes open; unknown faucet ids reuse unsupported_faucet).
  invalid_transaction_hash: {
    status: 400,
    error: 'The transaction hash is missing or malformed.',
    hint: 'Pass ?transactionHash= with the 0x-prefixed 64-hex-digit hash the send returned.',
    operations: ['status'],
  },
  status_check_failed: {
    status: 500,
    error: 'The transaction status could not be read from the network.',
    message: 'This is retryable: poll again in a moment.',
    operations: ['status'],
  },
} as const satisfies Record<string, FaucetErrorRow>;

type FaucetErrorTable = typeof faucetErrors;
export type FaucetErrorCode = keyof FaucetErrorTable;
export const faucetErrorCodes = Object.keys(faucetErrors) as [FaucetErrorCode, ...FaucetErrorCode[]];

type AnsweredBy<Operation extends FaucetOperation> = {
  [Code in FaucetErrorCode]: Operation extends FaucetErrorTable[Code]['operations'][number] ? Code : never;
}[FaucetErrorCode];
type RequestOnlyCode = { [Code in FaucetErrorCode]: FaucetErrorTable[Code] extends { requestOnly: true } ? Code : never }[FaucetErrorCode];

/** statusCodes the service answers a send with; the request-only ones (steps 1–3) are the HTTP layer's. */
export type FaucetSendCode = Exclude<AnsweredBy<'send'>, RequestOnlyCode>;
/** statusCodes the service answers a status request with (7.2 leaves them open). */
export type FaucetStatusCode = Exclude<AnsweredBy<'status'>, RequestOnlyCode>;

const rows: Record<FaucetErrorCode, FaucetErrorRow> = faucetErrors;
/** The codes an operation answers with, in the table's order (its OpenAPI responses). */
export const faucetErrorCodesOf = (operation: FaucetOperation): FaucetErrorCode[] =>
  faucetErrorCodes.filter((code) => rows[code].operations.includes(operation));

/** Which limit a `rate_limit_exceeded` is: the address's drip, the client network's drips, or its status polls. */
export type RateLimitKind = 'address' | 'network' | 'polls';

/** `rate_limit_exceeded` says which limit it is; the table's row is the per-address one. */
const rateLimitTexts: Record<RateLimitKind, Pick<FaucetErrorRow, 'error' | 'hint'>> = {
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

/** The row a failure is answered from: the code's, with the sentence of its limit for `rate_limit_exceeded`. */
export function faucetErrorRow(code: FaucetErrorCode, limit: RateLimitKind = 'address'): FaucetErrorRow {
  return code === 'rate_limit_exceeded' ? { ...rows[code], ...rateLimitTexts[limit] } : rows[code];
}
