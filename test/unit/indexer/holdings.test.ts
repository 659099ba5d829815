import type { Address, Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { holderTokens, nftBalanceDeltas } from '../../../src/indexer/holdings.ts';
import type { Transfer } from '../../../src/transfers/transfer.ts';

const A: Address = '0x000000000000000000000000000000000000000a';
const B: Address = '0x000000000000000000000000000000000000000b';
const ZERO: Address = '0x0000000000000000000000000000000000000000';
const TOKEN: Address = '0x00000000000000000000000000000000000000f0';
const NFT: Address = '0x00000000000000000000000000000000000000f1';

let logIndex = 0;
function transfer(kind: Transfer['kind'], from: Address, to: Address, amount: string, tokenId: string | null = null, blockNumber = 5): Transfer {
  return {
    blockNumber,
    blockHash: `0x${'1'.repeat(64)}` as Hex,
    blockTimestamp: null,
    transactionHash: `0x${'2'.repeat(64)}` as Hex,
    transactionIndex: 0,
    logIndex: logIndex++,
    batchIndex: 0,
    contract: kind === 'erc20' ? TOKEN : NFT,
    kind,
    from,
    to,
    tokenId,
    amount,
  };
}

describe('holderTokens', () => {
  it('lists each holder and ERC-20 contract once, on both sides, never the zero address, with the earliest block', () => {
    const transfers = [transfer('erc20', A, B, '2', null, 9), transfer('erc20', ZERO, A, '5', null, 4), transfer('erc721', A, B, '1', '1', 2)];
    expect(holderTokens(transfers)).toEqual([
      { key: `${A}:${TOKEN}`, holder: A, contract: TOKEN, firstBlock: 4 },
      { key: `${B}:${TOKEN}`, holder: B, contract: TOKEN, firstBlock: 9 },
    ]);
  });
});

describe('nftBalanceDeltas', () => {
  it('sums what each owner received and sent per token, with the latest transfer', () => {
    const deltas = nftBalanceDeltas(
      [
        transfer('erc721', ZERO, A, '1', '7', 5),
        transfer('erc721', A, B, '1', '7', 6),
        transfer('erc1155', ZERO, A, '10', '3', 6),
        transfer('erc1155', A, B, '4', '3', 8),
        transfer('erc20', A, B, '4'),
      ],
      1,
    );
    expect(deltas.map(({ owner, tokenId, delta, lastBlock }) => [owner, tokenId, delta, lastBlock])).toEqual([
      [A, '3', 6n, 8],
      [A, '7', 0n, 6],
      [B, '3', 4n, 8],
      [B, '7', 1n, 6],
    ]);
  });

  it('undoes with the opposite sign', () => {
    const deltas = nftBalanceDeltas([transfer('legacy', A, B, '1', '9')], -1);
    expect(deltas.map(({ owner, delta, kind }) => [owner, delta, kind])).toEqual([
      [A, 1n, 'legacy'],
      [B, -1n, 'legacy'],
    ]);
  });
});
