import { describe, expect, it } from 'vitest';
import { matchRanges, mergeRanges, splitByRanges } from '../../../src/search/highlight.ts';
import { queryTerms } from '../../../src/search/text.ts';

function marked(text: string, query: string): string {
  return splitByRanges(text, matchRanges(text, queryTerms(query)))
    .map((part) => (part.match ? `[${part.text}]` : part.text))
    .join('');
}

describe('matchRanges', () => {
  it('marks query words as prefixes of words, case- and accent-insensitively', () => {
    expect(marked('Getting started with the Node API', 'node get')).toBe('[Get]ting started with the [Node] API');
    expect(marked('Guía rápida', 'rapi')).toBe('Guía [rápi]da');
  });

  it('does not mark a word that only contains the query in the middle', () => {
    expect(marked('Blockchain basics', 'chain')).toBe('Blockchain basics');
  });

  it('marks CJK matches anywhere in a run, joining overlapping bigrams', () => {
    expect(marked('ブロックチェーン開発者のためのガイド', '開発者')).toBe('ブロックチェーン[開発者]のためのガイド');
    expect(marked('區塊鏈開發者指南', '開發')).toBe('區塊鏈[開發]者指南');
  });

  it('maps matches in folded text back to the source characters', () => {
    expect(marked('ｶﾞｲﾄﾞを読む', 'ガイド')).toBe('[ｶﾞｲﾄﾞ]を読む');
    expect(marked('ＡＰＩ keys', 'api')).toBe('[ＡＰＩ] keys');
  });

  it('marks nothing for an empty query', () => {
    expect(matchRanges('Anything', queryTerms(''))).toEqual([]);
  });
});

describe('mergeRanges', () => {
  it('sorts and joins overlapping or touching ranges', () => {
    expect(
      mergeRanges([
        [5, 7],
        [0, 2],
        [1, 3],
        [3, 4],
      ]),
    ).toEqual([
      [0, 4],
      [5, 7],
    ]);
  });
});

describe('splitByRanges', () => {
  it('keeps markup-like text as plain text parts', () => {
    const title = '<img src=x onerror=alert(1)> guide';
    expect(splitByRanges(title, [[29, 34]])).toEqual([
      { text: '<img src=x onerror=alert(1)> ', match: false },
      { text: 'guide', match: true },
    ]);
  });
});
