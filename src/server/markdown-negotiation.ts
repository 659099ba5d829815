import { LRUCache } from 'lru-cache';
import { parseWeightedValues } from '../http/weighted-values.ts';

// Content negotiation for markdown twins (docs/website.md#content-negotiation), by RFC 9110 12.5.1: each offered type takes
// the q of the most specific matching media range; ties go to the more specific match, then
// to the range listed first, then to HTML, the default representation. So `*/*` alone gets
// HTML, `text/markdown;q=0` never redirects, `text/markdown, text/html;q=0.9` redirects.

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
  index: number;
}

interface Preference {
  q: number;
  /** 3 exact, 2 `type/*`, 1 `*\/*`, 0 no match. */
  specificity: number;
  index: number;
}

/** The media ranges of an Accept header; entries that are not `type/subtype` are skipped. */
export function parseAccept(header: string): MediaRange[] {
  return parseWeightedValues(header).flatMap(({ value, q, index }) => {
    const [type, subtype] = value.split('/');
    return type && subtype ? [{ type, subtype, q, index }] : [];
  });
}

function preferenceFor(ranges: MediaRange[], type: string, subtype: string): Preference {
  let best: Preference = { q: 0, specificity: 0, index: Infinity };
  for (const range of ranges) {
    const specificity =
      range.type === type && range.subtype === subtype
        ? 3
        : range.type === type && range.subtype === '*'
          ? 2
          : range.type === '*' && range.subtype === '*'
            ? 1
            : 0;
    if (specificity > best.specificity) best = { q: range.q, specificity, index: range.index };
  }
  return best;
}

/** True when `Accept` ranks text/markdown above text/html. */
export function prefersMarkdown(accept: string | undefined): boolean {
  if (!accept) return false;
  const ranges = parseAccept(accept);
  const markdown = preferenceFor(ranges, 'text', 'markdown');
  if (markdown.q === 0) return false;
  const html = preferenceFor(ranges, 'text', 'html');
  if (markdown.q !== html.q) return markdown.q > html.q;
  if (markdown.specificity !== html.specificity) return markdown.specificity > html.specificity;
  return markdown.index < html.index;
}

/** Clients repeat a handful of Accept strings; remember the answer for each (bounded). */
export function cachedPrefersMarkdown(limit = 256): (accept: string | undefined) => boolean {
  const answers = new LRUCache<string, boolean>({ max: limit, memoMethod: (accept) => prefersMarkdown(accept) });
  return (accept) => !!accept && answers.memo(accept);
}
