import { describe, expect, it } from 'vitest';
import { documentTitle } from '../../../src/site/document-title.ts';
import { loadSite } from '../../../src/site/read-content.ts';
import { locales } from '../../../src/site/locales.ts';
import { projectRoot } from '../../support/build.ts';

// Each page's <title> names the site once: a home page's own title already does.

describe('documentTitle', () => {
  it('names Crucible once in every locale’s home page title', async () => {
    const site = await loadSite(projectRoot);
    for (const locale of locales) {
      const home = site.pages.find((page) => page.locale === locale && page.section === null);
      expect(home, locale).toBeDefined();
      const title = documentTitle(home!.title, home!.url, locale);
      expect(title.match(/Crucible/g), `${locale}: ${title}`).toHaveLength(1);
    }
  });

  it('follows any other page’s title with the site’s name', () => {
    expect(documentTitle('Guides', '/ja/overviews/', 'ja')).toBe('Guides · Crucible');
    expect(documentTitle('Faucets', '/faucets/', 'en')).toBe('Faucets · Crucible');
    expect(documentTitle('はじめに', '/ja/overviews/start', 'ja')).toBe('はじめに · Crucible');
  });
});
