import { describe, expect, it } from 'vitest';
import { checksummed, tokenContractsOf, withNativeAmounts, withTokenAmounts } from '../../../src/mcp/shape.ts';

// Answers' addresses checksummed and amounts given with their decimals beside the raw value (docs/mcp.md#answers).

const eth = { symbol: 'ETH', decimals: 18 };
const lower = '0x4c7e7865d1a8f526da67ccc11ee9960c30e7a1ae';
const checksum = '0x4c7E7865D1a8F526DA67ccC11eE9960C30e7a1Ae';

describe('checksummed', () => {
  it('checksums addresses among values and keys, but not 20-byte values of data, token ids or storage words', () => {
    const value = { from: lower, to: null, logs: [{ address: lower, data: lower, topics: [lower] }], [lower]: { balance: '0x1' }, tokenId: lower };
    expect(checksummed(value)).toEqual({
      from: checksum,
      to: null,
      logs: [{ address: checksum, data: lower, topics: [lower] }],
      [checksum]: { balance: '0x1' },
      tokenId: lower,
    });
  });
});

describe('withNativeAmounts', () => {
  it('formats wei beside a transfer’s value and a balance, in the network’s currency', () => {
    const value = { transactions: [{ from: lower, value: '0xde0b6b3a7640000' }], storageProof: [{ key: '0x0', value: '0x5' }], balance: '0x1bc16d674ec80000' };
    expect(withNativeAmounts(value, eth)).toEqual({
      transactions: [{ from: lower, value: '0xde0b6b3a7640000', valueFormatted: '1 ETH' }],
      storageProof: [{ key: '0x0', value: '0x5' }],
      balance: '0x1bc16d674ec80000',
      balanceFormatted: '2 ETH',
    });
  });
});

describe('withTokenAmounts', () => {
  it('gives each balance in its token’s units, the native currency’s by the zero address, and leaves unknown tokens raw', () => {
    const value = {
      address: lower,
      tokenBalances: [
        { contractAddress: '0x1111111111111111111111111111111111111111', tokenBalance: `0x${1_500_000n.toString(16).padStart(64, '0')}`, error: null },
        { contractAddress: '0x0000000000000000000000000000000000000000', tokenBalance: '0xde0b6b3a7640000', error: null },
        { contractAddress: '0x2222222222222222222222222222222222222222', tokenBalance: '0x1', error: null },
        { contractAddress: '0x3333333333333333333333333333333333333333', tokenBalance: null, error: 'not a contract' },
      ],
    };
    expect(tokenContractsOf(value)).toEqual([
      '0x1111111111111111111111111111111111111111',
      '0x2222222222222222222222222222222222222222',
      '0x3333333333333333333333333333333333333333',
    ]);
    const facts = new Map([
      ['0x1111111111111111111111111111111111111111', { symbol: 'CUSD', decimals: 6 }],
      ['0x2222222222222222222222222222222222222222', null],
    ]);
    const shaped = withTokenAmounts(value, facts, eth) as typeof value & { tokenBalances: Array<Record<string, unknown>> };
    expect(shaped.tokenBalances[0]).toMatchObject({ balance: '1.5', decimals: 6, symbol: 'CUSD' });
    expect(shaped.tokenBalances[1]).toMatchObject({ balance: '1', decimals: 18, symbol: 'ETH' });
    expect(shaped.tokenBalances[2]).toEqual(value.tokenBalances[2]);
    expect(shaped.tokenBalances[3]).toEqual(value.tokenBalances[3]);
  });
});
