import { describe, expect, it } from 'vitest';
import type { Transfer } from '../../../src/transfers/transfer.ts';
import { activityItem, byBlock, isNftTransfer } from '../../../src/webhooks/payload.ts';

const base: Transfer = {
  blockNumber: 255,
  blockHash: '0xAA00000000000000000000000000000000000000000000000000000000000001',
  blockTimestamp: 1,
  transactionHash: '0xBB00000000000000000000000000000000000000000000000000000000000002',
  transactionIndex: 0,
  logIndex: 10,
  batchIndex: 0,
  contract: '0xABCDEF0000000000000000000000000000000001',
  kind: 'erc721',
  from: '0x0000000000000000000000000000000000000000',
  to: '0x00000000000000000000000000000000000000Aa',
  tokenId: '255',
  amount: '1',
};

describe('activity items (docs/webhooks.md#payload)', () => {
  it('gives ERC-721 a hex erc721TokenId, ERC-1155 its id and value, legacy NFTs category token; addresses lowercase, numbers hex', () => {
    expect(activityItem(base as Transfer & { kind: 'erc721'; tokenId: string }, false)).toEqual({
      fromAddress: '0x0000000000000000000000000000000000000000',
      toAddress: '0x00000000000000000000000000000000000000aa',
      contractAddress: '0xabcdef0000000000000000000000000000000001',
      blockNum: '0xff',
      hash: '0xbb00000000000000000000000000000000000000000000000000000000000002',
      erc721TokenId: '0xff',
      erc1155Metadata: null,
      category: 'erc721',
      log: {
        address: '0xabcdef0000000000000000000000000000000001',
        blockNumber: '0xff',
        blockHash: '0xaa00000000000000000000000000000000000000000000000000000000000001',
        transactionHash: '0xbb00000000000000000000000000000000000000000000000000000000000002',
        logIndex: '0xa',
        removed: false,
      },
    });
    const batch = activityItem({ ...base, kind: 'erc1155', tokenId: '7', amount: '300' }, true);
    expect(batch).toMatchObject({ erc721TokenId: null, erc1155Metadata: [{ tokenId: '0x7', value: '0x12c' }], category: 'erc1155', log: { removed: true } });
    expect(activityItem({ ...base, kind: 'legacy', tokenId: '0' }, false)).toMatchObject({ erc721TokenId: '0x0', category: 'token' });
  });

  it('never takes ERC-20 transfers', () => {
    expect(isNftTransfer({ ...base, kind: 'erc20', tokenId: null, amount: '5' })).toBe(false);
    expect(isNftTransfer(base)).toBe(true);
  });

  it('groups transfers by block, blocks ascending, each in log order', () => {
    const at = (blockNumber: number, logIndex: number, batchIndex = 0) => ({ ...base, blockNumber, logIndex, batchIndex });
    const groups = byBlock([at(5, 2), at(3, 1), at(5, 1, 1), at(5, 1, 0)]);
    expect(groups.map((group) => [group.block, group.transfers.map((transfer) => `${transfer.logIndex}.${transfer.batchIndex}`)])).toEqual([
      [3, ['1.0']],
      [5, ['1.0', '1.1', '2.0']],
    ]);
  });
});
