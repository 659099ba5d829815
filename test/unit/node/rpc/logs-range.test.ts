import { describe, expect, it } from 'vitest';
import { logsBlockRange, MAX_LOGS_BLOCK_RANGE } from '../../../../src/node/rpc/logs-range.ts';
import { findRpcMethod } from '../../../../src/node/rpc/registry.ts';
import { logsRangeFailure, validateCall } from '../../../../src/node/rpc/validate.ts';

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
    expect(logsBlockRange({ fromBlock: 'finalized', toBlock: 'safe' }, { latest: 10n })).toEqual({ kind: 'needs-head', tags: ['finalized', 'safe'] });
  });

  it('resolves tags against the head: latest, safe, finalized, and pending one past latest', () => {
    expect(logsBlockRange({ fromBlock: '0x1' }, head)).toEqual({ kind: 'range', from: 1n, to: 20_000n, blocks: 20_000n });
    expect(logsBlockRange({ fromBlock: 'finalized', toBlock: 'latest' }, head)).toMatchObject({ blocks: 65n });
    expect(logsBlockRange({ fromBlock: 'safe', toBlock: 'pending' }, head)).toEqual({ kind: 'range', from: 19_968n, to: 20_001n, blocks: 34n });
  });

  it('treats a block-hash filter as one block', () => {
    expect(logsBlockRange({ blockHash: hash }, null)).toEqual({ kind: 'block-hash' });
  });
});

describe('the eth_getLogs range limit (platform §3)', () => {
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
    expect(logsRangeFailure(getLogs, params, null)).toBeNull();
    expect(logsRangeFailure(getLogs, params, head)?.error).toEqual({
      code: -32602,
      message: 'invalid params: [0] filter spans 20001 blocks; eth_getLogs is limited to 10000 blocks per call (split the range)',
    });
    expect(logsRangeFailure(getLogs, [{ fromBlock: '0x2711' }], head)).toBeNull();
    expect(logsRangeFailure(findRpcMethod('eth_newFilter')!, params, head)).toBeNull();
  });
});
