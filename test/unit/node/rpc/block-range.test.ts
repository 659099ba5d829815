import { describe, expect, it } from 'vitest';
import { MAX_LOGS_FILTER_ADDRESSES, MAX_LOGS_FILTER_TOPICS } from '../../../../src/node/rpc/limits.ts';
import { blockRangeOf, headTags, logsFilterRange, MAX_LOGS_BLOCK_RANGE } from '../../../../src/node/rpc/block-range.ts';
import type { LogFilter } from '../../../../src/node/rpc/schemas/requests.ts';
import { findRpcMethod, rpcRegistry } from '../../../../src/node/rpc/registry.ts';
import { blockRangeFailure, validateCall } from '../../../../src/node/rpc/validate.ts';

const logsBlockRange = (filter: LogFilter, head: Parameters<typeof blockRangeOf>[2]) => blockRangeOf(logsFilterRange, filter, head);
const logsHeadTags = (filter: LogFilter) => headTags(logsFilterRange, filter);

const head = { latest: 20_000n, safe: 19_968n, finalized: 19_936n };
const hash = `0x${'c3'.repeat(32)}`;
const getLogs = findRpcMethod('eth_getLogs')!;

describe('logsBlockRange', () => {
  it('measures numeric ranges without a head, both ends counted', () => {
    expect(logsBlockRange({ fromBlock: '0x0', toBlock: '0x0' }, null)).toEqual({ kind: 'range', from: 0n, to: 0n, blocks: 1n });
    expect(logsBlockRange({ fromBlock: '0x64', toBlock: '0xc8' }, null)).toEqual({ kind: 'range', from: 100n, to: 200n, blocks: 101n });
    expect(logsBlockRange({ fromBlock: 'earliest', toBlock: '0x9' }, null)).toEqual({ kind: 'range', from: 0n, to: 9n, blocks: 10n });
  });

  it('counts a reversed range as no blocks (the node answers it)', () => {
    expect(logsBlockRange({ fromBlock: '0xc8', toBlock: '0x64' }, null)).toMatchObject({ kind: 'range', blocks: 0n });
  });

  it('says which tags need the head when none is given, defaulting both ends to latest', () => {
    expect(logsBlockRange({}, null)).toEqual({ kind: 'needs-head', tags: ['latest', 'latest'] });
    expect(logsBlockRange({ fromBlock: '0x1' }, null)).toEqual({ kind: 'needs-head', tags: ['latest'] });
    expect(logsBlockRange({ fromBlock: 'earliest', toBlock: 'safe' }, null)).toEqual({ kind: 'needs-head', tags: ['safe'] });
  });

  it('resolves tags against the head: latest, safe, finalized, and pending one past latest', () => {
    expect(logsBlockRange({ fromBlock: '0x1' }, head)).toEqual({ kind: 'range', from: 1n, to: 20_000n, blocks: 20_000n });
    expect(logsBlockRange({ fromBlock: 'finalized', toBlock: 'latest' }, head)).toMatchObject({ blocks: 65n });
    expect(logsBlockRange({ fromBlock: 'safe', toBlock: 'pending' }, head)).toEqual({ kind: 'range', from: 19_968n, to: 20_001n, blocks: 34n });
    expect(logsBlockRange({ fromBlock: 'earliest', toBlock: 'safe' }, head)).toEqual({ kind: 'range', from: 0n, to: 19_968n, blocks: 19_969n });
    expect(logsBlockRange({ fromBlock: 'earliest', toBlock: 'finalized' }, head)).toMatchObject({ blocks: 19_937n });
  });

  it('measures safe and finalized the node does not name to their bounds: genesis as a start, the head as an end', () => {
    const latestOnly = { latest: 20_000n };
    expect(logsBlockRange({ fromBlock: 'earliest', toBlock: 'safe' }, latestOnly)).toMatchObject({ from: 0n, to: 20_000n });
    expect(logsBlockRange({ fromBlock: 'finalized', toBlock: 'latest' }, latestOnly)).toMatchObject({ from: 0n, to: 20_000n });
    expect(logsBlockRange({ fromBlock: 'finalized', toBlock: 'safe' }, { latest: 10n })).toMatchObject({ from: 0n, to: 10n, blocks: 11n });
  });

  it('treats a block-hash filter as one block, with no tags to resolve', () => {
    expect(logsBlockRange({ blockHash: hash }, null)).toEqual({ kind: 'block-hash' });
    expect(logsHeadTags({ blockHash: hash })).toEqual([]);
  });

  it('lists the tags a filter needs the head for: an omitted end is latest, numbers and earliest need none', () => {
    expect(logsHeadTags({})).toEqual(['latest', 'latest']);
    expect(logsHeadTags({ fromBlock: 'earliest', toBlock: '0x10' })).toEqual([]);
    expect(logsHeadTags({ fromBlock: 'finalized', toBlock: 'pending' })).toEqual(['finalized', 'pending']);
  });
});

