import type { Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { checkLinks, logsMatchBlocks, newestCommonBlock } from '../../../src/indexer/chain-continuity.ts';
import type { BlockHeader, ChainLog } from '../../../src/transfers/transfer.ts';

const hash = (label: string): Hex => `0x${label.padStart(64, '0')}`;
const header = (number: number, fork = 'a', parentFork = fork): BlockHeader => ({
  number,
  hash: hash(`${fork}${number}`),
  parentHash: hash(`${parentFork}${number - 1}`),
  timestamp: 1000 + number,
  transactions: [],
});
const log = (blockNumber: number, blockHash: Hex): ChainLog => ({
  address: '0x00000000000000000000000000000000000000aa',
  topics: [],
  data: '0x',
  blockNumber,
  blockHash,
  blockTimestamp: null,
  transactionHash: hash('77'),
  transactionIndex: 0,
  logIndex: 0,
  removed: false,
});

describe('checkLinks', () => {
  it('accepts headers that follow the checkpoint and each other', () => {
    expect(checkLinks({ number: 9, hash: hash('a9') }, [header(10), header(11), header(12)])).toEqual({ ok: true });
    expect(checkLinks(null, [header(0), header(1)])).toEqual({ ok: true });
  });

  it('tells a replaced checkpoint from a node that switched forks while answering', () => {
    expect(checkLinks({ number: 9, hash: hash('a9') }, [header(10, 'b'), header(11, 'b')])).toEqual({ ok: false, reason: 'checkpoint-replaced' });
    expect(checkLinks({ number: 9, hash: hash('a9') }, [header(10), header(11, 'b')])).toEqual({ ok: false, reason: 'unstable' });
    expect(checkLinks({ number: 9, hash: hash('a9') }, [header(10), header(12)])).toEqual({ ok: false, reason: 'unstable' });
  });
});

describe('logsMatchBlocks', () => {
  const headers = new Map([[12, header(12)]]);
  it('accepts logs inside the range on the blocks read with them', () => {
    expect(logsMatchBlocks([log(10, hash('x')), log(10, hash('x')), log(12, hash('a12'))], { from: 10, to: 12 }, headers)).toBe(true);
  });
  it('refuses logs outside the range, of two hashes for one block, or of another hash than its header', () => {
    expect(logsMatchBlocks([log(13, hash('a13'))], { from: 10, to: 12 }, headers)).toBe(false);
    expect(logsMatchBlocks([log(10, hash('x')), log(10, hash('y'))], { from: 10, to: 12 }, headers)).toBe(false);
    expect(logsMatchBlocks([log(12, hash('b12'))], { from: 10, to: 12 }, headers)).toBe(false);
  });
});

describe('newestCommonBlock', () => {
  const stored = [12, 11, 10, 8].map((number) => ({ number, hash: hash(`a${number}`) }));
  it('finds the newest stored block the node still has', () => {
    const node = new Map<number, Hex | null>([
      [12, hash('b12')],
      [11, hash('b11')],
      [10, hash('a10')],
      [8, hash('a8')],
    ]);
    expect(newestCommonBlock(stored, node)).toEqual({ number: 10, hash: hash('a10') });
  });
  it('counts a block the node does not have as gone, and finds none after a reset', () => {
    expect(
      newestCommonBlock(
        stored,
        new Map<number, Hex | null>([
          [12, null],
          [11, hash('a11')],
        ]),
      ),
    ).toEqual({ number: 11, hash: hash('a11') });
    expect(newestCommonBlock(stored, new Map<number, Hex | null>(stored.map((block) => [block.number, hash(`c${block.number}`)])))).toBeNull();
  });
});
