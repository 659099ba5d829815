import { describe, expect, it } from 'vitest';
import { exceedsJsonDepth, jsonDepthScan } from '../../../src/http/json-depth.ts';

const nested = (depth: number, open = '[', close = ']') => open.repeat(depth) + close.repeat(depth);

describe('exceedsJsonDepth', () => {
  it('counts arrays and objects together, as JSON.parse would nest them', () => {
    expect(exceedsJsonDepth(nested(64), 64)).toBe(false);
    expect(exceedsJsonDepth(nested(65), 64)).toBe(true);
    expect(exceedsJsonDepth('{"a":[{"b":[1]}]}', 4)).toBe(false);
    expect(exceedsJsonDepth('{"a":[{"b":[1]}]}', 3)).toBe(true);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ s: '[[[[[[', t: 'a\\"[[[[[["', u: '\\\\' });
    expect(JSON.parse(text).t).toBe('a\\"[[[[[["');
    expect(exceedsJsonDepth(text, 1)).toBe(false);
    expect(exceedsJsonDepth(`[${text}]`, 1)).toBe(true);
  });

  it('measures the deepest point, not the total number of brackets', () => {
    const wide = `[${Array.from({ length: 10_000 }, () => '[[1]]').join(',')}]`;
    expect(exceedsJsonDepth(wide, 3)).toBe(false);
    expect(exceedsJsonDepth(wide, 2)).toBe(true);
  });

  it('reads bytes as it reads text, multi-byte characters in strings included', () => {
    const text = JSON.stringify({ name: '日本語 [[[', list: [[['ok']]] });
    const bytes = new TextEncoder().encode(text);
    expect(exceedsJsonDepth(bytes, 4)).toBe(false);
    expect(exceedsJsonDepth(bytes, 3)).toBe(true);
  });

  it('refuses a 2 MiB body of nested arrays at the limit, not at its end', () => {
    const body = nested(1024 * 1024);
    expect(exceedsJsonDepth(body, 64)).toBe(true);
  });
});

describe('jsonDepthScan', () => {
  it('finds the same depth in pieces as in the whole, a string or an escape cut between pieces included', () => {
    const text = JSON.stringify({ s: 'a\\"[[[', list: [[[{ t: '\\' }]]] });
    for (const limit of [4, 5]) {
      const whole = exceedsJsonDepth(text, limit);
      for (let cut = 0; cut <= text.length; cut++) {
        const scan = jsonDepthScan(limit);
        const first = scan(text.slice(0, cut));
        expect(first || scan(text.slice(cut)), `limit ${limit}, cut at ${cut}`).toBe(whole);
      }
    }
  });

  it('stays past the limit once it is passed', () => {
    const scan = jsonDepthScan(2);
    expect(scan(new TextEncoder().encode('[[['))).toBe(true);
    expect(scan(']]]')).toBe(true);
  });
});
