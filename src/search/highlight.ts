import { foldText, tokenize, toSourceRange, type QueryTerms, type Range } from './text.ts';

/** A piece of result text, marked when it matched the query. */
export interface TextPart {
  text: string;
  match: boolean;
}

/**
 * Where the query matches `text`, as sorted, non-overlapping source ranges: the same rule the
 * index applies (query words as word prefixes, CJK bigrams anywhere in a CJK run).
 */
export function matchRanges(text: string, terms: QueryTerms): Range[] {
  const folded = foldText(text);
  const found: Range[] = [];
  for (const token of tokenize(folded.text)) {
    if (token.kind === 'word') {
      for (const word of terms.words) {
        if (token.text.startsWith(word)) found.push([token.start, token.start + word.length]);
      }
    } else {
      for (const term of terms.cjk) {
        for (let at = token.text.indexOf(term); at !== -1; at = token.text.indexOf(term, at + 1)) {
          found.push([token.start + at, token.start + at + term.length]);
        }
      }
    }
  }
  return mergeRanges(found.map((range) => toSourceRange(folded, range)));
}

/** Sorts ranges and joins those that overlap or touch (開発 + 発者 highlight as 開発者). */
export function mergeRanges(ranges: readonly Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: [number, number][] = [];
  for (const [start, end] of sorted) {
    const last = merged.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

/** Cuts text at sorted, non-overlapping ranges; the ranges become the matched parts. */
export function splitByRanges(text: string, ranges: readonly Range[]): TextPart[] {
  const parts: TextPart[] = [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (start > at) parts.push({ text: text.slice(at, start), match: false });
    parts.push({ text: text.slice(start, end), match: true });
    at = end;
  }
  if (at < text.length) parts.push({ text: text.slice(at), match: false });
  return parts;
}
