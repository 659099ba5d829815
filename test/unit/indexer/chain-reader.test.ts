import { describe, expect, it } from 'vitest';
import { ChainReadError, createChainReader } from '../../../src/indexer/chain-reader.ts';

// The reader's validation of eth_getLogs answers: logs are checked by hand for speed, so these
// pin that the hand check takes exactly what the schema takes, and that what fails it is still
// refused with the schema's message.

const log = {
  address: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  topics: ['0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef', `0x${'0'.repeat(24)}${'a'.repeat(40)}`],
  data: `0x${'0'.repeat(63)}5`,
  blockNumber: '0x1f',
  blockHash: `0x${'b'.repeat(64)}`,
  blockTimestamp: '0x6553f100',
  transactionHash: `0x${'c'.repeat(64)}`,
  transactionIndex: '0x0',
  logIndex: '0x3',
  removed: false,
};

/** A reader whose node answers every eth_getLogs with `answer`. */
function readerAnswering(answer: unknown) {
  return createChainReader({ request: async () => answer });
}

describe('chain reader: eth_getLogs answers', () => {
  it('parses numbers and keeps the rest as given', async () => {
    expect(await readerAnswering([log]).logsInRange(0, 40)).toEqual([
      {
        address: log.address,
        topics: log.topics,
        data: log.data,
        blockNumber: 31,
        blockHash: log.blockHash,
        blockTimestamp: 1_700_000_000,
        transactionHash: log.transactionHash,
        transactionIndex: 0,
        logIndex: 3,
        removed: false,
      },
    ]);
  });

  it('takes a log without a timestamp or a removed flag, and numbers written with leading zeros', async () => {
    const { blockTimestamp: _, removed: __, ...bare } = log;
    const [parsed] = await readerAnswering([{ ...bare, blockNumber: `0x${'0'.repeat(20)}1f` }]).logsInRange(0, 40);
    expect(parsed).toMatchObject({ blockNumber: 31, blockTimestamp: null, removed: false });
    const [nullTimestamp] = await readerAnswering([{ ...log, blockTimestamp: null }]).logsInRange(0, 40);
    expect(nullTimestamp?.blockTimestamp).toBeNull();
  });

  it.each([
    ['address', { ...log, address: '0x1234' }, '1.address'],
    ['topic', { ...log, topics: ['0xzz'] }, '1.topics.0'],
    ['data', { ...log, data: 'ff' }, '1.data'],
    ['block number', { ...log, blockNumber: 12 }, '1.blockNumber'],
    ['block hash', { ...log, blockHash: '0x12' }, '1.blockHash'],
    ['log index', { ...log, logIndex: undefined }, '1.logIndex'],
    ['transaction index', { ...log, transactionIndex: '7' }, '1.transactionIndex'],
    ['removed flag', { ...log, removed: 'no' }, '1.removed'],
    ['number beyond 2^53', { ...log, blockNumber: `0x${'f'.repeat(16)}` }, '1.blockNumber'],
  ])('refuses a log with a bad %s, naming the field', async (_, bad, path) => {
    // The bad log second: the whole answer is refused, not only the bad log.
    const reading = readerAnswering([log, bad]).logsInRange(0, 40);
    await expect(reading).rejects.toThrow(ChainReadError);
    await expect(reading).rejects.toThrow(`(${path}:`);
  });

  it('refuses an answer that is not a list', async () => {
    await expect(readerAnswering({ logs: [] }).logsOfBlocks([log.blockHash as `0x${string}`])).rejects.toThrow(ChainReadError);
  });
});
