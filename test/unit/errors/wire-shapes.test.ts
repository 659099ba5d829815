import { describe, expect, it } from 'vitest';
import { DashboardError } from '../../../src/api/schemas.ts';
import { ErrorBody } from '../../../src/api/schemas.ts';
import { DASHBOARD_CODES, ERROR_BODY_CODES, errorCodes, FAUCET_CODES, type ErrorCode } from '../../../src/errors/codes.ts';
import { CrucibleError, fail, overBurst, overLimit } from '../../../src/errors/crucible-error.ts';
import { errorBody, errorBodyResponse } from '../../../src/errors/error-body.ts';
import { faucetErrorBody } from '../../../src/errors/faucet-body.ts';
import { toRpcFailure } from '../../../src/errors/json-rpc.ts';
import { FaucetError } from '../../../src/faucet/bodies.ts';

// One error, three wire shapes (docs/errors.md): the same refusal written as the Error body, as a
// JSON-RPC error and as the legacy FaucetError, from one row of the one table.

const documentationUrl = 'https://crucible.dev/node/base-sepolia/openapi.json';

describe('the table', () => {
  it('gives every code a status, and every code a schema publishes is a row', () => {
    for (const code of Object.keys(errorCodes) as ErrorCode[]) expect(errorCodes[code].status, code).toBeGreaterThanOrEqual(200);
    for (const code of [...ERROR_BODY_CODES, ...DASHBOARD_CODES, ...FAUCET_CODES]) expect(Object.hasOwn(errorCodes, code), code).toBe(true);
  });

  it('answers a family the Error body publishes for every refusal that names one', () => {
    for (const [code, row] of Object.entries(errorCodes)) {
      if ('bodyCode' in row) expect(ERROR_BODY_CODES as readonly string[], code).toContain(row.bodyCode);
    }
  });
});

describe('a refusal of a keyed call', () => {
  it('is the same sentence over JSON-RPC (a phrase) and in the Error body (a sentence, answered as its family)', () => {
    const disabled = fail('app_disabled');
    expect(toRpcFailure(disabled)).toEqual({
      reason: 'app_disabled',
      httpStatus: 403,
      error: { code: -32600, message: 'Forbidden: this app is disabled; its owner can enable it in the dashboard' },
    });
    const body = errorBody(disabled, documentationUrl);
    expect(ErrorBody.parse(body)).toEqual(body);
    expect(body.error).toEqual({
      code: 'forbidden',
      message: 'Forbidden: this app is disabled; its owner can enable it in the dashboard.',
      hint: "Change the app's allowed networks or domains, or enable it, in the dashboard.",
      status: 403,
      documentation_url: documentationUrl,
    });
  });

  it('says where keys come from when the key is unknown', () => {
    const unknown = fail('invalid_api_key');
    expect(toRpcFailure(unknown).error.message).toBe('Invalid API key');
    expect(errorBody(unknown, documentationUrl).error).toMatchObject({
      code: 'unauthorized',
      message: 'Invalid API key.',
      hint: expect.stringMatching(/demo/),
    });
  });

  it('over a limit: JSON-RPC data names the limit, the Error body only says when, in Retry-After', async () => {
    const over = overLimit({ kind: 'app-rate', computeUnitsPerSecond: 330 }, 3);
    expect(toRpcFailure(over)).toMatchObject({ httpStatus: 429, error: { code: 429, data: { limit: 'app-rate', retryAfterSeconds: 3 } } });
    const response = errorBodyResponse(over, documentationUrl, { 'access-control-allow-origin': '*' });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('3');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const { error } = (await response.json()) as { error: Record<string, unknown> };
    expect(error).not.toHaveProperty('limit');
    expect(error.message).toBe("Too many requests: over this app's rate of 330 compute units per second; retry after 3 s.");
  });

  it('past a burst: a 400 that names the limit, the cost and the burst, with no Retry-After', () => {
    const tooLarge = overBurst({ kind: 'account-rate', computeUnitsPerSecond: 1000 }, 12_000, 10_000);
    expect(toRpcFailure(tooLarge)).toMatchObject({
      httpStatus: 400,
      error: { code: -32600, data: { limit: 'account-rate', computeUnits: 12_000, burst: 10_000 } },
    });
    const response = errorBodyResponse(tooLarge, documentationUrl);
    expect(response.status).toBe(400);
    expect(response.headers.get('retry-after')).toBeNull();
    expect(errorBody(tooLarge, documentationUrl).error).toMatchObject({
      code: 'bad_request',
      status: 400,
      message: expect.stringContaining("it costs 12000 compute units, more than the 10000 that the bucket this app's account shares among its apps holds"),
    });
  });
});

describe('the Error body', () => {
  it('takes the field at fault and the members a refusal carries, after its own fields', () => {
    const refused = new CrucibleError('limit_reached', 'This account has 20 webhooks.', {
      field: 'url',
      members: { limit: { name: 'webhooksPerAccount', max: 20 } },
    });
    expect(Object.keys(errorBody(refused, documentationUrl).error)).toEqual(['code', 'message', 'hint', 'status', 'documentation_url', 'field', 'limit']);
  });

  it('answers a dashboard code in the dashboard schema', () => {
    const body = errorBody(new CrucibleError('csrf_failed', 'The CSRF token is missing.'), 'https://crucible.dev/openapi.json');
    expect(DashboardError.parse(body)).toEqual(body);
  });

  it('sends Allow with a 405 only', () => {
    const response = errorBodyResponse(fail('method_not_allowed', { method: 'DELETE', path: '/x' }, { allow: ['GET', 'HEAD', 'OPTIONS'] }), documentationUrl);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(errorBodyResponse(new CrucibleError('bad_request', 'No.', { allow: ['GET'] }), documentationUrl).headers.get('allow')).toBeNull();
  });
});

describe('the FaucetError', () => {
  it('keeps its field order, its detail and its members, and no Retry-After', () => {
    const error = new CrucibleError('rate_limit_exceeded', undefined, { members: { resetAt: '2026-01-01T00:00:00.000Z' } });
    const body = faucetErrorBody(error);
    expect(FaucetError.parse(body)).toEqual(body);
    expect(Object.keys(body)).toEqual(['error', 'statusCode', 'hint', 'resetAt']);
    expect(faucetErrorBody(new CrucibleError('nonce_conflict'))).toEqual({
      error: 'The faucet wallet is busy with another transaction.',
      statusCode: 'nonce_conflict',
      message: 'Retry after a few seconds.',
    });
  });
});
