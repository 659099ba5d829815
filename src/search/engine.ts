import { Index, Resolver } from 'flexsearch';
import type { SearchGroup, SearchItem } from '../api/schemas.ts';
import { matchRanges, splitByRanges, type TextPart } from './highlight.ts';
import { indexTerms, queryTerms, type QueryTerms } from './text.ts';

export { prepareTextAnalysis } from './text.ts';

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

// Terms reach flexsearch already analysed (src/search/text.ts): an entry's as an array, which
// flexsearch hands to the encoder untouched (it does not force content to a string), and a
// query's one term at a time.
const analysed = (content: string | string[]) => (typeof content === 'string' ? [content] : content);

/**
 * Builds the in-browser index over one locale's search groups (docs/website.md#search-index: the index is
 * fetched whole and filtered on the client).
 *
 * Two flexsearch indexes: `documents` maps each term to the entries holding it, title terms
 * first so title hits rank higher; `vocabulary` holds each distinct term once with all its
 * prefixes. A query term is expanded over the vocabulary to the terms it begins, and an entry
 * must hold one of them for every query term. Indexing every prefix of every term of every
 * entry instead (flexsearch's forward tokenization on the entries) took several times longer,
 * and building the index is what the first result waits for.
 */
export function createSearchEngine(groups: readonly SearchGroup[]): SearchEngine {
  const entries = groups.flatMap((group, groupIndex) => group.items.map((item) => ({ groupIndex, item })));
  const documents = new Index({ tokenize: 'strict', encode: analysed as (content: string) => string[] });
  const vocabulary = new Index({ tokenize: 'forward', encode: analysed as (content: string) => string[] });
  const vocabularyTerms: string[] = [];
  const termIds = new Map<string, number>();

  entries.forEach(({ item }, id) => {
    const entryTerms = indexTerms(item.description ? `${item.title}\n${item.description}` : item.title);
    documents.add(id, entryTerms as unknown as string);
    for (const term of entryTerms) {
      if (termIds.has(term)) continue;
      termIds.set(term, vocabularyTerms.length);
      vocabulary.add(vocabularyTerms.length, term);
      vocabularyTerms.push(term);
    }
  });

  /** Entry ids holding, for every query term, a term it begins; best first. */
  function matchingIds(query: QueryTerms): number[] {
    const clauses: string[][] = [];
    for (const term of [...query.words, ...query.cjk]) {
      const expansions = vocabulary.search(term, { limit: vocabularyTerms.length }) as number[];
      if (!expansions.length) return [];
      clauses.push(expansions.map((termId) => vocabularyTerms[termId]!));
    }
    const [first, ...rest] = clauses;
    if (!first) return [];
    const anyOf = (alternatives: string[]) => alternatives.map((term) => ({ query: term }));
    let found = new Resolver({ index: documents, query: first[0]! });
    if (first.length > 1) found = found.or(...anyOf(first.slice(1)));
    if (rest.length) found = found.and(...rest.map((alternatives) => ({ or: anyOf(alternatives) })));
    return found.resolve({ limit: entries.length }) as number[];
  }

  return {
    search(query) {
      const terms = queryTerms(query);
      const hits: SearchHit[][] = groups.map(() => []);
      for (const id of matchingIds(terms)) {
        const { groupIndex, item } = entries[id]!;
        const groupHits = hits[groupIndex]!;
        if (groupHits.length >= hitsPerGroup) continue;
        groupHits.push({
          item,
          title: splitByRanges(item.title, matchRanges(item.title, terms)),
          description: item.description ? splitByRanges(item.description, matchRanges(item.description, terms)) : [],
        });
      }
      return groups.map((group, i) => ({ label: group.label, hits: hits[i]! })).filter((group) => group.hits.length > 0);
    },
  };
}
