import { BlockedAddressError } from './guarded-lookup.ts';

// Why an outbound request got no answer its caller takes: one type for every client of src/net/.
// Callers map `kind` (and `status`, `code`) to their own answers: an NFT's `raw.error`, a webhook
// delivery's `lastError`, a price source's failure, an upstream's health.

export type OutboundErrorKind =
  /** The URL, or a redirect's, is not http(s). */
  | 'unsupported_scheme'
  /** The host is, or resolves only to, addresses the policy blocks (`address`: the first). */
  | 'blocked_address'
  /** The deadline passed before the answer, or all of its body, came. */
  | 'timeout'
  /** The body is larger than the cap, as declared or as read. */
  | 'too_large'
  | 'too_many_redirects'
  /** A redirect whose Location is not a URL (`status`). */
  | 'bad_redirect'
  /** A status the caller does not take (`status`, `headers`); its body was not read. */
  | 'status'
  /** A body in a Content-Encoding other than identity, which is all the layer asks for. */
  | 'encoding'
  /** No answer: the name not found, the connection refused, reset or closed, TLS refused (`code`). */
  | 'unreachable';

export class OutboundError extends Error {
  override name = 'OutboundError';
  readonly kind: OutboundErrorKind;
  /** The HTTP status (`status`, `bad_redirect`). */
  readonly status: number | undefined;
  /** The answer's headers (`status`), lowercase names. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>> | undefined;
  /** The system's or TLS's error code (`unreachable`), as node:http reports it: ECONNREFUSED, ECONNRESET, DEPTH_ZERO_SELF_SIGNED_CERT. */
  readonly code: string | undefined;
  /** The address refused (`blocked_address`). */
  readonly address: string | undefined;
  /** Bytes the body may have (`too_large`). */
  readonly maxBytes: number | undefined;

  constructor(
    kind: OutboundErrorKind,
    message: string,
    details: {
      status?: number;
      headers?: Record<string, string | string[] | undefined>;
      code?: string;
      address?: string;
      maxBytes?: number;
      cause?: unknown;
    } = {},
  ) {
    super(message, { cause: details.cause });
    this.kind = kind;
    this.status = details.status;
    this.headers = details.headers;
    this.code = details.code;
    this.address = details.address;
    this.maxBytes = details.maxBytes;
  }
}

/** A status the caller does not take: `HTTP <status>`. */
export function statusError(status: number, headers: Record<string, string | string[] | undefined>): OutboundError {
  return new OutboundError('status', `HTTP ${status}`, { status, headers });
}

/** What a failed connection says in answers and logs, by its code. */
const UNREACHABLE_REASONS: Readonly<Record<string, string>> = {
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

/**
 * Undici's codes for what node:http called ECONNRESET: the other side closed the connection before the
 * answer ended. Callers keep the codes their answers have always shown (a delivery's `connection failed: ECONNRESET`).
 */
const NODE_CODES: Readonly<Record<string, string>> = { UND_ERR_SOCKET: 'ECONNRESET' };

/** The OutboundError for a request that failed on its connection (a BlockedAddressError from the guarded lookup included). */
export function connectionError(error: unknown): OutboundError {
  if (error instanceof OutboundError) return error;
  if (error instanceof BlockedAddressError) return new OutboundError('blocked_address', error.message, { address: error.address, cause: error });
  const raw = (error as NodeJS.ErrnoException | null)?.code;
  const code = raw === undefined ? undefined : (NODE_CODES[raw] ?? raw);
  const reason = (code && UNREACHABLE_REASONS[code]) ?? `connection failed: ${code ?? (error instanceof Error ? error.message : String(error))}`;
  return new OutboundError('unreachable', reason, { code, cause: error });
}