describe('the block-range limit of log filters (docs/json-rpc.md#eth_getlogs-range-limit)', () => {
  const options = { docsUrl: 'https://crucible.test/rpc', transport: 'http' as const };

  it('is 10,000 blocks', () => {
    expect(MAX_LOGS_BLOCK_RANGE).toBe(10_000);
  });

  it('refuses a numeric range over the limit at validation with -32602 naming the limit', () => {
    const ok = validateCall({ method: 'eth_getLogs', params: [{ fromBlock: '0x1', toBlock: '0x2710' }] }, options);
    expect(ok.ok).toBe(true);
    const over = validateCall({ method: 'eth_getLogs', params: [{ fromBlock: '0x0', toBlock: '0x2710' }] }, options);
    expect(over).toEqual({
      ok: false,
      failure: {
        reason: 'invalid_params',
        httpStatus: 200,
        error: { code: -32602, message: 'invalid params: [0] filter spans 10001 blocks; eth_getLogs is limited to 10000 blocks per call (split the range)' },
      },
    });
  });

  it('lets the gateway refuse a tag range over the limit once it knows the head', () => {
    const params = [{ fromBlock: 'earliest' }];
    expect(validateCall({ method: 'eth_getLogs', params }, options).ok).toBe(true);
    expect(blockRangeFailure(getLogs, params, head)?.error).toEqual({
      code: -32602,
      message: 'invalid params: [0] filter spans 20001 blocks; eth_getLogs is limited to 10000 blocks per call (split the range)',
    });
    expect(blockRangeFailure(getLogs, [{ fromBlock: '0x2711' }], head)).toBeNull();
    expect(blockRangeFailure(getLogs, [{ fromBlock: 'earliest', toBlock: 'safe' }], head)?.error.message).toMatch(/spans 19969 blocks/);
    expect(blockRangeFailure(getLogs, [{ blockHash: hash }], head)).toBeNull();
  });

  it('applies to eth_newFilter alike, at validation and with the head, and besides them only to trace_filter', () => {
    const newFilter = findRpcMethod('eth_newFilter')!;
    const over = validateCall({ method: 'eth_newFilter', params: [{ fromBlock: '0x0', toBlock: '0x2710' }] }, options);
    expect(over.ok || over.failure.error).toEqual({
      code: -32602,
      message: 'invalid params: [0] filter spans 10001 blocks; eth_newFilter is limited to 10000 blocks per filter (split the range)',
    });
    expect(blockRangeFailure(newFilter, [{ fromBlock: 'earliest', toBlock: 'finalized' }], head)?.error.message).toBe(
      'invalid params: [0] filter spans 19937 blocks; eth_newFilter is limited to 10000 blocks per filter (split the range)',
    );
    expect(blockRangeFailure(newFilter, [{ fromBlock: 'finalized' }], head)).toBeNull();
    const limited = rpcRegistry.methods.filter((method) => method.blockRange !== undefined).map((method) => method.name);
    expect(limited).toEqual(['eth_getLogs', 'eth_newFilter', 'trace_filter']);
  });
});

describe('address and topic lists of a log filter', () => {
  const options = { docsUrl: 'https://crucible.test/rpc', transport: 'websocket' as const };
  const addresses = (count: number) => Array.from({ length: count }, (_, i) => `0x${i.toString(16).padStart(40, '0')}`);
  const topics = (count: number) => Array.from({ length: count }, (_, i) => `0x${i.toString(16).padStart(64, '0')}`);
  const message = (method: string, params: unknown[]) => {
    const checked = validateCall({ method, params }, options);
    return checked.ok ? 'accepted' : checked.failure.error.message;
  };

  it('are capped at 1,000 addresses and 1,000 topics per position', () => {
    expect([MAX_LOGS_FILTER_ADDRESSES, MAX_LOGS_FILTER_TOPICS]).toEqual([1_000, 1_000]);
  });

  it.each(['eth_getLogs', 'eth_newFilter'])('%s: one address or topic over the cap is -32602 naming the field and the limit', (method) => {
    expect(message(method, [{ blockHash: hash, address: addresses(1_000), topics: [topics(1_000), null, topics(1_000)] }])).toBe('accepted');
    expect(message(method, [{ blockHash: hash, address: addresses(1_001) }])).toBe(
      'invalid params: [0] filter.address has 1001 addresses; a filter may name at most 1000',
    );
    expect(message(method, [{ blockHash: hash, topics: [null, null, topics(1_001)] }])).toBe(
      'invalid params: [0] filter.topics[2] has 1001 topics; a topic position may list at most 1000',
    );
  });

  it('applies to logs subscriptions too', () => {
    expect(message('eth_subscribe', ['logs', { address: addresses(1_000) }])).toBe('accepted');
    expect(message('eth_subscribe', ['logs', { address: addresses(1_001) }])).toBe(
      'invalid params: [1] options.address has 1001 addresses; a filter may name at most 1000',
    );
    expect(message('eth_subscribe', ['logs', { topics: [topics(1_001)] }])).toBe(
      'invalid params: [1] options.topics[0] has 1001 topics; a topic position may list at most 1000',
    );
  });
});
