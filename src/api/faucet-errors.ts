import { jsonType } from '../http/media.ts';
import type { FaucetError } from '../faucet/bodies.ts';
import { faucetErrorRow, faucetErrors, type FaucetErrorCode } from '../faucet/errors.ts';
import type { FaucetErrorExtras } from '../faucet/results.ts';
import { BufferedResponse } from './buffered-response.ts';

// FaucetError bodies and responses (spec 2.3) rendered from the one error table
// (src/faucet/errors.ts): its text, unless a failure gives its own `message`/`hint`, and the
// extras the failure carries.

export function faucetErrorBody(code: FaucetErrorCode, extras: FaucetErrorExtras = {}): FaucetError {
  const row = faucetErrorRow(code, extras.limit);
  const body: FaucetError = { error: row.error, statusCode: code };
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
