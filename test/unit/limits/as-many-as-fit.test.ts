import { describe, expect, it } from 'vitest';
import { asManyAsFit } from '../../../src/limits/as-many-as-fit.ts';

/** A limit holding `room` charges that takes n of them whole or none, counting its tries. */
function limitHolding(room: number) {
  const limit = {
    left: room,
    tries: 0,
    take: (n: number) => {
      limit.tries++;
      if (n > limit.left) return false;
      limit.left -= n;
      return true;
    },
  };
  return limit;
}

describe('asManyAsFit', () => {
  it('gives exactly as many as the limit holds, from none to all of them, in few tries', async () => {
    for (const count of [1, 2, 7, 100, 1000]) {
      for (const room of [0, 1, 2, Math.floor(count / 3), count - 1, count, count + 5]) {
        const limit = limitHolding(room);
        expect(await asManyAsFit(count, limit.take)).toBe(Math.min(room, count));
        expect(limit.left).toBe(room - Math.min(room, count));
        expect(limit.tries).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(count)) + 2);
      }
    }
  });

  it('takes a batch that fits whole in one try, and asks nothing for none', async () => {
    const limit = limitHolding(1000);
    expect(await asManyAsFit(1000, limit.take)).toBe(1000);
    expect(limit.tries).toBe(1);
    expect(await asManyAsFit(0, limit.take)).toBe(0);
    expect(limit.tries).toBe(1);
  });

  it('waits for a limit that answers with a promise', async () => {
    const limit = limitHolding(3);
    expect(await asManyAsFit(5, async (n) => limit.take(n))).toBe(3);
  });
});
