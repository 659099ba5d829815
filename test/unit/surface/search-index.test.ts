import { describe, expect, it } from 'vitest';
import { buildSearchIndex } from '../../../integrations/surface/search-index.ts';
import { siteUrl, smallSite } from '../../support/small-site.ts';

describe('buildSearchIndex', () => {
  it('groups blog posts, guides, case studies and apps; leaves empty groups out (docs/website.md#search-index)', () => {
    const groups = buildSearchIndex(smallSite(), 'en', siteUrl);
    expect(groups.map((g) => g.label)).toEqual(['Blog Posts', 'Guides', 'Apps']);
    expect(groups[0]!.items).toEqual([{ title: 'First post', url: '/blog/first-post', description: 'The first post.' }]);
    expect(groups[2]!.items).toEqual([
      { title: 'Zeta', url: 'https://zeta.example', description: 'A wallet.', icon: 'https://crucible.example/apps/zeta.svg', external: true },
    ]);
  });

  it('never falls back to English pages', () => {
    const groups = buildSearchIndex(smallSite(), 'ja', siteUrl);
    const pages = groups.flatMap((g) => g.items).filter((i) => !i.external);
    expect(pages.map((i) => i.url)).toEqual(['/ja/overviews/start']);
  });
});
