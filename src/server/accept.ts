// Content negotiation for markdown twins (spec 4.7), by RFC 9110 12.5.1: each offered type takes
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

export function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  header.split(',').forEach((part, index) => {
    const [range = '', ...params] = part.split(';');
    const [type, subtype] = range.trim().toLowerCase().split('/');
    if (!type || !subtype) return;
    let q = 1;
    for (const param of params) {
      const [name, value] = param.split('=').map((s) => s.trim());
      if (name?.toLowerCase() !== 'q') continue;
      q = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(value ?? '') ? Number(value) : 0;
    }
    ranges.push({ type, subtype, q, index });
  });
  return ranges;
}

function preferenceFor(ranges: MediaRange[], type: string, subtype: string): Preference {
  let best: Preference = { q: 0, specificity: 0, index: Infinity };
  for (const range of ranges) {
    const specificity =
      range.type === type && range.subtype === subtype ? 3 : range.type === type && range.subtype === '*' ? 2 : range.type === '*' && range.subtype === '*' ? 1 : 0;
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
  const cache = new Map<string, boolean>();
  return (accept) => {
    if (!accept) return false;
    let answer = cache.get(accept);
    if (answer === undefined) {
      answer = prefersMarkdown(accept);
      if (cache.size >= limit) cache.clear();
      cache.set(accept, answer);
    }
    return answer;
  };
}
