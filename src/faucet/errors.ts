import { CrucibleError } from '../errors/crucible-error.ts';
import { errorCodes, FAUCET_CODES, type FaucetCode } from '../errors/codes.ts';

// The faucet's statusCodes (docs/errors.md#faucet-error-body, docs/website.md#faucet-error-codes, docs/website.md#faucet-status): which operation answers each, and which the
// request alone decides. Their HTTP statuses, sentences and hints are rows of the one error table
// (src/errors/codes.ts); the HTTP edge answers a failure as the FaucetError from there
// (src/errors/faucet-body.ts), the OpenAPI document takes the statusCode enum and each
// operation's responses from here. It lives with the core, which answers these codes, so that
// the HTTP edge imports it and never the reverse.

export type FaucetOperation = 'send' | 'status';

const faucetOperations = {
  // Send (7.1), in the order the decision chain checks them. `requestOnly`: decided from the
  // request alone (send steps 1–3) by the HTTP layer; the service never answers it.
  invalid_request_body: { operations: ['send'], requestOnly: true },
  unsupported_faucet: { operations: ['send', 'status'] },
  missing_address: { operations: ['send'], requestOnly: true },
  invalid_address: { operations: ['send'] },
  missing_turnstile: { operations: ['send'], requestOnly: true },
  turnstile_failed: { operations: ['send'] },
  turnstile_unavailable: { operations: ['send'] },
  insufficient_mainnet_balance: { operations: ['send'] },
  insufficient_mainnet_activity: { operations: ['send'] },
  max_balance_exceeded: { operations: ['send'] },
  nonce_conflict: { operations: ['send'] },
  rate_limit_exceeded: { operations: ['send', 'status'] },
  faucet_request_failed: { operations: ['send'] },
  insufficient_faucet_balance: { operations: ['send'] },
  insufficient_faucet_balance_tx: { operations: ['send'] },
  // Status (7.2 leaves these codes open; unknown faucet ids reuse unsupported_faucet).
  invalid_transaction_hash: { operations: ['status'] },
  status_check_failed: { operations: ['status'] },
} as const satisfies Record<FaucetCode, { operations: readonly FaucetOperation[]; requestOnly?: true }>;

type FaucetOperations = typeof faucetOperations;
export type FaucetErrorCode = FaucetCode;
export const faucetErrorCodes = FAUCET_CODES as unknown as [FaucetErrorCode, ...FaucetErrorCode[]];

type AnsweredBy<Operation extends FaucetOperation> = {
  [Code in FaucetErrorCode]: Operation extends FaucetOperations[Code]['operations'][number] ? Code : never;
}[FaucetErrorCode];
type RequestOnlyCode = { [Code in FaucetErrorCode]: FaucetOperations[Code] extends { requestOnly: true } ? Code : never }[FaucetErrorCode];

/** statusCodes the service answers a send with; the request-only ones (steps 1–3) are the HTTP layer's. */
export type FaucetSendCode = Exclude<AnsweredBy<'send'>, RequestOnlyCode>;
/** statusCodes the service answers a status request with (7.2 leaves them open). */
export type FaucetStatusCode = Exclude<AnsweredBy<'status'>, RequestOnlyCode>;

/** A statusCode as the faucet knows it: its answer's HTTP status and words, and who answers it. */
export interface FaucetErrorRow {
  status: number;
  /** The body's `error`: the human-readable reason. */
  error: string;
  /** The body's `hint`: the next step (every validation failure has one, docs/website.md#faucet-error-codes). */
  hint?: string;
  /** The body's `message`: extra detail on unexpected-failure paths. */
  message?: string;
  operations: readonly FaucetOperation[];
  requestOnly?: true;
}

/** The codes an operation answers with, in the table's order (its OpenAPI responses). */
export const faucetErrorCodesOf = (operation: FaucetOperation): FaucetErrorCode[] =>
  faucetErrorCodes.filter((code) => (faucetOperations[code].operations as readonly FaucetOperation[]).includes(operation));

/** Which limit a `rate_limit_exceeded` is: the address's drip, the client network's drips, or its status polls. */
export type RateLimitKind = 'address' | 'network' | 'polls';

/** `rate_limit_exceeded` says which limit it is; the table's row is the per-address one. */
const rateLimitTexts: Record<Exclude<RateLimitKind, 'address'>, { error: string; hint: string }> = {
  network: {
    error: 'Too many drips from your network on this network recently.',
    hint: 'Try again after the time in resetAt; each network of addresses (an IP, or an IPv6 /64) has a drip allowance per window.',
  },
  polls: {
    error: 'Too many status requests from your network.',
    hint: 'Poll once every few seconds; try again after the time in resetAt.',
  },
};

/** What a failure adds to its row of the table, as the FaucetError body carries it (docs/errors.md#faucet-error-body). */
export interface FaucetErrorExtras {
  hint?: string;
  message?: string;
  supportedChains?: string[];
  resetAt?: string;
  details?: string;
  /** `rate_limit_exceeded`: which limit, for its sentence (default: the address's). */
  limit?: RateLimitKind;
}

/** The row a failure is answered from: the code's, with the sentence of its limit for `rate_limit_exceeded`. */
export function faucetErrorRow(code: FaucetErrorCode, limit: RateLimitKind = 'address'): FaucetErrorRow {
  const row: { status: number; message: string; hint?: string; detail?: string } = errorCodes[code];
  const words = code === 'rate_limit_exceeded' && limit !== 'address' ? rateLimitTexts[limit] : { error: row.message, hint: row.hint };
  return {
    status: row.status,
    error: words.error,
    ...(words.hint !== undefined && { hint: words.hint }),
    ...(row.detail !== undefined && { message: row.detail }),
    ...faucetOperations[code],
  };
}

/** A failure as the one error: its row's words unless it gives its own `message`/`hint`, and the extras it carries. */
export function faucetError(code: FaucetErrorCode, extras: FaucetErrorExtras & { cause?: unknown } = {}): CrucibleError {
  const row = faucetErrorRow(code, extras.limit);
  const members = {
    ...(extras.supportedChains && { supportedChains: extras.supportedChains }),
    ...(extras.resetAt && { resetAt: extras.resetAt }),
    ...(extras.details && { details: extras.details }),
  };
  return new CrucibleError(code, row.error, {
    ...((extras.hint ?? row.hint) !== undefined && { hint: extras.hint ?? row.hint }),
    ...((extras.message ?? row.message) !== undefined && { detail: extras.message ?? row.message }),
    ...(Object.keys(members).length > 0 && { members }),
    ...(extras.cause !== undefined && { cause: extras.cause }),
  });
}
