import { describe, expect, it } from 'vitest';
import { rpcFailure } from '../../../../src/node/rpc/errors.ts';
import {
  batchReply,
  bodyFailure,
  invalidItemFailure,
  NO_REPLY_STATUS,
  type ParsedRpcBody,
  parseRpcBody,
  type RpcItem,
  rpcError,
  rpcResponse,
  singleReply,
} from '../../../../src/node/rpc/jsonrpc.ts';
import { MAX_BATCH, MAX_BODY_BYTES } from '../../../../src/node/rpc/limits.ts';

const request = (fields: Record<string, unknown>) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [], ...fields });

function single(text: string): RpcItem {
  const parsed = parseRpcBody(text);
  if (parsed.kind !== 'single') throw new Error(`expected a single request, got ${parsed.kind}`);
  return parsed.item;
}

function invalidProblem(item: RpcItem): string {
  if (item.kind !== 'invalid') throw new Error(`expected an invalid item, got ${JSON.stringify(item)}`);
  return item.problem;
}

describe('parseRpcBody: the body as a whole (docs/json-rpc.md#requests)', () => {
  it('says parse-error for a body that is not JSON, and the failure is -32700 with 400', () => {
    for (const text of ['', '{', '{"jsonrpc":"2.0",}', 'eth_blockNumber', '\u0000']) expect(parseRpcBody(text)).toEqual({ kind: 'parse-error' });
    const failure = bodyFailure({ kind: 'parse-error' });
    expect(failure.httpStatus).toBe(400);
    expect(failure.error).toEqual({ code: -32700, message: expect.stringContaining('Parse error') });
  });

  it('refuses JSON that is neither an object nor an array', () => {
    for (const text of ['1', '"eth_blockNumber"', 'null', 'true']) {
      const parsed = parseRpcBody(text);
      expect(parsed).toEqual({ kind: 'invalid', problem: 'the body must be a request object or a batch array' });
    }
  });

  it('refuses an empty batch and one of more than 100 items as -32600 with 400, naming the problem', () => {
    const empty = parseRpcBody('[]');
    expect(empty).toEqual({ kind: 'invalid', problem: expect.stringContaining('empty') });
    const tooMany = parseRpcBody(JSON.stringify(Array.from({ length: MAX_BATCH + 1 }, (_, i) => JSON.parse(request({ id: i })))));
    expect(tooMany).toEqual({ kind: 'invalid', problem: 'the batch has 101 requests; the limit is 100' });
    const failure = bodyFailure(tooMany as Extract<ParsedRpcBody, { kind: 'invalid' }>);
    expect(failure).toMatchObject({ httpStatus: 400, error: { code: -32600, message: 'Invalid request: the batch has 101 requests; the limit is 100' } });
  });

  it('accepts a batch of exactly 100', () => {
    const parsed = parseRpcBody(JSON.stringify(Array.from({ length: 100 }, (_, i) => JSON.parse(request({ id: i })))));
    expect(parsed.kind).toBe('batch');
    expect(parsed.kind === 'batch' && parsed.items.every((item) => item.kind === 'call')).toBe(true);
  });

  it('exports the limits of docs/json-rpc.md#requests', () => {
    expect(MAX_BODY_BYTES).toBe(2_097_152);
    expect(MAX_BATCH).toBe(100);
  });
});

describe('parseRpcBody: one request', () => {
  it('reads a valid call with its id, method and params', () => {
    expect(single(request({ id: 7, method: 'eth_getBalance', params: ['0xabc', 'latest'] }))).toEqual({
      kind: 'call',
      id: 7,
      hasId: true,
      method: 'eth_getBalance',
      params: ['0xabc', 'latest'],
    });
  });

  it('refuses jsonrpc other than "2.0", echoing the id', () => {
    for (const jsonrpc of ['1.0', '2', 2, null]) {
      expect(single(request({ jsonrpc, id: 'a' }))).toEqual({ kind: 'invalid', id: 'a', problem: 'jsonrpc must be "2.0"' });
    }
    expect(invalidProblem(single(JSON.stringify({ id: 1, method: 'eth_blockNumber' })))).toBe('jsonrpc must be "2.0"');
  });

  it('refuses a missing, non-string or empty method, naming the field', () => {
    expect(invalidProblem(single(JSON.stringify({ jsonrpc: '2.0', id: 1, params: [] })))).toBe('method is missing');
    expect(invalidProblem(single(request({ method: 42 })))).toBe('method must be a string');
    expect(invalidProblem(single(request({ method: null })))).toBe('method must be a string');
    expect(invalidProblem(single(request({ method: '' })))).toBe('method must not be empty');
  });

  it('refuses params given by name (an object) or as a string: params must be a list', () => {
    for (const params of [{ address: '0xabc' }, 'latest', 5, true]) {
      expect(invalidProblem(single(request({ params })))).toMatch(/^params must be an array/);
    }
  });

  it('takes omitted or null params as an empty list', () => {
    expect(single(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }))).toMatchObject({ kind: 'call', params: [] });
    expect(single(request({ params: null }))).toMatchObject({ kind: 'call', params: [] });
  });

  it('accepts string, number and null ids and echoes them unchanged', () => {
    for (const id of ['abc', '', 0, -3, 1.5, 2 ** 53, null]) expect(single(request({ id }))).toMatchObject({ kind: 'call', id, hasId: true });
  });

  it('refuses other ids, answering them with id null', () => {
    for (const id of [true, {}, [1]]) {
      expect(single(request({ id }))).toEqual({ kind: 'invalid', id: null, problem: 'id must be a string, a number or null' });
    }
  });

  it('reads a request without id as a notification', () => {
    expect(single(JSON.stringify({ jsonrpc: '2.0', method: 'eth_blockNumber' }))).toEqual({
      kind: 'call',
      id: null,
      hasId: false,
      method: 'eth_blockNumber',
      params: [],
    });
  });
});

