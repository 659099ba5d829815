// Text analysis shared by indexing, querying and highlighting, so the three always agree.
//
// Text is folded (NFKC, lower case, Latin diacritics dropped; for highlighting, grapheme by
// grapheme with a map back to the source), then split into runs of CJK letters and, between
// them, words found by Intl.Segmenter. Words become terms as they are (the index adds their
// prefixes: forward tokenization). CJK runs become overlapping character bigrams plus single
// characters: dictionary word
// segmentation of a short query does not reliably match that of a title (开发者 is one word in
// one sentence and 开发|者 in another), bigrams match either way (as Lucene's CJK analyzer).

/** A half-open range of UTF-16 offsets. */
export type Range = readonly [start: number, end: number];

/** Source text folded for matching, with each folded UTF-16 unit mapped to its source grapheme. */
export interface FoldedText {
  text: string;
  sourceStart: number[];
  sourceEnd: number[];
}

/** A word, or a run of adjacent CJK characters; offsets are in the folded text. */
export interface Token {
  kind: 'word' | 'cjk';
  text: string;
  start: number;
  end: number;
}

/** What a query asks for, as used for highlighting. */
export interface QueryTerms {
  /** Matched as prefixes of words. */
  words: string[];
  /** Matched anywhere inside CJK runs (bigrams, or single characters). */
  cjk: string[];
}

// Script_Extensions so that ー (prolonged sound mark) and 々 count with the kana and Han around them.
const cjkChar = /^[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]/u;
const ascii = /^[\x00-\x7f]*$/;
const combiningMarks = /\p{M}+/gu;

const segmenters = new Map<string, { words: Intl.Segmenter; graphemes: Intl.Segmenter }>();
function segmentersFor(locale: string) {
  let found = segmenters.get(locale);
  if (!found) {
    found = {
      words: new Intl.Segmenter(locale, { granularity: 'word' }),
      graphemes: new Intl.Segmenter(locale, { granularity: 'grapheme' }),
    };
    segmenters.set(locale, found);
  }
  return found;
}

function foldGrapheme(grapheme: string): string {
  let decomposed = grapheme.normalize('NFKD');
  // Dropping marks turns é into e; kana keep theirs (ガ must not become カ), NFC recomposes them.
  if (!cjkChar.test(decomposed)) decomposed = decomposed.replace(combiningMarks, '');
  return decomposed.normalize('NFC').toLowerCase();
}

export function foldText(source: string, locale: string): FoldedText {
  // ASCII folds unit for unit (the common case, and much cheaper than walking graphemes).
  if (ascii.test(source)) {
    const offsets = Array.from(source, (_, i) => i);
    return { text: source.toLowerCase(), sourceStart: offsets, sourceEnd: offsets.map((i) => i + 1) };
  }
  let text = '';
  const sourceStart: number[] = [];
  const sourceEnd: number[] = [];
  for (const { segment, index } of segmentersFor(locale).graphemes.segment(source)) {
    const folded = foldGrapheme(segment);
    text += folded;
    for (let i = 0; i < folded.length; i++) {
      sourceStart.push(index);
      sourceEnd.push(index + segment.length);
    }
  }
  return { text, sourceStart, sourceEnd };
}

const markRun = /(\P{M})(\p{M}+)/gu;

/**
 * The same folding as foldText without the map back to the source: what indexing and querying
 * need. Whole-string normalization costs a fraction of the grapheme walk foldText makes for
 * highlighting (about 1 ms instead of 60 ms for 2,000 Japanese entries).
 */
export function foldForMatching(source: string): string {
  if (ascii.test(source)) return source.toLowerCase();
  const decomposed = source.normalize('NFKD').replace(markRun, (match, base: string) => (cjkChar.test(base) ? match : base));
  return decomposed.normalize('NFC').toLowerCase();
}

/** Maps a non-empty range of the folded text back to the source text. */
export function toSourceRange(folded: FoldedText, [start, end]: Range): Range {
  return [folded.sourceStart[start]!, folded.sourceEnd[end - 1]!];
}

// A run of CJK letters and digits (with their combining marks). Punctuation such as 、 carries
// the CJK scripts in Script_Extensions but is no letter, so it ends a run.
const cjkRun = /(?:[[\p{L}\p{N}]&&[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]]\p{M}*)+/gv;

/**
 * Words and CJK runs of already folded text, in order. CJK runs become bigrams, so their
 * dictionary segmentation would be thrown away: Intl.Segmenter only splits the text between
 * them into words (most of the cost of indexing Japanese was that segmentation).
 */
export function tokenize(folded: string, locale: string): Token[] {
  const tokens: Token[] = [];
  const words = segmentersFor(locale).words;
  const addWords = (from: number, to: number) => {
    if (from >= to) return;
    for (const segment of words.segment(folded.slice(from, to))) {
      if (segment.isWordLike) tokens.push({ kind: 'word', text: segment.segment, start: from + segment.index, end: from + segment.index + segment.segment.length });
    }
  };
  let last = 0;
  for (const run of folded.matchAll(cjkRun)) {
    addWords(last, run.index);
    tokens.push({ kind: 'cjk', text: run[0], start: run.index, end: run.index + run[0].length });
    last = run.index + run[0].length;
  }
  addWords(last, folded.length);
  return tokens;
}

/** The characters of a CJK run, each with any combining marks that follow it. */
function characters(run: string): string[] {
  return run.match(/\P{M}\p{M}*/gu) ?? [];
}

/** Overlapping pairs of characters; a single character stands alone. */
function bigrams(chars: string[]): string[] {
  if (chars.length < 2) return chars;
  const pairs: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) pairs.push(chars[i]! + chars[i + 1]!);
  return pairs;
}

/**
 * The terms of a text, for both indexing and querying (flexsearch runs one encoder for both).
 * Single CJK characters are included so a one-character query finds the last character of a run;
 * for a longer query they are implied by its bigrams and narrow nothing.
 */
export function searchTerms(text: string, locale: string): string[] {
  const terms: string[] = [];
  for (const token of tokenize(foldForMatching(text), locale)) {
    if (token.kind === 'word') terms.push(token.text);
    else {
      const chars = characters(token.text);
      terms.push(...chars);
      if (chars.length > 1) terms.push(...bigrams(chars));
    }
  }
  return terms;
}

/** A query's terms as highlighting matches them: words as prefixes, CJK runs as bigrams. */
export function queryTerms(query: string, locale: string): QueryTerms {
  const words: string[] = [];
  const cjk: string[] = [];
  for (const token of tokenize(foldForMatching(query), locale)) {
    if (token.kind === 'word') words.push(token.text);
    else cjk.push(...bigrams(characters(token.text)));
  }
  return { words, cjk };
}
