import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SLICES_PER_INTERVAL, staggered } from '../../../../src/node/websocket/staggered.ts';

describe('staggered', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('does each member once per interval, a slice of them per tick, and stops doing a member deleted', () => {
    const done: number[][] = [];
    let tick: number[] = [];
    const duty = staggered<number>(1_000, (member) => tick.push(member));
    const members = Array.from({ length: 25 }, (_, i) => i);
    for (const member of members) duty.add(member);
    for (let i = 0; i < 2 * SLICES_PER_INTERVAL; i++) {
      vi.advanceTimersByTime(1_000 / SLICES_PER_INTERVAL);
      done.push(tick);
      tick = [];
    }
    // Two intervals: every member twice, and no tick did more than its share.
    expect(done.flat().sort((a, b) => a - b)).toEqual(members.flatMap((member) => [member, member]));
    expect(Math.max(...done.map((slice) => slice.length))).toBe(Math.ceil(25 / SLICES_PER_INTERVAL));
    duty.delete(3);
    vi.advanceTimersByTime(1_000);
    expect(tick.sort((a, b) => a - b)).toEqual(members.filter((member) => member !== 3));
    tick = [];
    duty.stop();
    vi.advanceTimersByTime(1_000);
    expect(tick).toEqual([]);
  });
});
