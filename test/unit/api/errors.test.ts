import { describe, expect, it } from 'vitest';
import { ErrorBody } from '../../../src/api/schemas.ts';
import { ERROR_BODY_CODES as apiErrorCodes, errorCodes as apiErrors } from '../../../src/errors/codes.ts';
import { CrucibleError, fail } from '../../../src/errors/crucible-error.ts';
import { errorBody, errorBodyResponse } from '../../../src/errors/error-body.ts';
import { faucetErrorBody as faucetBodyOf } from '../../../src/errors/faucet-body.ts';
import { FaucetError } from '../../../src/faucet/bodies.ts';
import { faucetError, faucetErrorCodes, type FaucetErrorExtras } from '../../../src/faucet/errors.ts';

const documentationUrl = 'https://crucible.dev/openapi.json';
const faucetErrorBody = (code: (typeof faucetErrorCodes)[number], extras: FaucetErrorExtras = {}) => faucetBodyOf(faucetError(code, extras));

describe('Error table (docs/errors.md#error-body)', () => {
  it('has the four site codes, the four refusals of keyed calls and an account’s cap, with their statuses', () => {
    expect(Object.fromEntries(apiErrorCodes.map((code) => [code, apiErrors[code].status]))).toEqual({
      not_found: 404,
      method_not_allowed: 405,
      bad_request: 400,
      internal_error: 500,
      unauthorized: 401,
      forbidden: 403,
      limit_reached: 409,
      rate_limited: 429,
      upstream_unavailable: 503,
    });
  });

  it('takes the caller’s sentence and next step where it knows them better', () => {
    const body = errorBody(new CrucibleError('unauthorized', 'The key is unknown.', { hint: 'Create an app.' }), documentationUrl);
    expect(body.error).toMatchObject({ code: 'unauthorized', status: 401, message: 'The key is unknown.', hint: 'Create an app.' });
  });

  it.each(apiErrorCodes)('%s builds a body matching the schema, with message, hint, status and documentation_url', (code) => {
    const body = errorBody(new CrucibleError(code, undefined, { allow: ['GET', 'HEAD'] }), documentationUrl);
    expect(ErrorBody.parse(body)).toEqual(body);
    expect(body.error.status).toBe(apiErrors[code].status);
    expect(body.error.message).toMatch(/\.$/);
    expect(body.error.hint.length).toBeGreaterThan(10);
    expect(body.error.documentation_url).toBe(documentationUrl);
  });

  it('405 responses carry Allow', async () => {
    const response = errorBodyResponse(fail('method_not_allowed', { method: 'POST', path: '/api/ip' }, { allow: ['GET', 'HEAD'] }), documentationUrl);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect((await response.json()).error.hint).toContain('GET or HEAD');
  });
});

describe('FaucetError bodies (docs/errors.md#faucet-error-body)', () => {
  it('gives every code the FaucetError shape, from its row of the table', () => {
    for (const code of faucetErrorCodes) {
      const body = faucetErrorBody(code, code === 'rate_limit_exceeded' ? { resetAt: '2026-01-01T00:00:00Z' } : {});
      expect(FaucetError.parse(body)).toEqual(body);
      expect(body.statusCode).toBe(code);
    }
  });

  it('adds the extras a code carries', () => {
    expect(faucetErrorBody('unsupported_faucet', { supportedChains: ['a', 'b'] }).supportedChains).toEqual(['a', 'b']);
    expect(faucetErrorBody('turnstile_failed', { details: 'timeout-or-duplicate' }).details).toBe('timeout-or-duplicate');
    expect(faucetErrorBody('faucet_request_failed').message).toMatch(/retry/i);
  });

  it('says which limit a rate_limit_exceeded is', () => {
    expect(faucetErrorBody('rate_limit_exceeded').error).toMatch(/this address/i);
    expect(faucetErrorBody('rate_limit_exceeded', { limit: 'network' }).error).toMatch(/from your network/i);
    expect(faucetErrorBody('rate_limit_exceeded', { limit: 'polls' }).error).toMatch(/status requests/i);
  });
});
