// Types only: the client bundle stays free of zod.
import type { SearchGroup, SearchItem } from '../api/schemas.ts';

export class SearchIndexError extends Error {
  override name = 'SearchIndexError';
}

/** Site-relative paths and http(s) URLs only: a `javascript:` link must never reach an href. */
export function isSafeUrl(url: string): boolean {
  if (url.startsWith('/')) return !url.startsWith('//') && !url.startsWith('/\\');
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseItem(value: unknown): SearchItem | null {
  if (!isRecord(value)) throw new SearchIndexError('a search item is not an object');
  const { title, url, description, icon, external } = value;
  if (typeof title !== 'string' || typeof url !== 'string') throw new SearchIndexError('a search item lacks a title or url');
  if (!isSafeUrl(url)) return null;
  const item: SearchItem = { title, url };
  if (typeof description === 'string' && description) item.description = description;
  if (typeof icon === 'string' && isSafeUrl(icon)) item.icon = icon;
  if (external === true) item.external = true;
  return item;
}

/** The body of `/api/search/{locale}` (docs/website.md#search-index), checked; items with unsafe URLs are dropped. */
export function parseSearchIndex(json: unknown): SearchGroup[] {
  if (!Array.isArray(json)) throw new SearchIndexError('the search index is not an array');
  return json.map((group): SearchGroup => {
    if (!isRecord(group) || typeof group.label !== 'string' || !Array.isArray(group.items)) {
      throw new SearchIndexError('a search group lacks a label or items');
    }
    return { label: group.label, items: group.items.map(parseItem).filter((item) => item !== null) };
  });
}

export async function fetchSearchIndex(url: string): Promise<SearchGroup[]> {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new SearchIndexError(`${url} answered ${response.status}`);
  return parseSearchIndex(await response.json());
}
