import { describe, expect, it } from 'vitest';
import { createSerialQueue } from '../../../src/chain/serial-queue.ts';

describe('createSerialQueue', () => {
  it('runs tasks one at a time in arrival order, whatever each takes', async () => {
    const queue = createSerialQueue();
    const events: string[] = [];
    const task = (name: string, ticks: number) => async () => {
      events.push(`start ${name}`);
      for (let i = 0; i < ticks; i++) await Promise.resolve();
      events.push(`end ${name}`);
      return name;
    };
    const results = await Promise.all([queue.run(task('a', 5)), queue.run(task('b', 0)), queue.run(task('c', 2))]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(events).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('keeps going after a task fails, and counts running plus waiting tasks', async () => {
    const queue = createSerialQueue();
    const sizes: number[] = [];
    const failing = queue.run(async () => {
      sizes.push(queue.size);
      throw new Error('boom');
    });
    const next = queue.run(async () => {
      sizes.push(queue.size);
      return 'after';
    });
    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe('after');
    expect(sizes).toEqual([2, 1]);
    expect(queue.size).toBe(0);
  });
});
