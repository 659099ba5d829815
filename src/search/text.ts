// Text analysis shared by indexing, querying and highlighting, so the three always agree.
//
// Text is folded (NFKC, lower case, Latin diacritics dropped; for highlighting, character by
// character with a map back to the source), then split into runs of CJK letters and, between
// them, words. CJK runs become overlapping character bigrams: dictionary word segmentation of a
// short query does not reliably match that of a title (开发者 is one word in one sentence and
// 开发|者 in another), bigrams match either way (as Lucene's CJK analyzer). A query term matches
// the indexed terms it begins (src/search/engine.ts), so a one-character query finds the
// bigrams starting with that character; the last character of a run, which starts none, is
// indexed on its own.

/** A half-open range of UTF-16 offsets. */
export type Range = readonly [start: number, end: number];

/** Source text folded for matching, with each folded UTF-16 unit mapped to its source character (with its marks). */
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

/**
 * Pays the one-time costs of text analysis (compiling its patterns) up front, e.g. while the
 * search index downloads, so the first query does not wait for them.
 */
export function prepareTextAnalysis(): void {
  foldText('Ｐrepare ガ é');
  indexTerms('Ｐrepare ガイド é');
}

/** What a query asks for. */
export interface QueryTerms {
  /** Matched as prefixes of words. */
  words: string[];
  /** Bigrams, or a single character, matched anywhere inside CJK runs. */
  cjk: string[];
}

// Script_Extensions so that ー (prolonged sound mark) and 々 count with the kana and Han around them.
const cjkChar = /^[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]/u;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the whole ASCII range, control characters included
const ascii = /^[\x00-\x7f]*$/;
const combiningMarks = /\p{M}+/gu;

// What folds as one unit: a character with the marks after it (including the half-width kana
// voicing marks, which decompose to combining ones), or a run of conjoining Hangul jamo (which
// NFKC composes into a syllable). Only these change under NFKC together, so folding unit by unit
// gives what folding the whole string gives. (Intl.Segmenter's graphemes would also do; creating
// the first one costs ICU set-up the first query would wait for: BENCHMARKS.md, "What changed in
// search, and why".)
const foldingUnit = /[\u1100-\u115f]+[\u1160-\u11ff]*|[^\p{M}\uff9e\uff9f][\p{M}\uff9e\uff9f]*|[\p{M}\uff9e\uff9f]+/gu;

function foldUnit(unit: string): string {
  let decomposed = unit.normalize('NFKD');
  // Dropping marks turns é into e; kana keep theirs (ガ must not become カ), NFC recomposes them.
  if (!cjkChar.test(decomposed)) decomposed = decomposed.replace(combiningMarks, '');
  return decomposed.normalize('NFC').toLowerCase();
}

export function foldText(source: string): FoldedText {
  // Text that folding only lower-cases, unit for unit, maps back unit for unit: ASCII, and most
  // CJK text (no half-width forms, no diacritics). Much cheaper than walking folding units.
  const lower = source.toLowerCase();
  if (lower.length === source.length && foldForMatching(source) === lower) {
    const offsets = Array.from(source, (_, i) => i);
    return { text: lower, sourceStart: offsets, sourceEnd: offsets.map((i) => i + 1) };
  }
  let text = '';
  const sourceStart: number[] = [];
  const sourceEnd: number[] = [];
  for (const { 0: segment, index } of source.matchAll(foldingUnit)) {
    const folded = foldUnit(segment);
    text += folded;
    for (let i = 0; i < folded.length; i++) {
      sourceStart.push(index);
      sourceEnd.push(index + segment.length);
    }
  }
  return { text, sourceStart, sourceEnd };
}

// Combining marks after anything but a CJK character (or another mark): é's accent, not ガ's voicing.
const droppedMarks = /(?<=[^\p{M}\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}])\p{M}+/gu;
// Text with no diacritic to drop once NFKC has composed it: ASCII, general punctuation, CJK
// punctuation, kana (without the combining voicing marks), Han and Hangul syllables. Explicit
// ranges: Unicode property classes cost several times more here, and anything outside them
// just takes the full path.
// biome-ignore lint/suspicious/noControlCharactersInRegex: ranges from U+0000, control characters included
const noDiacritics = /^[\x00-\x7f\u2000-\u206f\u3000-\u3098\u309b-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]*$/;

