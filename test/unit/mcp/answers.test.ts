import { describe, expect, it } from 'vitest';
import { callHash, CursorError, readCursor, sizedAnswer } from '../../../src/mcp/answers.ts';

// Answers sized for a model (docs/mcp.md#answers): within the budget, sliced with a cursor that
// continues the same call, and the slices put back together are the whole answer.

interface Envelope {
  result?: unknown;
  text?: string;
  truncated: boolean;
  cursor?: string;
  slice?: { list?: string; from: number; to: number; of: number };
}

const hash = callHash('tool', { a: 1 });
const hashOf = () => hash;

/** Every slice of `value` through its cursors. */
function slices(value: unknown, budget: number): Envelope[] {
  const pages: Envelope[] = [];
  let cursor: string | undefined;
  do {
    const text = sizedAnswer(value, { budget, hash: hashOf, cursor: cursor === undefined ? null : readCursor(cursor, hash) });
    expect(text.length).toBeLessThanOrEqual(budget);
    const page = JSON.parse(text) as Envelope;
    pages.push(page);
    cursor = page.cursor;
  } while (cursor !== undefined);
  return pages;
}

describe('sizedAnswer', () => {
  it('answers a value that fits whole, untruncated', () => {
    expect(JSON.parse(sizedAnswer({ balance: '0x1' }, { budget: 1000, hash: hashOf, cursor: null }))).toEqual({ result: { balance: '0x1' }, truncated: false });
  });

  it('slices the largest list, keeping the rest of the answer on every slice, until its cursor runs out', () => {
    const items = Array.from({ length: 200 }, (_, i) => ({ tokenId: String(i), name: `token number ${i}` }));
    const value = { owner: '0xabc', ownedNfts: items, small: [1, 2], totalCount: 200 };
    const pages = slices(value, 1500);
    expect(pages.length).toBeGreaterThan(2);
    expect(pages.every((page) => page.truncated)).toBe(true);
    expect(pages.every((page) => (page.result as { totalCount: number }).totalCount === 200 && page.slice!.list === 'ownedNfts')).toBe(true);
    expect(pages.flatMap((page) => (page.result as { ownedNfts: unknown[] }).ownedNfts)).toEqual(items);
    expect(pages.at(-1)!.slice!.to).toBe(200);
    expect(pages.at(-1)!.cursor).toBeUndefined();
  });

  it('slices a list at the root, and a list nested in a list', () => {
    const root = Array.from({ length: 100 }, (_, i) => `0x${i.toString(16).padStart(64, '0')}`);
    expect(slices(root, 1200).flatMap((page) => page.result as string[])).toEqual(root);
    const nested = [{ transactions: root }, { transactions: [] }];
    const pages = slices(nested, 1200);
    expect(pages[0]!.slice!.list).toBe('0.transactions');
    expect(pages.flatMap((page) => (page.result as Array<{ transactions: string[] }>)[0]!.transactions)).toEqual(root);
  });

  it('slices text (a page, or an answer with no list to slice) by characters, at line ends where it can', () => {
    const text = Array.from({ length: 400 }, (_, i) => `line ${i}: "quoted" \\ and more`).join('\n');
    const pages = slices(text, 2000);
    expect(pages.length).toBeGreaterThan(3);
    expect(pages.map((page) => page.text).join('')).toBe(text);
    expect(pages.slice(0, -1).every((page) => page.text!.endsWith('\n'))).toBe(true);
    const big = { code: `0x${'ab'.repeat(5000)}` };
    expect(
      JSON.parse(
        slices(big, 1500)
          .map((page) => page.text)
          .join(''),
      ),
    ).toEqual(big);
  });

  it('refuses a cursor of another call, one it did not write, and one past the answer', () => {
    const items = Array.from({ length: 100 }, (_, i) => ({ i, pad: 'x'.repeat(40) }));
    const first = JSON.parse(sizedAnswer(items, { budget: 1200, hash: hashOf, cursor: null })) as Envelope;
    expect(() => readCursor(first.cursor!, callHash('tool', { a: 2 }))).toThrow(/another call/);
    expect(() => readCursor(first.cursor!, callHash('other', { a: 1 }))).toThrow(CursorError);
    expect(() => readCursor('not a cursor', hash)).toThrow(/not one this server gave/);
    expect(() => sizedAnswer(items.slice(0, 2), { budget: 1200, hash: hashOf, cursor: readCursor(first.cursor!, hash) })).toThrow(/does not fit/);
  });

  it('names the call by its tool and inputs, whatever the order of the inputs', () => {
    expect(callHash('t', { a: 1, b: [2, { c: 3, d: 4 }] })).toBe(callHash('t', { b: [2, { d: 4, c: 3 }], a: 1 }));
    expect(callHash('t', { a: 1 })).not.toBe(callHash('t', { a: '1' }));
  });
});
