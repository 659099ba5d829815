import { InvalidParamsRpcError, LimitExceededRpcError, RpcRequestError } from 'viem';
import { describe, expect, it } from 'vitest';
import { classifyLogsError, LOGS_LIMIT_MESSAGES } from '../../../src/indexer/logs-range-errors.ts';

// [source, message as the node sends it, blocks it names or null]
const samples: Array<[string, string, number | null]> = [
  [
    'Alchemy',
    'Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size, or you can request any block range with a cap of 10K logs in the response. Based on your parameters and the response size limit, this block range should work: [0x0, 0x721655]',
    0x721656,
  ],
  ['Alchemy', 'Under the Free tier plan, you can make eth_getLogs requests with up to a 10 block range.', 10],
  ['Infura', 'query returned more than 10000 results. Try with this block range [0x12A05F200, 0x12A05F2C7].', 200],
  ['Infura', 'range 1000000 exceeds limit of 10000', 10_000],
  ['reth', 'query exceeds max block range 100000', 100_000],
  ['reth', 'query exceeds max results 20000, retry with the range 24383075-24383096', 22],
  ['erigon', 'query block range exceeds server limit, narrow your filter: 1000', 1000],
  ['erigon', 'query returns too many logs, narrow your filter: 20000', null],
  ['nethermind', 'Too many logs requested. Max logs per response is 10000.', null],
  ['besu', 'Requested range exceeds maximum range limit', null],
  ['geth', 'request timed out', null],
  ['BSC, publicnode', 'exceed maximum block range: 50000', 50_000],
  ['Crucible', 'Invalid params: params[0] spans 20001 blocks; eth_getLogs is limited to 10000 blocks per call (split the range)', 10_000],
  ['QuickNode, 1RPC, Blast', 'eth_getLogs is limited to a 10,000 range', 10_000],
  ['Moonbeam, Frontier', 'block range is too wide (maximum 1024)', 1024],
  ['Ankr', 'block range is too wide', null],
  ['Cloudflare', 'Max range: 800', 800],
  ['Chainstack', 'Block range limit exceeded.', null],
  ['Arbitrum', 'logs matched by query exceeds limit of 10000', null],
  ['Base, OP Stack', 'block range too large', null],
  ['Coinbase', 'please limit the query to at most 1,000 blocks', 1000],
  ['OP Stack', 'backend response too large', null],
  ['1RPC', 'response size should not greater than 10000000 bytes', null],
  ['viem', 'HTTP response body exceeded the size limit.', null],
  ['generic', 'too many results', null],
  ['generic', 'response is too large', null],
  ['generic', 'limit exceeded', null],
  ['generic', 'context deadline exceeded', null],
  ['generic', 'The request took too long to respond.', null],
];

describe('classifyLogsError', () => {
  it('has a sample message for every entry of the table', () => {
    for (const entry of LOGS_LIMIT_MESSAGES)
      expect(
        samples.some(([, message]) => entry.pattern.test(message)),
        `${entry.source} ${entry.pattern}`,
      ).toBe(true);
  });

  it.each(samples)('%s: %s', (source, message, blocks) => {
    expect(classifyLogsError(new Error(message))).toEqual({ source, acceptedBlocks: blocks });
  });

  it('reads the node message viem nests in details and causes', () => {
    const nested = new LimitExceededRpcError(
      new RpcRequestError({ body: {}, url: 'http://node', error: { code: -32005, message: 'query returned more than 10000 results' } }),
    );
    expect(classifyLogsError(nested)?.source).toBe('Infura, ethermint, Polygon zkEVM');
    const params = new InvalidParamsRpcError(
      new RpcRequestError({ body: {}, url: 'http://node', error: { code: -32602, message: 'query exceeds max block range 5000' } }),
    );
    expect(classifyLogsError(params)).toEqual({ source: 'reth', acceptedBlocks: 5000 });
    expect(classifyLogsError({ code: -32000, message: 'error', data: { reason: 'block range too large' } })?.source).toBe('Base, OP Stack');
  });

  it('does not take rate limits, other errors or a named count of 0 as a range too large', () => {
    expect(classifyLogsError(new Error('daily request count exceeded, request rate limited'))).toBeNull();
    expect(classifyLogsError(new Error('Your app has exceeded its compute units per second capacity'))).toBeNull();
    expect(classifyLogsError(new Error('Request limit exceeded'))).toBeNull();
    expect(classifyLogsError(new Error('unknown block'))).toBeNull();
    expect(classifyLogsError(new Error('fetch failed'))).toBeNull();
    expect(classifyLogsError('not an error')).toBeNull();
    expect(classifyLogsError(new Error('exceed maximum block range: 0'))).toEqual({ source: 'BSC, publicnode', acceptedBlocks: null });
  });
});
