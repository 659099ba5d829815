import { describe, expect, it } from 'vitest';
import { rpcErrors, rpcFailure } from '../../../../src/node/rpc/errors.ts';

describe('the gateway error table (docs/errors.md#json-rpc-errors)', () => {
  it('gives each row of the table its JSON-RPC code and the HTTP status of a single request', () => {
    const rows = Object.fromEntries(Object.entries(rpcErrors).map(([reason, row]) => [reason, [row.code, row.httpStatus]]));
    expect(rows).toEqual({
      parse_error: [-32700, 400],
      invalid_request: [-32600, 400],
      method_not_found: [-32601, 200],
      websocket_only: [-32601, 200],
      not_served: [-32601, 200],
      invalid_params: [-32602, 200],
      invalid_api_key: [-32600, 401],
      app_disabled: [-32600, 403],
      network_not_allowed: [-32600, 403],
      origin_not_allowed: [-32600, 403],
      rate_limited: [429, 429],
      cost_exceeds_burst: [-32600, 400],
      body_too_large: [-32600, 413],
      no_healthy_upstream: [-32603, 503],
      index_unavailable: [-32603, 503],
      too_many_subscriptions: [-32005, 200],
      too_many_connections: [429, 429],
      too_many_topics: [-32005, 200],
    });
  });

  it('words each message as the table says', () => {
    expect(rpcFailure('parse_error').error.message).toMatch(/^Parse error/);
    expect(rpcFailure('invalid_request', { problem: 'method is missing' }).error.message).toBe('Invalid request: method is missing');
    expect(rpcFailure('method_not_found', { method: 'debug_traceTransaction', docsUrl: 'https://crucible.dev/rpc/ethereum-sepolia/' }).error.message).toBe(
      'Unsupported method: debug_traceTransaction. See https://crucible.dev/rpc/ethereum-sepolia/',
    );
    expect(rpcFailure('invalid_params', { detail: '[0] address is required' }).error.message).toBe('invalid params: [0] address is required');
    expect(rpcFailure('invalid_api_key').error.message).toBe('Invalid API key');
  });

  it('says how many WebSocket connections and topics a key may hold, and per what', () => {
    expect(rpcFailure('too_many_connections', { max: 50, per: 'app' }).error.message).toMatch(/this app may hold 50 WebSocket connections at once; close one/);
    expect(rpcFailure('too_many_connections', { max: 5, per: 'client IP' }).error.message).toMatch(
      /demo key may hold 5 WebSocket connections at once per client IP/,
    );
    expect(rpcFailure('too_many_topics', { max: 200 }).error.message).toMatch(/200 distinct subscriptions/);
  });

  it('says which of the three 403s it is', () => {
    expect(rpcFailure('app_disabled').error.message).toMatch(/app is disabled/);
    expect(rpcFailure('network_not_allowed', { network: 'base-sepolia' }).error.message).toMatch(/not allowed on network base-sepolia/);
    expect(rpcFailure('origin_not_allowed', { origin: 'https://evil.example' }).error.message).toMatch(
      /origin https:\/\/evil\.example is not in this app's allowed domains/,
    );
  });

  it('says which limit a 429 is, and when to retry', () => {
    const limits = [
      [{ kind: 'app-rate', computeUnitsPerSecond: 330 }, /330 compute units per second/],
      [{ kind: 'app-quota', computeUnitsPerMonth: 300_000_000 }, /monthly quota of 300000000 compute units/],
      [{ kind: 'account-rate', computeUnitsPerSecond: 1000 }, /this app's account's rate of 1000 compute units per second, shared by its apps/],
      [{ kind: 'demo-ip', computeUnitsPerSecond: 200 }, /demo key's 200 compute units per second per client IP/],
      [{ kind: 'demo-network', computeUnitsPerSecond: 10000 }, /demo key's 10000 compute units per second on this network/],
    ] as const;
    for (const [limit, text] of limits) {
      const failure = rpcFailure('rate_limited', { limit, retryAfterSeconds: 3 });
      expect(failure).toMatchObject({ httpStatus: 429, error: { code: 429, data: { limit: limit.kind, retryAfterSeconds: 3 } } });
      expect(failure.error.message).toMatch(text);
      expect(failure.error.message).toMatch(/retry after 3 s/);
    }
  });

  it('gives the body limit in a 413 and retry advice in a 503', () => {
    expect(rpcFailure('body_too_large').error.message).toMatch(/2 MiB \(2097152 bytes\)/);
    expect(rpcFailure('no_healthy_upstream', { network: 'ink-sepolia' })).toMatchObject({
      httpStatus: 503,
      error: { code: -32603, message: expect.stringMatching(/ink-sepolia.*retry in a few seconds/) },
    });
  });

  it('caps subscriptions at 100 per connection', () => {
    expect(rpcFailure('too_many_subscriptions').error.message).toMatch(/may hold 100/);
  });
});
