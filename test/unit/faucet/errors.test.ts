import { describe, expect, expectTypeOf, it } from 'vitest';
import { faucetErrorCodes, faucetErrorCodesOf, faucetErrorRow, type FaucetSendCode, type FaucetStatusCode } from '../../../src/faucet/errors.ts';

describe('FaucetError table (docs/website.md#faucet-error-codes, docs/website.md#faucet-status)', () => {
  it('maps every 7.1 statusCode to its HTTP status', () => {
    expect(Object.fromEntries(faucetErrorCodesOf('send').map((code) => [code, faucetErrorRow(code).status]))).toEqual({
      invalid_request_body: 400,
      unsupported_faucet: 400,
      missing_address: 400,
      invalid_address: 400,
      missing_turnstile: 400,
      turnstile_failed: 403,
      turnstile_unavailable: 503,
      insufficient_mainnet_balance: 403,
      insufficient_mainnet_activity: 403,
      max_balance_exceeded: 403,
      nonce_conflict: 409,
      rate_limit_exceeded: 429,
      faucet_request_failed: 500,
      insufficient_faucet_balance: 503,
      insufficient_faucet_balance_tx: 503,
    });
    expect(Object.fromEntries(faucetErrorCodesOf('status').map((code) => [code, faucetErrorRow(code).status]))).toEqual({
      unsupported_faucet: 400,
      rate_limit_exceeded: 429,
      invalid_transaction_hash: 400,
      status_check_failed: 500,
    });
  });

  it('leaves to the HTTP layer only what the request alone decides (send steps 1–3)', () => {
    expect(faucetErrorCodes.filter((code) => faucetErrorRow(code).requestOnly)).toEqual(['invalid_request_body', 'missing_address', 'missing_turnstile']);
  });

  it('gives every 400 a hint (docs/website.md#faucet-error-codes)', () => {
    for (const code of faucetErrorCodes) if (faucetErrorRow(code).status === 400) expect(faucetErrorRow(code).hint, code).toBeTruthy();
  });
});

describe('statusCodes the service answers', () => {
  it('are the rows of their operation that the request alone does not decide', () => {
    expectTypeOf<FaucetStatusCode>().toEqualTypeOf<'unsupported_faucet' | 'rate_limit_exceeded' | 'invalid_transaction_hash' | 'status_check_failed'>();
    expectTypeOf<FaucetSendCode>().toEqualTypeOf<
      | 'unsupported_faucet'
      | 'invalid_address'
      | 'turnstile_failed'
      | 'turnstile_unavailable'
      | 'insufficient_mainnet_balance'
      | 'insufficient_mainnet_activity'
      | 'max_balance_exceeded'
      | 'nonce_conflict'
      | 'rate_limit_exceeded'
      | 'faucet_request_failed'
      | 'insufficient_faucet_balance'
      | 'insufficient_faucet_balance_tx'
    >();
  });
});
