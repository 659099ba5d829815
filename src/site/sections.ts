/** Content sections (docs/website.md#markdown-twins). The order here is the order of menus and indexes. */
export const sections = ['blog', 'overviews', 'case-studies', 'support', 'terms-conditions', 'rpc'] as const;
export type Section = (typeof sections)[number];

export function isSection(value: string): value is Section {
  return (sections as readonly string[]).includes(value);
}

/** Sections that feed the search index (docs/website.md#search-index), with their SearchGroup label key. */
export const searchableSections = ['blog', 'overviews', 'case-studies'] as const satisfies readonly Section[];
