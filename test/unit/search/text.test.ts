import { describe, expect, it } from 'vitest';
import { foldForMatching, foldText, indexTerms, queryTerms, tokenize, toSourceRange } from '../../../src/search/text.ts';

const tokens = (text: string) => tokenize(foldText(text).text).map((t) => [t.kind, t.text]);

describe('foldForMatching', () => {
  it('folds exactly as foldText does, without the offset map', () => {
    const samples = [
      'Guía RÁPIDA ＡＰＩ',
      'Ação e configuração: São Paulo',
      'ブロックチェーンのガス代とパスワード',
      '한국어 개발자 가이드',
      '開發者指南 与 开发者指南',
      'Ｆｕｌｌｗｉｄｔｈ ＡＢＣ ①②',
      'naïve café — crème brûlée',
      'mixed ガ and é and 한',
      'ｶﾞｲﾄﾞ と か\u3099いど',
      'Ελληνικά Ά and Кириллица Й',
      '漢字の丁寧語\u{FE00} and 한국어',
      'decomposed \u1112\u1161\u11ab\u1100\u1173\u11af and \u0301lone mark',
    ];
    for (const sample of samples) expect(foldForMatching(sample), sample).toBe(foldText(sample).text);
  });
});

describe('foldText', () => {
  it('lower-cases, applies NFKC and drops Latin diacritics', () => {
    expect(foldText('Guía RÁPIDA ＡＰＩ').text).toBe('guia rapida api');
  });

  it('keeps kana voicing marks and folds half-width katakana', () => {
    expect(foldText('ｶﾞｲﾄﾞ ガイド').text).toBe('ガイド ガイド');
    expect(foldText('か\u3099いど').text).toBe('がいど');
  });

  it('maps text that only lower-cases back unit for unit', () => {
    const source = 'APIキーとブロックチェーン';
    const folded = foldText(source);
    expect(folded.text).toBe('apiキーとブロックチェーン');
    expect(source.slice(...toSourceRange(folded, [3, 6]))).toBe('キーと');
  });

  it('maps folded ranges back to source graphemes', () => {
    const source = 'ｶﾞｲﾄﾞ!';
    const folded = foldText(source);
    expect(folded.text).toBe('ガイド!');
    const [start, end] = toSourceRange(folded, [0, 3]);
    expect(source.slice(start, end)).toBe('ｶﾞｲﾄﾞ');
  });
});

describe('tokenize', () => {
  it('splits Latin text into words and drops punctuation', () => {
    expect(tokens('Node.js: JSON-RPC, EIP-155!')).toEqual([
      ['word', 'node.js'],
      ['word', 'json'],
      ['word', 'rpc'],
      ['word', 'eip'],
      ['word', '155'],
    ]);
  });

  it('joins adjacent CJK words into one run and keeps Latin words apart', () => {
    expect(tokens('Ethereumのテストネット・フォーセット')).toEqual([
      ['word', 'ethereum'],
      ['cjk', 'のテストネット'],
      ['cjk', 'フォーセット'],
    ]);
  });

  it('keeps contractions, dotted names, underscores and accented words whole', () => {
    expect(tokens("don't call foo_bar in São Paulo or v1.2")).toEqual([
      ['word', "don't"],
      ['word', 'call'],
      ['word', 'foo_bar'],
      ['word', 'in'],
      ['word', 'sao'],
      ['word', 'paulo'],
      ['word', 'or'],
      ['word', 'v1.2'],
    ]);
  });

  it('keeps Korean words (separated by spaces) as separate runs', () => {
    expect(tokens('블록체인 개발자를 위한')).toEqual([
      ['cjk', '블록체인'],
      ['cjk', '개발자를'],
      ['cjk', '위한'],
    ]);
  });
});

describe('indexTerms and queryTerms', () => {
  it('indexes CJK runs as bigrams and their last character', () => {
    expect(indexTerms('開発者')).toEqual(['開発', '発者', '者']);
    expect(indexTerms('の')).toEqual(['の']);
  });

  it('lists each term once, in order of first appearance', () => {
    expect(indexTerms('Token balances\nRead token balances for a wallet')).toEqual(['token', 'balances', 'read', 'for', 'a', 'wallet']);
  });

  it('turns a CJK query into bigrams whatever its dictionary segmentation', () => {
    // ICU segments 开发者 as 开发|者 in Chinese; the bigrams are the same either way.
    expect(queryTerms('开发者')).toEqual({ words: [], cjk: ['开发', '发者'] });
    expect(queryTerms('ガ')).toEqual({ words: [], cjk: ['ガ'] });
  });

  it('keeps query words as folded words', () => {
    expect(queryTerms('  Crucible  RPC ')).toEqual({ words: ['crucible', 'rpc'], cjk: [] });
    expect(queryTerms('?!')).toEqual({ words: [], cjk: [] });
  });

  it('every query bigram of a CJK substring is an indexed term', () => {
    const indexed = new Set(indexTerms('区块链开发者指南'));
    for (const term of queryTerms('开发者指').cjk) expect(indexed).toContain(term);
  });

  it('every character of a CJK run begins an indexed term', () => {
    const indexed = indexTerms('区块链开发者指南');
    for (const char of '区块链开发者指南')
      expect(
        indexed.some((term) => term.startsWith(char)),
        char,
      ).toBe(true);
  });
});