describe('answers', () => {
  const call = (id: number | null, hasId = true): RpcItem => ({ kind: 'call', id, hasId, method: 'eth_blockNumber', params: [] });

  it('builds the JSON-RPC 2.0 envelopes, echoing the id unchanged', () => {
    expect(rpcResponse('a', { blockNumber: '0x1' })).toEqual({ jsonrpc: '2.0', id: 'a', result: { blockNumber: '0x1' } });
    expect(rpcResponse(0, null)).toEqual({ jsonrpc: '2.0', id: 0, result: null });
    expect(rpcError(null, { code: -32600, message: 'Invalid request: method is missing' })).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Invalid request: method is missing' },
    });
  });

  it('answers a single success with 200 and the JSON-RPC envelope', () => {
    expect(singleReply(call(1), { result: '0x10' })).toEqual({ httpStatus: 200, body: { jsonrpc: '2.0', id: 1, result: '0x10' } });
  });

  it('answers a node error of a valid call with 200 and the node error unchanged', () => {
    const nodeError = { code: 3, message: 'execution reverted', data: '0x08c379a0' };
    expect(singleReply(call(2), { nodeError })).toEqual({ httpStatus: 200, body: { jsonrpc: '2.0', id: 2, error: nodeError } });
  });

  it('answers a single refusal with the status of its row', () => {
    const notFound = rpcFailure('method_not_found', { method: 'eth_sign', docsUrl: 'https://docs' });
    expect(singleReply(call(3), { failure: notFound })).toMatchObject({ httpStatus: 200, body: { id: 3, error: { code: -32601 } } });
    const invalid: RpcItem = { kind: 'invalid', id: 4, problem: 'jsonrpc must be "2.0"' };
    expect(singleReply(invalid, { failure: invalidItemFailure(invalid) })).toEqual({
      httpStatus: 400,
      body: { jsonrpc: '2.0', id: 4, error: { code: -32600, message: 'Invalid request: jsonrpc must be "2.0"' } },
    });
  });

  it('answers a single notification with nothing: 204 and no body', () => {
    expect(singleReply(call(null, false), { result: '0x1' })).toEqual({ httpStatus: NO_REPLY_STATUS, body: null });
    expect(NO_REPLY_STATUS).toBe(204);
  });

  it('answers a mixed batch in order, omitting notifications and answering invalid items', () => {
    const parsed = parseRpcBody(
      JSON.stringify([
        { jsonrpc: '2.0', id: 'first', method: 'eth_chainId' },
        { jsonrpc: '1.0', id: 'second', method: 'eth_chainId' },
        { jsonrpc: '2.0', method: 'eth_blockNumber' },
        42,
        { jsonrpc: '2.0', id: 5, method: 'eth_blockNumber', params: {} },
        { jsonrpc: '2.0', id: 6, method: 'eth_blockNumber' },
      ]),
    );
    if (parsed.kind !== 'batch') throw new Error('expected a batch');
    expect(parsed.items.map((item) => [item.kind, item.id])).toEqual([
      ['call', 'first'],
      ['invalid', 'second'],
      ['call', null],
      ['invalid', null],
      ['invalid', 5],
      ['call', 6],
    ]);
    const outcomes = parsed.items.map((item) => (item.kind === 'invalid' ? { failure: invalidItemFailure(item) } : { result: `0x${String(item.id)}` }));
    const reply = batchReply(parsed.items, outcomes);
    expect(reply.httpStatus).toBe(200);
    expect(reply.body).toEqual([
      { jsonrpc: '2.0', id: 'first', result: '0xfirst' },
      { jsonrpc: '2.0', id: 'second', error: { code: -32600, message: 'Invalid request: jsonrpc must be "2.0"' } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('must be a JSON object') } },
      { jsonrpc: '2.0', id: 5, error: { code: -32600, message: expect.stringContaining('params must be an array') } },
      { jsonrpc: '2.0', id: 6, result: '0x6' },
    ]);
  });

  it('answers a batch of only notifications with nothing: 204 and no body', () => {
    expect(batchReply([call(null, false), call(null, false)], [{ result: '0x1' }, { result: '0x2' }])).toEqual({ httpStatus: 204, body: null });
  });

  it('refuses a batch answer whose outcomes do not match its items', () => {
    expect(() => batchReply([call(1), call(2)], [{ result: '0x1' }])).toThrow(/2 items but 1 outcomes/);
  });
});
