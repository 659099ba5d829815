import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import {
  creationFromOtterscan,
  creatorFromCallTraces,
  creatorFromParityTraces,
  creatorFromReceipts,
  minedSender,
} from '../../../../src/nfts/contracts/creation.ts';

const contract = getAddress('0x00000000000000000000000000000000000000c1');
const other = '0x00000000000000000000000000000000000000c2';
const factory = '0x4e59b44847b379578588920ca78fbf26c0b4956c';
const alice = '0x00000000000000000000000000000000000000a1';
const bob = '0x00000000000000000000000000000000000000b0';

describe('creatorFromReceipts', () => {
  it('is the sender of the receipt that names the contract as created', () => {
    const receipts = [
      { from: bob, contractAddress: null, status: '0x1' },
      { from: alice, contractAddress: contract.toLowerCase(), status: '0x1' },
    ];
    expect(creatorFromReceipts(receipts, contract)).toBe(getAddress(alice));
  });

  it('is null when no receipt created it, when the creation failed, or for an answer of another shape', () => {
    expect(creatorFromReceipts([{ from: alice, contractAddress: other, status: '0x1' }], contract)).toBeNull();
    expect(creatorFromReceipts([{ from: alice, contractAddress: contract, status: '0x0' }], contract)).toBeNull();
    expect(creatorFromReceipts({ receipts: [] }, contract)).toBeNull();
  });
});

describe('creatorFromCallTraces', () => {
  const tracesOf = (frame: unknown) => [
    { txHash: '0x01', result: { type: 'CALL', from: bob, to: other, calls: [] } },
    { txHash: '0x02', result: frame },
  ];

  it('finds a CREATE2 made by a factory, nested, and names the transaction’s sender', () => {
    const frame = {
      type: 'CALL',
      from: alice,
      to: factory,
      calls: [{ type: 'CALL', from: factory, to: other, calls: [{ type: 'CREATE2', from: other, to: contract }] }],
    };
    expect(creatorFromCallTraces(tracesOf(frame), contract)).toBe(getAddress(alice));
  });

  it('finds a plain deployment (CREATE at the top)', () => {
    expect(creatorFromCallTraces(tracesOf({ type: 'CREATE', from: alice, to: contract.toLowerCase() }), contract)).toBe(getAddress(alice));
  });

  it('is null when the creating frame or one above it failed, or nothing created the contract', () => {
    const failedCreate = { type: 'CALL', from: alice, to: factory, calls: [{ type: 'CREATE2', from: factory, to: contract, error: 'out of gas' }] };
    const failedParent = { type: 'CALL', from: alice, to: factory, error: 'execution reverted', calls: [{ type: 'CREATE2', from: factory, to: contract }] };
    expect(creatorFromCallTraces(tracesOf(failedCreate), contract)).toBeNull();
    expect(creatorFromCallTraces(tracesOf(failedParent), contract)).toBeNull();
    expect(creatorFromCallTraces(tracesOf({ type: 'CALL', from: alice, to: other }), contract)).toBeNull();
    expect(creatorFromCallTraces('not supported', contract)).toBeNull();
  });
});

describe('creatorFromParityTraces', () => {
  const call = (traceAddress: number[], extra: Record<string, unknown> = {}) => ({
    type: 'call',
    transactionHash: '0x02',
    traceAddress,
    action: { from: traceAddress.length === 0 ? alice : factory, callType: 'call' },
    result: { output: '0x' },
    ...extra,
  });
  const create = (traceAddress: number[], extra: Record<string, unknown> = {}) => ({
    type: 'create',
    transactionHash: '0x02',
    traceAddress,
    action: { from: factory },
    result: { address: contract.toLowerCase() },
    ...extra,
  });

  it('names the sender of the transaction whose create trace made the contract', () => {
    const traces = [{ ...call([]), transactionHash: '0x01', action: { from: bob } }, call([]), create([0])];
    expect(creatorFromParityTraces(traces, contract)).toBe(getAddress(alice));
  });

  it('is null when the creation or a trace above it failed, or no create made it', () => {
    expect(creatorFromParityTraces([call([]), create([0], { error: 'Reverted' })], contract)).toBeNull();
    expect(creatorFromParityTraces([call([], { error: 'Reverted' }), create([0])], contract)).toBeNull();
    expect(creatorFromParityTraces([call([]), create([0], { result: { address: other } })], contract)).toBeNull();
    expect(creatorFromParityTraces(null, contract)).toBeNull();
  });
});

describe('creationFromOtterscan and minedSender', () => {
  const hash = `0x${'ab'.repeat(32)}`;

  it('take the creating transaction’s hash, then its sender and block', () => {
    expect(creationFromOtterscan({ hash, creator: factory })).toBe(hash);
    expect(minedSender({ hash, from: alice, to: factory, blockNumber: '0x1f' })).toEqual({ from: getAddress(alice), blockNumber: 31 });
  });

  it('say nothing of a contract the node knows no creation of, or of a pending transaction', () => {
    expect(creationFromOtterscan(null)).toBeNull();
    expect(minedSender({ hash, from: alice, blockNumber: null })).toBeNull();
    expect(minedSender(null)).toBeNull();
  });
});
