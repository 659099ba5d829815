import { describe, expect, it } from 'vitest';
import { rpcFailure } from '../../../../src/node/rpc/errors.ts';
import { unpaidRefusal, withRequestIds } from '../../../../src/node/websocket/request-ids.ts';

// A whole-message refusal over a WebSocket must carry the ids the client waits on.

const limited = {
  jsonrpc: '2.0' as const,
  id: null,
  error: rpcFailure('rate_limited', { limit: { kind: 'app-rate', computeUnitsPerSecond: 1 }, retryAfterSeconds: 3 }).error,
};
const call = (id: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method: 'eth_blockNumber', params: [] });

describe('withRequestIds', () => {
  it('a rate-limited request gets its own id', () => {
    expect(withRequestIds(call(7), limited)).toEqual({ ...limited, id: 7 });
    expect(withRequestIds(call('a'), limited)).toEqual({ ...limited, id: 'a' });
  });

  it('a rate-limited batch gets the refusal once per request with an id, in order', () => {
    const batch = `[${call(1)},{"jsonrpc":"2.0","method":"eth_chainId"},${call('two')}]`;
    expect(withRequestIds(batch, limited)).toEqual([
      { ...limited, id: 1 },
      { ...limited, id: 'two' },
    ]);
  });

  it('a request costing more than its bucket holds gets its own id too: the refusal names the limit in data', () => {
    const tooLarge = {
      jsonrpc: '2.0' as const,
      id: null,
      error: rpcFailure('cost_exceeds_burst', { limit: { kind: 'app-rate', computeUnitsPerSecond: 1 }, computeUnits: 75, burst: 10 }).error,
    };
    expect(withRequestIds(call(4), tooLarge)).toEqual({ ...tooLarge, id: 4 });
  });

  it('leaves everything else as the gateway answered it', () => {
    const parse = { jsonrpc: '2.0' as const, id: null, error: rpcFailure('parse_error').error };
    expect(withRequestIds('{"jsonrpc": ', parse)).toBe(parse);
    const invalid = { jsonrpc: '2.0' as const, id: null, error: rpcFailure('invalid_request', { problem: 'the batch is empty' }).error };
    expect(withRequestIds('[]', invalid)).toBe(invalid);
    const answered = { jsonrpc: '2.0' as const, id: 3, result: '0x1' };
    expect(withRequestIds(call(3), answered)).toBe(answered);
    expect(withRequestIds(call(null), limited)).toBe(limited);
    const answers = [answered];
    expect(withRequestIds(`[${call(3)}]`, answers)).toBe(answers);
  });
});

describe('unpaidRefusal', () => {
  it('reads the ids of a short message refused before it was read', () => {
    expect(unpaidRefusal(call(7), limited.error, 64)).toEqual({ ...limited, id: 7 });
  });

  it('does not read a long or deeply nested one: the refusal goes out with id null', () => {
    const long = JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'eth_call', params: [{ data: `0x${'00'.repeat(4096)}` }, 'latest'] });
    expect(unpaidRefusal(long, limited.error, 64)).toEqual(limited);
    const deep = `[${'['.repeat(70)}${call(9)}${']'.repeat(70)}]`;
    expect(unpaidRefusal(deep, limited.error, 64)).toEqual(limited);
  });
});
