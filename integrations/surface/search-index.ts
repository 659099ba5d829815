import type { SearchGroup } from '../../src/api/schemas.ts';
import type { Locale } from '../../src/site/locales.ts';
import { searchableSections } from '../../src/site/sections.ts';
import type { Site } from '../../src/site/site.ts';
import { ui } from '../../src/site/ui.ts';
import { absoluteUrl } from '../../src/site/urls.ts';

/**
 * The whole search index of one locale (docs/website.md#search-index): that locale's blog posts, guides and
 * case studies (site-relative URLs) and the app listings (absolute URLs, external).
 * Empty groups are left out; there is no fallback to another locale.
 */
export function buildSearchIndex(site: Site, locale: Locale, siteUrl: string): SearchGroup[] {
  const strings = ui[locale];
  const groups: SearchGroup[] = searchableSections.map((section) => ({
    label: strings.sections[section],
    items: site.pagesIn(locale, section).map((page) => ({ title: page.title, url: page.url, description: page.description })),
  }));
  groups.push({
    label: strings.appsGroup,
    items: site.apps.map((app) => ({ title: app.name, url: app.url, description: app.description, icon: absoluteUrl(siteUrl, app.icon), external: true })),
  });
  return groups.filter((group) => group.items.length > 0);
}
