import { describe, expect, it } from 'vitest';
import { initialRangeSize, rangeAfterAnswer, rangeAfterRefusal, type RangeSize } from '../../../src/indexer/range-size.ts';

const limits = { maxBlocks: 2000, maxLogs: 10_000 };

describe('range size', () => {
  it('starts small, doubles after answers under half the log cap, up to the maximum', () => {
    let size = initialRangeSize(limits);
    expect(size.blocks).toBe(100);
    const seen: number[] = [];
    for (let i = 0; i < 6; i++) {
      size = rangeAfterAnswer(size, 10, limits);
      seen.push(size.blocks);
    }
    expect(seen).toEqual([200, 400, 800, 1600, 2000, 2000]);
    expect(initialRangeSize({ maxBlocks: 10, maxLogs: 5 }).blocks).toBe(10);
  });

  it('keeps its size between half the cap and the cap, and halves over it', () => {
    const size: RangeSize = { blocks: 800, ceiling: 2000, successes: 0 };
    expect(rangeAfterAnswer(size, 7000, limits).blocks).toBe(800);
    expect(rangeAfterAnswer(size, 10_001, limits).blocks).toBe(400);
    expect(rangeAfterAnswer({ ...size, blocks: 1 }, 50_000, limits).blocks).toBe(1);
  });

  it('takes the size a refusal names when it is smaller, else halves; grows no further than that until many answers passed', () => {
    const size: RangeSize = { blocks: 1600, ceiling: 2000, successes: 3 };
    expect(rangeAfterRefusal(size, { source: 'x', acceptedBlocks: 500 })).toEqual({ blocks: 500, ceiling: 500, successes: 0 });
    expect(rangeAfterRefusal(size, { source: 'x', acceptedBlocks: null })).toEqual({ blocks: 800, ceiling: 800, successes: 0 });
    expect(rangeAfterRefusal(size, { source: 'x', acceptedBlocks: 5000 })?.blocks).toBe(800);

    let after = rangeAfterRefusal(size, { source: 'x', acceptedBlocks: 500 })!;
    after = rangeAfterAnswer(after, 0, limits);
    expect(after.blocks).toBe(500);
    for (let i = 0; i < 70; i++) after = rangeAfterAnswer(after, 0, limits);
    expect(after.blocks).toBe(2000);
  });

  it('has nothing smaller to offer once a single block was refused', () => {
    expect(rangeAfterRefusal({ blocks: 1, ceiling: 1, successes: 0 }, { source: 'x', acceptedBlocks: null })).toBeNull();
  });
});
