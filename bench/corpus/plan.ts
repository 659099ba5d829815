import { locales as allLocales, type Locale } from '../../src/site/locales.ts';
import type { Section } from '../../src/site/sections.ts';

// How N pages are spread over locales and sections. Page k of a section is the same topic in
// every locale, so a locale with fewer pages translates a prefix of the section. By default all
// locales are equal: every page exists in all seven, so a peer that builds fallback pages for
// untranslated ones (Starlight does) builds exactly the same page set.

export type ProseSection = Exclude<Section, 'rpc'>;

export interface CorpusShape {
  /** Total pages, homepages and RPC pages included. */
  pages: number;
  seed: string;
  /** Relative size of each locale; locales left out get no pages. */
  localeWeights: Partial<Record<Locale, number>>;
  /** Relative size of each prose section; RPC pages are one per network per locale. */
  sectionWeights: Partial<Record<ProseSection, number>>;
  /** Networks copied from content/networks/ (each gets an RPC page per locale). */
  networks: number;
  apps: number;
}

const defaultLocaleWeights: Record<Locale, number> = { en: 1, ja: 1, es: 1, ko: 1, 'zh-Hans': 1, 'zh-Hant': 1, 'pt-BR': 1 };
const defaultSectionWeights: Record<ProseSection, number> = { blog: 0.35, overviews: 0.32, 'case-studies': 0.08, support: 0.2, 'terms-conditions': 0.05 };

/** The default shape for N pages: all seven locales and six sections. */
export function siteShape(pages: number, seed = 'crucible'): CorpusShape {
  return {
    pages,
    seed,
    localeWeights: defaultLocaleWeights,
    sectionWeights: defaultSectionWeights,
    networks: Math.min(23, Math.max(2, Math.round(pages / 400))),
    apps: Math.min(300, Math.max(10, Math.round(pages / 50))),
  };
}

export interface CorpusPlan {
  locales: Locale[];
  /** Prose pages per `${locale}/${section}`. */
  counts: Map<string, number>;
}

export function planCorpus(shape: CorpusShape, networkCount: number): CorpusPlan {
  const locales = allLocales.filter((l) => (shape.localeWeights[l] ?? 0) > 0);
  const sections = (Object.keys(shape.sectionWeights) as ProseSection[]).filter((s) => (shape.sectionWeights[s] ?? 0) > 0);
  const prose = shape.pages - locales.length - networkCount * locales.length;
  if (prose < 0) throw new Error(`--pages ${shape.pages} is too small for ${locales.length} homepages and ${networkCount * locales.length} RPC pages`);
  const cells = locales.flatMap((locale) =>
    sections.map((section) => ({ key: `${locale}/${section}`, weight: shape.localeWeights[locale]! * shape.sectionWeights[section]! })),
  );
  return { locales, counts: apportion(prose, cells) };
}

/** Largest-remainder apportionment: the counts sum to exactly `total`. */
function apportion(total: number, cells: Array<{ key: string; weight: number }>): Map<string, number> {
  const sum = cells.reduce((s, c) => s + c.weight, 0);
  const exact = cells.map((c) => ({ key: c.key, share: (total * c.weight) / sum }));
  const counts = new Map(exact.map((c) => [c.key, Math.floor(c.share)]));
  let left = total - [...counts.values()].reduce((s, n) => s + n, 0);
  for (const c of [...exact].sort((a, b) => b.share - Math.floor(b.share) - (a.share - Math.floor(a.share)) || a.key.localeCompare(b.key))) {
    if (left-- <= 0) break;
    counts.set(c.key, counts.get(c.key)! + 1);
  }
  return counts;
}
