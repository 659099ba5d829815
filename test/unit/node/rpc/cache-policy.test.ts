import { describe, expect, it } from 'vitest';
import { mayCacheAnswer } from '../../../../src/node/rpc/cache-policy.ts';
import { findRpcMethod } from '../../../../src/node/rpc/registry.ts';

const hash = `0x${'d4'.repeat(32)}`;
const address = `0x${'e5'.repeat(20)}`;
const finality = { head: 1_000n, finalityDepth: 64n };
const method = (name: string) => findRpcMethod(name)!;

describe('cache policies in the registry', () => {
  it('marks what never changes, what is found by hash, and what names a block', () => {
    const kinds = (names: string[]) => names.map((name) => method(name).cache.kind);
    expect(kinds(['eth_chainId', 'net_version'])).toEqual(['forever', 'forever']);
    expect(kinds(['eth_getTransactionReceipt', 'eth_getTransactionByHash', 'eth_getBlockByHash'])).toEqual(['when-found', 'when-found', 'when-found']);
    expect(method('eth_getBalance').cache).toEqual({ kind: 'when-final', blockParam: 1 });
    expect(method('eth_getStorageAt').cache).toEqual({ kind: 'when-final', blockParam: 2 });
    expect(method('eth_getBlockByNumber').cache).toEqual({ kind: 'when-final', blockParam: 0 });
    expect(kinds(['eth_blockNumber', 'eth_gasPrice', 'eth_sendRawTransaction', 'eth_getFilterChanges', 'eth_estimateGas'])).toEqual(Array(5).fill('none'));
  });

  it('points each when-final policy at a block param of its method', () => {
    for (const name of [
      'eth_getBalance',
      'eth_getCode',
      'eth_getStorageAt',
      'eth_getTransactionCount',
      'eth_getProof',
      'eth_call',
      'eth_getBlockByNumber',
      'eth_getBlockReceipts',
      'crucible_getTransactionReceipts',
    ]) {
      const { cache, params } = method(name);
      if (cache.kind !== 'when-final') throw new Error(`${name} is not when-final`);
      expect(params[cache.blockParam]?.name, name).toMatch(/^block/);
    }
  });
});

describe('mayCacheAnswer', () => {
  it('keeps forever answers, never errors-as-null', () => {
    expect(mayCacheAnswer(method('eth_chainId'), [], '0xaa36a7', finality)).toBe(true);
    expect(mayCacheAnswer(method('eth_chainId'), [], null, finality)).toBe(false);
    expect(mayCacheAnswer(method('eth_blockNumber'), [], '0x10', finality)).toBe(false);
  });

  it('keeps a lookup by hash once found and mined', () => {
    const receipt = method('eth_getTransactionReceipt');
    expect(mayCacheAnswer(receipt, [hash], null, finality)).toBe(false);
    expect(mayCacheAnswer(receipt, [hash], { transactionHash: hash, blockHash: hash }, finality)).toBe(true);
    const transaction = method('eth_getTransactionByHash');
    expect(mayCacheAnswer(transaction, [hash], { hash, blockHash: null, blockNumber: null }, finality)).toBe(false);
    expect(mayCacheAnswer(transaction, [hash], { hash, blockHash: hash, blockNumber: '0x1' }, finality)).toBe(true);
    expect(mayCacheAnswer(method('eth_getBlockByHash'), [hash, false], { hash, number: '0x1' }, finality)).toBe(true);
  });

  it("judges crucible_getTransactionReceipts on eth_getBlockReceipts' result: an unknown block (null) is not kept", () => {
    const receipts = method('crucible_getTransactionReceipts');
    expect(mayCacheAnswer(receipts, [{ blockHash: hash }], [], finality)).toBe(true);
    expect(mayCacheAnswer(receipts, [{ blockHash: hash }], null, finality)).toBe(false);
    expect(mayCacheAnswer(receipts, [{ blockNumber: '0x3a8' }], [], finality)).toBe(true);
    expect(mayCacheAnswer(receipts, [{ blockNumber: '0x3a9' }], [], finality)).toBe(false);
    expect(mayCacheAnswer(receipts, [{ blockNumber: 'latest' }], [], finality)).toBe(false);
    expect(receipts.upstreamAs?.params([{ blockHash: hash }])).toEqual([hash]);
    expect(receipts.upstreamAs?.params([{ blockNumber: '0x5' }])).toEqual(['0x5']);
    expect(receipts.upstreamAs?.answer(null)).toEqual({ receipts: null });
  });

  it('keeps answers at a block at least the finality depth below the head', () => {
    const balance = method('eth_getBalance');
    expect(mayCacheAnswer(balance, [address, '0x3a8'], '0x1', finality)).toBe(true); // 936 = 1000 - 64
    expect(mayCacheAnswer(balance, [address, '0x3a9'], '0x1', finality)).toBe(false);
    expect(mayCacheAnswer(balance, [address, { blockNumber: '0x10' }], '0x1', finality)).toBe(true);
    expect(mayCacheAnswer(balance, [address, 'earliest'], '0x1', finality)).toBe(true);
    for (const tag of ['latest', 'safe', 'finalized', 'pending']) expect(mayCacheAnswer(balance, [address, tag], '0x1', finality)).toBe(false);
    expect(mayCacheAnswer(balance, [address, '0x10'], '0x1', { head: null, finalityDepth: 64n })).toBe(false);
    expect(mayCacheAnswer(method('eth_getBlockByNumber'), ['0x10', false], null, finality)).toBe(false);
  });

  it('keeps answers at a block named by hash, unless the hash must stay canonical', () => {
    const code = method('eth_getCode');
    expect(mayCacheAnswer(code, [address, { blockHash: hash }], '0x60', finality)).toBe(true);
    expect(mayCacheAnswer(code, [address, hash], '0x60', finality)).toBe(true);
    expect(mayCacheAnswer(code, [address, { blockHash: hash, requireCanonical: true }], '0x60', finality)).toBe(false);
  });
});
