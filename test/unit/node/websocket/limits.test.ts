import { describe, expect, it } from 'vitest';
import { reconnectDelay } from '../../../../src/node/websocket/limits.ts';

describe('reconnectDelay', () => {
  it('doubles from the first delay and stays at the largest', () => {
    const delay = { min: 250, max: 10_000 };
    expect([0, 1, 2, 3, 4, 5, 6, 100, 5000].map((attempt) => reconnectDelay(attempt, delay))).toEqual([
      250, 500, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000,
    ]);
  });
});
