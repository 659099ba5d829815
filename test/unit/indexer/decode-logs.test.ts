import { encodeAbiParameters, pad, toHex, type Address, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { decodeTransferLogs } from '../../../src/indexer/decode-logs.ts';
import { EVENT_TOPICS } from '../../../src/indexer/events.ts';
import type { ChainLog } from '../../../src/transfers/transfer.ts';

const TOKEN: Address = '0x00000000000000000000000000000000000000aa';
const ALICE: Address = '0x1111111111111111111111111111111111111111';
const BOB: Address = '0x2222222222222222222222222222222222222222';
const OPERATOR: Address = '0x3333333333333333333333333333333333333333';
const ZERO: Address = '0x0000000000000000000000000000000000000000';
const TX: Hex = `0x${'ab'.repeat(32)}`;

const topic = (address: Address) => pad(address, { size: 32 });
const word = (value: bigint) => pad(toHex(value), { size: 32 });
let nextLogIndex = 0;
function log(topics: Hex[], data: Hex, overrides: Partial<ChainLog> = {}): ChainLog {
  return {
    address: TOKEN,
    topics,
    data,
    blockNumber: 7,
    blockHash: `0x${'cd'.repeat(32)}`,
    blockTimestamp: 1_700_000_000,
    transactionHash: TX,
    transactionIndex: 0,
    logIndex: nextLogIndex++,
    removed: false,
    ...overrides,
  };
}

describe('decodeTransferLogs', () => {
  it('tells ERC-20 from ERC-721 Transfer by topic count', () => {
    const { transfers, skipped } = decodeTransferLogs([
      log([EVENT_TOPICS.transfer, topic(ALICE), topic(BOB)], word(10n ** 30n)),
      log([EVENT_TOPICS.transfer, topic(ZERO), topic(BOB), word(42n)], '0x'),
    ]);
    expect(skipped).toBe(0);
    expect(transfers.map(({ kind, from, to, tokenId, amount }) => ({ kind, from, to, tokenId, amount }))).toEqual([
      { kind: 'erc20', from: ALICE, to: BOB, tokenId: null, amount: '1000000000000000000000000000000' },
      { kind: 'erc721', from: ZERO, to: BOB, tokenId: '42', amount: '1' },
    ]);
  });

  it('keeps the block, transaction and timestamp of the log, with the contract lowercased', () => {
    const [transfer] = decodeTransferLogs([
      log([EVENT_TOPICS.transfer, topic(ALICE), topic(BOB)], word(1n), { address: '0x00000000000000000000000000000000000000AA', logIndex: 3 }),
    ]).transfers;
    expect(transfer).toMatchObject({ blockNumber: 7, blockTimestamp: 1_700_000_000, transactionHash: TX, logIndex: 3, batchIndex: 0, contract: TOKEN });
  });

  it('decodes ERC-1155 singles and batches, one transfer per id of a batch', () => {
    const batch = encodeAbiParameters(
      [{ type: 'uint256[]' }, { type: 'uint256[]' }],
      [
        [1n, 2n, 2n ** 255n],
        [5n, 6n, 7n],
      ],
    );
    const { transfers } = decodeTransferLogs([
      log([EVENT_TOPICS.erc1155Single, topic(OPERATOR), topic(ALICE), topic(BOB)], `0x${word(9n).slice(2)}${word(3n).slice(2)}`),
      log([EVENT_TOPICS.erc1155Batch, topic(OPERATOR), topic(ZERO), topic(ALICE)], batch),
    ]);
    expect(transfers.map(({ kind, from, to, tokenId, amount, batchIndex }) => [kind, from, to, tokenId, amount, batchIndex])).toEqual([
      ['erc1155', ALICE, BOB, '9', '3', 0],
      ['erc1155', ZERO, ALICE, '1', '5', 0],
      ['erc1155', ZERO, ALICE, '2', '6', 1],
      ['erc1155', ZERO, ALICE, (2n ** 255n).toString(), '7', 2],
    ]);
  });

  it('decodes the CryptoPunks events: Assign from nobody, PunkTransfer, and PunkBought', () => {
    const { transfers } = decodeTransferLogs([
      log([EVENT_TOPICS.punkAssign, topic(ALICE)], word(17n)),
      log([EVENT_TOPICS.punkTransfer, topic(ALICE), topic(BOB)], word(17n)),
      log([EVENT_TOPICS.punkBought, word(17n), topic(BOB), topic(ALICE)], word(10n ** 18n)),
    ]);
    expect(transfers.map(({ kind, from, to, tokenId, amount }) => [kind, from, to, tokenId, amount])).toEqual([
      ['legacy', ZERO, ALICE, '17', '1'],
      ['legacy', ALICE, BOB, '17', '1'],
      ['legacy', BOB, ALICE, '17', '1'],
    ]);
  });

  it('takes the buyer of a PunkBought that names nobody from the Transfer the same contract emitted before it in that transaction', () => {
    const { transfers, skipped } = decodeTransferLogs([
      log([EVENT_TOPICS.transfer, topic(ALICE), topic(BOB)], word(1n)),
      log([EVENT_TOPICS.punkBought, word(5n), topic(ALICE), topic(ZERO)], word(0n)),
      // No such Transfer in another transaction: skipped rather than sent to nobody.
      log([EVENT_TOPICS.punkBought, word(6n), topic(ALICE), topic(ZERO)], word(0n), { transactionHash: `0x${'ef'.repeat(32)}` }),
    ]);
    expect(skipped).toBe(1);
    // The Transfer itself is the punk count, not an ERC-20 transfer.
    expect(transfers.map(({ kind, from, to, tokenId }) => [kind, from, to, tokenId])).toEqual([['legacy', ALICE, BOB, '5']]);
  });

  it("leaves out the ERC-20-shaped Transfer a punk contract emits beside its PunkTransfer or PunkBought, and keeps other contracts' and transactions'", () => {
    const PUNKS: Address = '0x00000000000000000000000000000000000000bb';
    const otherTx = (byte: string): Hex => `0x${byte.repeat(32)}`;
    const { transfers, skipped } = decodeTransferLogs([
      // transferPunk: Transfer(from, to, 1) then PunkTransfer.
      log([EVENT_TOPICS.transfer, topic(ALICE), topic(BOB)], word(1n), { address: PUNKS }),
      log([EVENT_TOPICS.punkTransfer, topic(ALICE), topic(BOB)], word(17n), { address: PUNKS }),
      // An ERC-20 moved in the same transaction by another contract is a token transfer.
      log([EVENT_TOPICS.transfer, topic(BOB), topic(ALICE)], word(5n)),
      // buyPunk: Transfer(seller, buyer, 1) then PunkBought, answered by the node in another order.
      log([EVENT_TOPICS.punkBought, word(18n), topic(BOB), topic(ALICE)], word(10n ** 18n), { address: PUNKS, transactionHash: otherTx('01'), logIndex: 91 }),
      log([EVENT_TOPICS.transfer, topic(BOB), topic(ALICE)], word(1n), { address: PUNKS, transactionHash: otherTx('01'), logIndex: 90 }),
      // The same contract's Transfer in a transaction without a punk event stays an ERC-20 transfer.
      log([EVENT_TOPICS.transfer, topic(ALICE), topic(BOB)], word(1n), { address: PUNKS, transactionHash: otherTx('02'), logIndex: 92 }),
    ]);
    expect(skipped).toBe(0);
    expect(transfers.map(({ kind, contract, from, to, tokenId, amount }) => [kind, contract, from, to, tokenId, amount])).toEqual([
      ['legacy', PUNKS, ALICE, BOB, '17', '1'],
      ['erc20', TOKEN, BOB, ALICE, null, '5'],
      ['legacy', PUNKS, BOB, ALICE, '18', '1'],
      ['erc20', PUNKS, ALICE, BOB, null, '1'],
    ]);
  });

  it('skips and counts logs whose shape does not fit their event, and removed logs', () => {
    const { transfers, skipped } = decodeTransferLogs([
      // CryptoKitties-style Transfer: nothing indexed, three words; either standard.
      log([EVENT_TOPICS.transfer], `0x${word(1n).slice(2)}${word(2n).slice(2)}${word(3n).slice(2)}`),
      log([EVENT_TOPICS.transfer, topic(ALICE), topic(BOB)], '0x1234'),
      log(
        [EVENT_TOPICS.erc1155Batch, topic(OPERATOR), topic(ZERO), topic(ALICE)],
        encodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], [[1n, 2n], [5n]]),
      ),
      log([EVENT_TOPICS.erc1155Batch, topic(OPERATOR), topic(ZERO), topic(ALICE)], word(32n)),
      log([EVENT_TOPICS.transfer, topic(ALICE), topic(BOB)], word(1n), { removed: true }),
      log([EVENT_TOPICS.transfer, '0x12', topic(BOB)], word(1n)),
    ]);
    expect(transfers).toEqual([]);
    expect(skipped).toBe(6);
  });

  it('orders transfers by block and log index whatever order the node answered in', () => {
    const { transfers } = decodeTransferLogs([
      log([EVENT_TOPICS.transfer, topic(ALICE), topic(BOB)], word(2n), { blockNumber: 9, logIndex: 0 }),
      log([EVENT_TOPICS.transfer, topic(ALICE), topic(BOB)], word(1n), { blockNumber: 8, logIndex: 5 }),
      log([EVENT_TOPICS.transfer, topic(ALICE), topic(BOB)], word(0n), { blockNumber: 8, logIndex: 1 }),
    ]);
    expect(transfers.map((transfer) => transfer.amount)).toEqual(['0', '1', '2']);
  });
});