/**
 * The same folding as foldText without the map back to the source: what indexing and querying
 * need. Whole-string normalization costs a fraction of the unit-by-unit walk foldText makes for
 * highlighting; most CJK text has no diacritic to drop, so NFKC alone folds it.
 */
export function foldForMatching(source: string): string {
  if (ascii.test(source)) return source.toLowerCase();
  const composed = source.normalize('NFKC');
  if (noDiacritics.test(composed)) return composed.toLowerCase();
  return source.normalize('NFKD').replace(droppedMarks, '').normalize('NFC').toLowerCase();
}

/** Maps a non-empty range of the folded text back to the source text. */
export function toSourceRange(folded: FoldedText, [start, end]: Range): Range {
  return [folded.sourceStart[start]!, folded.sourceEnd[end - 1]!];
}

// One pass finds both kinds of token. A CJK run: CJK letters and digits with their combining
// marks (punctuation such as 、 carries the CJK scripts in Script_Extensions but is no letter, so
// it ends a run). A word: letters, digits, marks and underscores, joined by an inner . or '
// (node.js, don't), as Unicode's word boundaries (UAX #29) split the space-separated scripts
// of the site's locales; a regular expression does it in a fraction of Intl.Segmenter's time.
const tokenPattern =
  /((?:[[\p{L}\p{N}]&&[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]]\p{M}*)+)|[[\p{L}\p{N}_]--[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]][[\p{L}\p{M}\p{N}_]--[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]]*(?:['.’][[\p{L}\p{N}_]--[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]][[\p{L}\p{M}\p{N}_]--[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]]*)*/gv;

// The same rule on ASCII text, where a plain pattern matches several times faster (its group 1
// is always empty: ASCII has no CJK run).
const asciiTokenPattern = /()[A-Za-z0-9_]+(?:['.][A-Za-z0-9_]+)*/g;

/** Matches of words and CJK runs (group 1 set) in folded text. */
function tokenMatches(folded: string): RegExpStringIterator<RegExpExecArray> {
  return folded.matchAll(ascii.test(folded) ? asciiTokenPattern : tokenPattern);
}

/** Words and CJK runs of already folded text, in order. */
export function tokenize(folded: string): Token[] {
  const tokens: Token[] = [];
  for (const match of tokenMatches(folded)) {
    const text = match[0];
    tokens.push({ kind: match[1] ? 'cjk' : 'word', text, start: match.index, end: match.index + text.length });
  }
  return tokens;
}

const mark = /\p{M}/u;

/** The characters of a CJK run, each with any combining marks that follow it. */
function characters(run: string): string[] {
  return mark.test(run) ? (run.match(/\P{M}\p{M}*/gu) ?? []) : Array.from(run);
}

/** Overlapping pairs of characters; a single character stands alone. */
function bigrams(chars: string[]): string[] {
  if (chars.length < 2) return chars;
  const pairs: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) pairs.push(chars[i]! + chars[i + 1]!);
  return pairs;
}

/**
 * The distinct terms of a text in order of first appearance (the index ranks earlier terms
 * higher): its words, and for each CJK run its bigrams and its last character.
 */
export function indexTerms(text: string): string[] {
  const terms = new Set<string>();
  for (const match of tokenMatches(foldForMatching(text))) {
    const run = match[1];
    if (!run) {
      terms.add(match[0]);
      continue;
    }
    const chars = characters(run);
    if (chars.length > 1) for (const pair of bigrams(chars)) terms.add(pair);
    terms.add(chars.at(-1)!);
  }
  return [...terms];
}

/** A query's terms: words (matched as prefixes of words), CJK runs as bigrams. */
export function queryTerms(query: string): QueryTerms {
  const words: string[] = [];
  const cjk: string[] = [];
  for (const token of tokenize(foldForMatching(query))) {
    if (token.kind === 'word') words.push(token.text);
    else cjk.push(...bigrams(characters(token.text)));
  }
  return { words, cjk };
}
