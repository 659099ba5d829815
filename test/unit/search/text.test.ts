import { describe, expect, it } from 'vitest';
import { foldForMatching, foldText, queryTerms, searchTerms, tokenize, toSourceRange } from '../../../src/search/text.ts';

const tokens = (text: string, locale: string) => tokenize(foldText(text, locale).text, locale).map((t) => [t.kind, t.text]);

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
    ];
    for (const sample of samples) expect(foldForMatching(sample), sample).toBe(foldText(sample, 'ja').text);
  });
});

describe('foldText', () => {
  it('lower-cases, applies NFKC and drops Latin diacritics', () => {
    expect(foldText('Guía RÁPIDA ＡＰＩ', 'es').text).toBe('guia rapida api');
  });

  it('keeps kana voicing marks and folds half-width katakana', () => {
    expect(foldText('ｶﾞｲﾄﾞ ガイド', 'ja').text).toBe('ガイド ガイド');
    expect(foldText('か\u3099いど', 'ja').text).toBe('がいど');
  });

  it('maps folded ranges back to source graphemes', () => {
    const source = 'ｶﾞｲﾄﾞ!';
    const folded = foldText(source, 'ja');
    expect(folded.text).toBe('ガイド!');
    const [start, end] = toSourceRange(folded, [0, 3]);
    expect(source.slice(start, end)).toBe('ｶﾞｲﾄﾞ');
  });
});

describe('tokenize', () => {
  it('splits Latin text into words and drops punctuation', () => {
    expect(tokens('Node.js: JSON-RPC, EIP-155!', 'en')).toEqual([
      ['word', 'node.js'],
      ['word', 'json'],
      ['word', 'rpc'],
      ['word', 'eip'],
      ['word', '155'],
    ]);
  });

  it('joins adjacent CJK words into one run and keeps Latin words apart', () => {
    expect(tokens('Ethereumのテストネット・フォーセット', 'ja')).toEqual([
      ['word', 'ethereum'],
      ['cjk', 'のテストネット'],
      ['cjk', 'フォーセット'],
    ]);
  });

  it('keeps Korean words (separated by spaces) as separate runs', () => {
    expect(tokens('블록체인 개발자를 위한', 'ko')).toEqual([
      ['cjk', '블록체인'],
      ['cjk', '개발자를'],
      ['cjk', '위한'],
    ]);
  });
});

describe('searchTerms and queryTerms', () => {
  it('indexes CJK runs as characters and bigrams', () => {
    expect(searchTerms('開発者', 'ja')).toEqual(['開', '発', '者', '開発', '発者']);
  });

  it('turns a CJK query into bigrams whatever its dictionary segmentation', () => {
    // ICU segments 开发者 as 开发|者 in Chinese; the bigrams are the same either way.
    expect(queryTerms('开发者', 'zh-Hans')).toEqual({ words: [], cjk: ['开发', '发者'] });
    expect(queryTerms('ガ', 'ja')).toEqual({ words: [], cjk: ['ガ'] });
  });

  it('keeps query words as folded words', () => {
    expect(queryTerms('  Crucible  RPC ', 'en')).toEqual({ words: ['crucible', 'rpc'], cjk: [] });
    expect(queryTerms('?!', 'en')).toEqual({ words: [], cjk: [] });
  });

  it('every query bigram of a CJK substring is an indexed term', () => {
    const indexed = new Set(searchTerms('区块链开发者指南', 'zh-Hans'));
    for (const term of queryTerms('开发者指', 'zh-Hans').cjk) expect(indexed).toContain(term);
  });
});
