import { jsonType } from '../http/media.ts';
import { BufferedResponse } from './buffered-response.ts';
import { errorCodes, type ErrorBodyCode } from '../errors/codes.ts';
import type { ResponseSpec } from './operation.ts';
import { ErrorBody } from './schemas.ts';

export function jsonResponse(data: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return new BufferedResponse(JSON.stringify(data), {
    status: init.status ?? 200,
    headers: { 'content-type': jsonType, ...init.headers },
  });
}

/** OpenAPI response entry for an Error (docs/errors.md#error-body) answer. */
export function errorResponseSpec(code: ErrorBodyCode, when: string): ResponseSpec {
  return { description: `\`${code}\` (${errorCodes[code].status}): ${when}`, content: { 'application/json': ErrorBody } };
}
