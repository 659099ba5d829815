import { BufferedResponse } from '../api/buffered-response.ts';
import { jsonType } from '../http/media.ts';
import { errorCodes, type ErrorRow, type FaucetCode } from './codes.ts';
import type { CrucibleError } from './crucible-error.ts';

// The legacy FaucetError (docs/errors.md#faucet-error-body), stable beside the Error body:
// `{ error, statusCode, hint?, message?, supportedChains?, resetAt?, details? }`, never stored,
// and no Retry-After (the body's resetAt says when).

export interface FaucetErrorBody {
  error: string;
  statusCode?: FaucetCode;
  message?: string;
  hint?: string;
  supportedChains?: string[];
  resetAt?: string;
  details?: string;
}

export function faucetErrorBody(error: CrucibleError): FaucetErrorBody {
  const row: ErrorRow = errorCodes[error.code];
  const body: FaucetErrorBody = { error: error.message, statusCode: error.code as FaucetCode };
  const hint = error.hint ?? (typeof row.hint === 'string' ? row.hint : undefined);
  if (hint) body.hint = hint;
  const detail = error.detail ?? row.detail;
  if (detail) body.message = detail;
  return { ...body, ...(error.members as Pick<FaucetErrorBody, 'supportedChains' | 'resetAt' | 'details'> | undefined) };
}

export function faucetErrorResponse(error: CrucibleError): Response {
  return new BufferedResponse(JSON.stringify(faucetErrorBody(error)), {
    status: error.status,
    headers: { 'content-type': jsonType, 'cache-control': 'no-store' },
  });
}
