import { BufferedResponse } from '../api/buffered-response.ts';
import { jsonType } from '../http/media.ts';
import { errorCodes, errorRow, type ErrorCode, type ErrorRow } from './codes.ts';
import type { CrucibleError, JsonValue } from './crucible-error.ts';

// The Error body (docs/errors.md#error-body), the one wire shape of the site API, the keyed REST
// products, the webhook API and the dashboard: `{ error: { code, message, hint, status,
// documentation_url, field?, …members } }`, never stored, with Allow on a 405 and Retry-After
// when the error says when.

export interface ErrorBody {
  error: { code: string; message: string; hint: string; status: number; documentation_url: string; field?: string; [member: string]: JsonValue | undefined };
}

/** The body of `error`; `documentationUrl` is where the surface that answers is described. */
export function errorBody(error: CrucibleError, documentationUrl: string): ErrorBody {
  const row: ErrorRow = errorCodes[error.code];
  const code = (row.bodyCode ?? error.code) as ErrorCode;
  // A refusal that answers as its family takes the family's next step unless it has its own.
  const hint = row.hint ?? errorRow(code).hint;
  return {
    error: {
      code,
      message: error.message,
      hint: error.hint ?? (typeof hint === 'function' ? hint({ documentationUrl, allow: error.allow }) : (hint ?? '')),
      status: error.status,
      documentation_url: documentationUrl,
      ...(error.field !== undefined && { field: error.field }),
      ...error.members,
    },
  };
}

/** The headers every Error body answer carries. */
function errorHeaders(error: CrucibleError): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': jsonType, 'cache-control': 'no-store' };
  if (error.allow && error.status === 405) headers.allow = error.allow.join(', ');
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  return headers;
}

/** The Error response of `error`; `headers` adds to its own (CORS, Set-Cookie are added by their owners). */
export function errorBodyResponse(error: CrucibleError, documentationUrl: string, headers: Record<string, string> = {}): Response {
  return new BufferedResponse(JSON.stringify(errorBody(error, documentationUrl)), { status: error.status, headers: { ...errorHeaders(error), ...headers } });
}
