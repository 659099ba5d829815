/** Content sections (spec 4.7). The order here is the order of menus and indexes. */
export const sections = ['blog', 'overviews', 'case-studies', 'support', 'terms-conditions', 'rpc'] as const;
export type Section = (typeof sections)[number];

export function isSection(value: string): value is Section {
  return (sections as readonly string[]).includes(value);
}

/** Sections that feed the search index (spec 4.3), with their SearchGroup label key. */
export const searchableSections = ['blog', 'overviews', 'case-studies'] as const satisfies readonly Section[];
