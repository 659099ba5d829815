import { jsonType } from '../http/media.ts';
import { BufferedResponse } from './buffered-response.ts';

// The structured Error of spec 2.5: one table (code -> HTTP status -> message -> hint) read by
// the router, every handler and the OpenAPI document.

export interface ErrorDetails {
  method?: string;
  path?: string;
  /** Methods the path accepts (405). */
  allow?: string[];
  /** What exactly was wrong with the request: the message of 400, 401, 403, 429 and 503. */
  problem?: string;
  /** The next step, where the caller knows a better one than the row's. */
  hint?: string;
  /** When to come back (429): the Retry-After header, in seconds. */
  retryAfterSeconds?: number;
  documentationUrl: string;
}

interface ErrorRow {
  status: number;
  message(details: ErrorDetails): string;
  hint(details: ErrorDetails): string;
}

export const apiErrors = {
  not_found: {
    status: 404,
    message: (d) => (d.method && d.path ? `No API operation matches ${d.method} ${d.path}.` : 'No API operation matches this request.'),
    hint: (d) => `The operations this API offers are listed in ${d.documentationUrl}.`,
  },
  method_not_allowed: {
    status: 405,
    message: (d) => `${d.path ?? 'This path'} does not accept ${d.method ?? 'this method'}.`,
    hint: (d) => `Use ${formatList(d.allow ?? [])}, as the Allow header says; see ${d.documentationUrl}.`,
  },
  bad_request: {
    status: 400,
    message: (d) => d.problem ?? 'The request could not be understood.',
    hint: (d) => `Check the parameters and body against ${d.documentationUrl}.`,
  },
  internal_error: {
    status: 500,
    message: () => 'The server failed while answering this request.',
    hint: () => 'Retry in a moment; if it keeps failing, report the X-Request-Id response header to the Crucible team.',
  },
  // The refusals of keyed and token-authenticated calls (platform §2, §5, §6).
  unauthorized: {
    status: 401,
    message: (d) => d.problem ?? 'This call needs a credential it did not carry, or carried one that is unknown or revoked.',
    hint: (d) => `See which credential each operation takes in ${d.documentationUrl}.`,
  },
  forbidden: {
    status: 403,
    message: (d) => d.problem ?? 'This credential may not make this call.',
    hint: () => "Change the app's allowed networks or domains, or enable it, in the dashboard.",
  },
  // An account at one of its caps (webhooks per account): the body's `limit` names it.
  limit_reached: {
    status: 409,
    message: (d) => d.problem ?? 'This account has as many of these as one account may have.',
    hint: () => 'Delete one you no longer need to make room, or ask the operator to raise the limit (`limit.name`).',
  },
  rate_limited: {
    status: 429,
    message: (d) => d.problem ?? 'Too many calls: this credential is over its rate or quota.',
    hint: () => 'Wait the seconds the Retry-After header gives, or raise the app’s limits.',
  },
  upstream_unavailable: {
    status: 503,
    message: (d) => d.problem ?? 'No node of this network answered.',
    hint: () => 'Retry in a few seconds.',
  },
} as const satisfies Record<string, ErrorRow>;

export type ApiErrorCode = keyof typeof apiErrors;
export const apiErrorCodes = Object.keys(apiErrors) as [ApiErrorCode, ...ApiErrorCode[]];

export interface ApiErrorBody {
  error: { code: ApiErrorCode; message: string; hint: string; status: number; documentation_url: string };
}

export function documentationUrlOf(origin: string): string {
  return new URL('/openapi.json', origin).href;
}

export function apiErrorBody(code: ApiErrorCode, details: ErrorDetails): ApiErrorBody {
  const row: ErrorRow = apiErrors[code];
  return {
    error: {
      code,
      message: row.message(details),
      hint: details.hint ?? row.hint(details),
      status: row.status,
      documentation_url: details.documentationUrl,
    },
  };
}

/** The Error response: JSON body, never cached, `Allow` on 405, `Retry-After` when the details say when. */
export function apiErrorResponse(code: ApiErrorCode, details: ErrorDetails): Response {
  const body = apiErrorBody(code, details);
  const headers: Record<string, string> = { 'content-type': jsonType, 'cache-control': 'no-store' };
  if (code === 'method_not_allowed' && details.allow) headers.allow = details.allow.join(', ');
  if (details.retryAfterSeconds !== undefined) headers['retry-after'] = String(details.retryAfterSeconds);
  return new BufferedResponse(JSON.stringify(body), { status: body.error.status, headers });
}

function formatList(items: string[]): string {
  if (items.length <= 1) return items[0] ?? 'another method';
  return `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}
