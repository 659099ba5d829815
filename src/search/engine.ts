import { Index } from 'flexsearch';
import type { SearchGroup, SearchItem } from './data.ts';
import { matchRanges, splitByRanges, type TextPart } from './highlight.ts';
import { queryTerms, searchTerms } from './text.ts';

export interface SearchHit {
  item: SearchItem;
  title: TextPart[];
  description: TextPart[];
}

export interface SearchHitGroup {
  label: string;
  hits: SearchHit[];
}

export interface SearchEngine {
  /** Hits grouped as in the index, groups in index order, best hits first; [] for a blank query. */
  search(query: string): SearchHitGroup[];
}

/** A long tail of weak hits helps nobody in a popup; the query narrows it. */
export const hitsPerGroup = 10;

/**
 * Builds the in-browser index over one locale's search groups (spec 4.3, 8.2: the index is
 * fetched whole and filtered on the client). Title and description are indexed together, the
 * title first, so title hits rank higher and a query may match across both.
 */
export function createSearchEngine(groups: readonly SearchGroup[], locale: string): SearchEngine {
  const entries = groups.flatMap((group, groupIndex) => group.items.map((item) => ({ groupIndex, item })));
  const index = new Index({ tokenize: 'forward', encode: (text: string) => searchTerms(text, locale) });
  entries.forEach(({ item }, id) => index.add(id, item.description ? `${item.title}\n${item.description}` : item.title));

  return {
    search(query) {
      const terms = queryTerms(query, locale);
      if (!terms.words.length && !terms.cjk.length) return [];
      const hits: SearchHit[][] = groups.map(() => []);
      for (const id of index.search(query, { limit: Math.max(entries.length, 1) })) {
        const { groupIndex, item } = entries[id as number]!;
        const groupHits = hits[groupIndex]!;
        if (groupHits.length >= hitsPerGroup) continue;
        groupHits.push({
          item,
          title: splitByRanges(item.title, matchRanges(item.title, terms, locale)),
          description: item.description ? splitByRanges(item.description, matchRanges(item.description, terms, locale)) : [],
        });
      }
      return groups.map((group, i) => ({ label: group.label, hits: hits[i]! })).filter((group) => group.hits.length > 0);
    },
  };
}
