import type { Address, Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { callFrameOf, isTracingUnsupported, nativeTransfersOfTraces, nativeTransfersOfTransactions } from '../../../src/indexer/native-moves.ts';
import type { BlockHeader } from '../../../src/transfers/transfer.ts';

// Native transfers from what a node says of a block (docs/token-data.md#crucible_getassettransfers): callTracer frames, or the
// block's transactions and receipts; reverted frames and failed transactions give nothing.

const address = (n: number): Address => `0x${n.toString(16).padStart(40, '0')}`;
const hash = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;
const [EOA, A, B, C, D] = [1, 2, 3, 4, 5].map(address) as [Address, Address, Address, Address, Address];
const block = (transactions: Hex[]): BlockHeader => ({ number: 9, hash: hash(0xb9), parentHash: hash(0xb8), timestamp: 1_700_000_000, transactions });

interface RawFrame {
  type: string;
  from: Address;
  to?: Address;
  value?: string;
  error?: string;
  calls?: RawFrame[];
}
const frame = (raw: RawFrame) => callFrameOf(raw)!;
const moves = (transfers: ReturnType<typeof nativeTransfersOfTraces>) => transfers.map((t) => [t.kind, t.traceIndex, t.from, t.to, t.amount]);

describe('callFrameOf', () => {
  it("takes callTracer's frames, addresses lower-cased, a missing value as zero", () => {
    expect(callFrameOf({ type: 'staticcall', from: '0x00000000000000000000000000000000000000AA', to: A, gas: '0x1', input: '0x' })).toEqual({
      type: 'STATICCALL',
      from: '0x00000000000000000000000000000000000000aa',
      to: A,
      value: 0n,
      error: null,
      calls: [],
    });
  });

  it.each([
    ['no type', { from: A }],
    ['a bad from', { type: 'CALL', from: '0x12' }],
    ['a value that is not hex', { type: 'CALL', from: A, to: B, value: 12 }],
    ['calls that are not a list', { type: 'CALL', from: A, to: B, calls: {} }],
    ['a bad frame inside', { type: 'CALL', from: A, to: B, calls: [{ type: 'CALL', from: 'nobody' }] }],
  ])('refuses a frame with %s', (_, raw) => {
    expect(callFrameOf(raw)).toBeNull();
  });
});

describe('nativeTransfersOfTraces', () => {
  it("gives each successful transaction's own value, and every call, creation and self-destruct that moved ether, numbered depth first", () => {
    const trace = frame({
      type: 'CALL',
      from: EOA,
      to: A,
      value: '0x64',
      calls: [
        { type: 'STATICCALL', from: A, to: D },
        { type: 'CALL', from: A, to: B, value: '0x1e', calls: [{ type: 'CREATE2', from: B, to: C, value: '0x5' }] },
        { type: 'DELEGATECALL', from: A, to: D, value: '0x64' },
        { type: 'CALL', from: A, to: D, value: '0x0' },
        { type: 'SELFDESTRUCT', from: A, to: EOA, value: '0x7' },
      ],
    });
    expect(moves(nativeTransfersOfTraces(block([hash(1)]), [{ transactionHash: hash(1), frame: trace }]))).toEqual([
      ['external', 0, EOA, A, '100'],
      ['internal', 2, A, B, '30'],
      ['internal', 3, B, C, '5'],
      ['internal', 6, A, EOA, '7'],
    ]);
  });

  it('skips a reverted call and everything inside it, keeping the numbers of the calls after it', () => {
    const trace = frame({
      type: 'CALL',
      from: EOA,
      to: A,
      value: '0x0',
      calls: [
        { type: 'CALL', from: A, to: B, value: '0x2', error: 'execution reverted', calls: [{ type: 'CALL', from: B, to: C, value: '0x1' }] },
        { type: 'CALL', from: A, to: C, value: '0x3' },
      ],
    });
    expect(moves(nativeTransfersOfTraces(block([hash(1)]), [{ transactionHash: null, frame: trace }]))).toEqual([
      ['external', 0, EOA, A, '0'],
      ['internal', 3, A, C, '3'],
    ]);
  });

  it('gives nothing for a failed transaction, and places each transaction by the block', () => {
    const failed = frame({ type: 'CALL', from: EOA, to: A, value: '0x9', error: 'out of gas', calls: [{ type: 'CALL', from: A, to: B, value: '0x9' }] });
    const plain = frame({ type: 'CALL', from: EOA, to: B, value: '0x1' });
    const transfers = nativeTransfersOfTraces(block([hash(1), hash(2)]), [
      { transactionHash: hash(1), frame: failed },
      { transactionHash: null, frame: plain },
    ]);
    expect(transfers).toEqual([
      {
        blockNumber: 9,
        blockHash: hash(0xb9),
        blockTimestamp: 1_700_000_000,
        transactionHash: hash(2),
        transactionIndex: 1,
        traceIndex: 0,
        kind: 'external',
        from: EOA,
        to: B,
        amount: '1',
      },
    ]);
  });

  it('refuses traces that do not match the block’s transactions', () => {
    const plain = frame({ type: 'CALL', from: EOA, to: B, value: '0x1' });
    expect(() => nativeTransfersOfTraces(block([hash(1), hash(2)]), [{ transactionHash: hash(1), frame: plain }])).toThrow(/2 transactions and 1 traces/);
    expect(() => nativeTransfersOfTraces(block([hash(1)]), [{ transactionHash: hash(7), frame: plain }])).toThrow(/not of/);
  });
});

describe('nativeTransfersOfTransactions', () => {
  it('gives the successful transactions’ values, a creation to the contract it made', () => {
    const transfers = nativeTransfersOfTransactions(block([hash(1), hash(2), hash(3)]), [
      { hash: hash(1), index: 0, from: EOA, to: A, value: 5n, succeeded: true },
      { hash: hash(2), index: 1, from: EOA, to: B, value: 6n, succeeded: false },
      { hash: hash(3), index: 2, from: EOA, to: C, value: 0n, succeeded: true },
    ]);
    expect(transfers.map((t) => [t.transactionIndex, t.kind, t.to, t.amount])).toEqual([
      [0, 'external', A, '5'],
      [2, 'external', C, '0'],
    ]);
  });
});

describe('isTracingUnsupported', () => {
  it.each([
    [{ code: -32601, message: 'Method not found' }, true],
    [{ message: 'RPC Request failed.', cause: { code: -32601, message: 'x' } }, true],
    [new Error('the method debug_traceBlockByHash does not exist/is not available'), true],
    [new Error('Unsupported method: debug_traceBlockByHash. See https://crucible.example/rpc/'), true],
    [{ code: -32000, message: 'missing trie node' }, false],
    [new Error('fetch failed'), false],
  ])('%j → %s', (error, expected) => {
    expect(isTracingUnsupported(error)).toBe(expected);
  });
});
