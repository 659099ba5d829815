import { describe, expect, it } from 'vitest';
import { apiErrorBody, apiErrorCodes, apiErrorResponse, apiErrors } from '../../../src/api/errors.ts';
import { faucetErrorBody, faucetErrorCodes, faucetErrors, faucetSendErrorCodes, faucetStatusErrorCodes } from '../../../src/api/faucet-errors.ts';
import { ErrorBody, FaucetError } from '../../../src/api/schemas.ts';

const documentationUrl = 'https://crucible.dev/openapi.json';

describe('Error table (spec 2.5)', () => {
  it('has exactly the four codes with their statuses', () => {
    expect(Object.fromEntries(apiErrorCodes.map((code) => [code, apiErrors[code].status]))).toEqual({
      not_found: 404,
      method_not_allowed: 405,
      bad_request: 400,
      internal_error: 500,
    });
  });

  it.each(apiErrorCodes)('%s builds a body matching the schema, with message, hint, status and documentation_url', (code) => {
    const body = apiErrorBody(code, { method: 'GET', path: '/api/x', allow: ['GET', 'HEAD'], documentationUrl });
    expect(ErrorBody.parse(body)).toEqual(body);
    expect(body.error.status).toBe(apiErrors[code].status);
    expect(body.error.message).toMatch(/\.$/);
    expect(body.error.hint.length).toBeGreaterThan(10);
    expect(body.error.documentation_url).toBe(documentationUrl);
  });

  it('405 responses carry Allow', async () => {
    const response = apiErrorResponse('method_not_allowed', { method: 'POST', path: '/api/ip', allow: ['GET', 'HEAD'], documentationUrl });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect((await response.json()).error.hint).toContain('GET or HEAD');
  });
});

describe('FaucetError table (spec 7.1, 7.2)', () => {
  it('maps every 7.1 statusCode to its HTTP status', () => {
    expect(Object.fromEntries(faucetSendErrorCodes.map((code) => [code, faucetErrors[code].status]))).toEqual({
      invalid_request_body: 400,
      unsupported_faucet: 400,
      missing_address: 400,
      invalid_address: 400,
      missing_turnstile: 400,
      turnstile_failed: 403,
      insufficient_mainnet_balance: 403,
      insufficient_mainnet_activity: 403,
      max_balance_exceeded: 403,
      nonce_conflict: 409,
      rate_limit_exceeded: 429,
      faucet_request_failed: 500,
      insufficient_faucet_balance: 503,
      insufficient_faucet_balance_tx: 503,
    });
    expect(faucetStatusErrorCodes.map((code) => faucetErrors[code].status)).toEqual([400, 400, 429, 500]);
  });

  it('gives every 400 a hint (spec 7.1) and every body the FaucetError shape', () => {
    for (const code of faucetErrorCodes) {
      const row = faucetErrors[code] as { status: number; hint?: string };
      if (row.status === 400) expect(row.hint, code).toBeTruthy();
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
});
