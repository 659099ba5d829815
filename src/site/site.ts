import { locales, type Locale } from './locales.ts';
import { sections, type Section } from './sections.ts';
import { comparePages, ContentError, type AppRecord, type ContentIssue, type NetworkRecord, type PageRecord } from './records.ts';
import { rpcReferenceSlug } from './urls.ts';

/** The whole content model: every page, app and network, indexed the ways the outputs need. */
export interface Site {
  pages: PageRecord[];
  apps: AppRecord[];
  networks: NetworkRecord[];
  /** Pages of one locale and section, in display order. */
  pagesIn(locale: Locale, section: Section): PageRecord[];
  home(locale: Locale): PageRecord | undefined;
  /** The page and its translations, keyed by locale. */
  translationsOf(page: PageRecord): Map<Locale, PageRecord>;
  network(id: string): NetworkRecord | undefined;
}

export function createSite(input: { pages: PageRecord[]; apps: AppRecord[]; networks: NetworkRecord[] }): Site {
  const networksById = new Map(input.networks.map((n) => [n.id, n]));
  const issues: ContentIssue[] = [];
  for (const page of input.pages) {
    // The method reference (written by `npm run docs:rpc`) is the one RPC page about every network.
    if (page.section === 'rpc' && !page.network && page.slug !== rpcReferenceSlug) {
      issues.push({ file: page.sourcePath, field: 'network', message: 'RPC pages must name their network' });
    }
    if (page.network && !networksById.has(page.network)) {
      issues.push({ file: page.sourcePath, field: 'network', message: `no network "${page.network}" in content/networks/` });
    }
  }
  if (issues.length) throw new ContentError(issues);

  const pages = [...input.pages].sort((a, b) => a.url.localeCompare(b.url));
  const bySection = new Map<string, PageRecord[]>();
  const homes = new Map<Locale, PageRecord>();
  const byTranslation = new Map<string, Map<Locale, PageRecord>>();
  for (const page of pages) {
    if (page.section === null) homes.set(page.locale, page);
    else {
      const key = `${page.locale}/${page.section}`;
      let list = bySection.get(key);
      if (!list) bySection.set(key, (list = []));
      list.push(page);
    }
    let group = byTranslation.get(page.translationKey);
    if (!group) byTranslation.set(page.translationKey, (group = new Map()));
    group.set(page.locale, page);
  }
  for (const list of bySection.values()) list.sort(comparePages);

  const orderedTranslations = (group: Map<Locale, PageRecord>) => new Map(locales.filter((l) => group.has(l)).map((l) => [l, group.get(l)!] as const));

  return {
    pages,
    apps: [...input.apps].sort((a, b) => a.name.localeCompare(b.name)),
    networks: [...input.networks].sort((a, b) => a.name.localeCompare(b.name)),
    pagesIn: (locale, section) => bySection.get(`${locale}/${section}`) ?? [],
    home: (locale) => homes.get(locale),
    translationsOf: (page) => orderedTranslations(byTranslation.get(page.translationKey) ?? new Map([[page.locale, page]])),
    network: (id) => networksById.get(id),
  };
}

/** Sections of a locale that have at least one page, in menu order. */
export function sectionsWithPages(site: Site, locale: Locale): Section[] {
  return sections.filter((s) => site.pagesIn(locale, s).length > 0);
}
