import { describe, expect, it } from 'vitest';
import type { NativeTransfer, Transfer } from '../../../src/transfers/transfer.ts';
import { activityItem, addressActivityByBlock, byBlock, isNftTransfer } from '../../../src/webhooks/payload.ts';

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

  it('tells native transfers as the incumbent’s address activity: the amount in the coin, its symbol and decimals, no contract and no log', () => {
    const native: NativeTransfer = {
      blockNumber: 255,
      blockHash: base.blockHash,
      blockTimestamp: 1,
      transactionHash: base.transactionHash,
      transactionIndex: 0,
      traceIndex: 0,
      kind: 'external',
      from: '0x00000000000000000000000000000000000000Bb',
      to: '0x00000000000000000000000000000000000000Aa',
      amount: '1500000000000000000',
    };
    const [block] = addressActivityByBlock([], [native, { ...native, traceIndex: 2, kind: 'internal', amount: '25' }], { symbol: 'POL', decimals: 18 }, true);
    expect(block!.activity).toEqual([
      {
        fromAddress: '0x00000000000000000000000000000000000000bb',
        toAddress: '0x00000000000000000000000000000000000000aa',
        blockNum: '0xff',
        hash: '0xbb00000000000000000000000000000000000000000000000000000000000002',
        category: 'external',
        value: 1.5,
        asset: 'POL',
        rawContract: { rawValue: '0x14d1120d7b160000', address: null, decimals: 18 },
        erc721TokenId: null,
        erc1155Metadata: null,
        removed: true,
      },
      expect.objectContaining({ category: 'internal', value: 2.5e-17, rawContract: { rawValue: '0x19', address: null, decimals: 18 } }),
    ]);
  });

  it('orders a block’s address activity by transaction: its native transfers by trace, then its token transfers by log', () => {
    const token = (transactionIndex: number, logIndex: number, batchIndex = 0): Transfer => ({
      ...base,
      transactionIndex,
      logIndex,
      batchIndex,
      tokenId: String(batchIndex),
    });
    const native = (blockNumber: number, transactionIndex: number, traceIndex: number): NativeTransfer => ({
      blockNumber,
      blockHash: base.blockHash,
      blockTimestamp: 1,
      transactionHash: base.transactionHash,
      transactionIndex,
      traceIndex,
      kind: traceIndex === 0 ? 'external' : 'internal',
      from: base.from,
      to: base.to,
      amount: '1',
    });
    const blocks = addressActivityByBlock(
      [token(1, 4, 1), token(0, 1), token(1, 4, 0), token(1, 3)],
      [native(255, 1, 3), native(255, 1, 0), native(9, 0, 0), native(255, 0, 0)],
      { symbol: 'ETH', decimals: 18 },
      false,
    );
    expect(
      blocks.map(({ block, activity }) => [block, activity.map((item) => `${item.category}:${item.log?.logIndex ?? ''}:${item.erc721TokenId ?? ''}`)]),
    ).toEqual([
      [9, ['external::']],
      [255, ['external::', 'erc721:0x1:0x0', 'external::', 'internal::', 'erc721:0x3:0x0', 'erc721:0x4:0x0', 'erc721:0x4:0x1']],
    ]);
  });
});
