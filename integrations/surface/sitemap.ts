import { copyFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import sitemap, { type SitemapItem } from '@astrojs/sitemap';
import type { AstroIntegration } from 'astro';
import { defaultLocale, localeLang, locales, type Locale } from '../../src/site/locales.ts';
import { isSignedInDashboardPath } from '../../src/site/urls.ts';

// /sitemap.xml (docs/website.md#sitemap): @astrojs/sitemap writes the sitemap files from the pages Astro
// built; we add hreflang alternates for every translation plus x-default, and publish its
// index as /sitemap.xml.

/** Splits a site path into its locale and the path shared by all its translations. */
export function localeOfPath(path: string): { locale: Locale; rest: string } {
  const match = /^\/([^/]+)(\/.*)?$/.exec(path);
  const first = match?.[1];
  if (first && first !== defaultLocale && (locales as readonly string[]).includes(first)) {
    return { locale: first as Locale, rest: match?.[2] ?? '/' };
  }
  return { locale: defaultLocale, rest: path };
}

function pathForLocale(locale: Locale, rest: string): string {
  return locale === defaultLocale ? rest : `/${locale}${rest}`;
}

/** Canonical site path of a page Astro reports as built (`blog/x`, `ja/blog`, ''). */
export function canonicalPathOf(pathname: string, isIndex: boolean): string {
  const clean = `/${pathname.replace(/^\/+|\/+$/g, '')}`;
  return isIndex && clean !== '/' ? `${clean}/` : clean;
}

/**
 * Alternates for one URL: every locale that has a page at the same shared path, plus
 * x-default pointing at the English page when there is one.
 */
export function alternatesFor(path: string, builtPaths: Set<string>, siteUrl: string): SitemapItem['links'] {
  const { rest } = localeOfPath(path);
  const links = locales
    .filter((locale) => builtPaths.has(pathForLocale(locale, rest)))
    .map((locale) => ({ lang: localeLang[locale], url: new URL(pathForLocale(locale, rest), siteUrl).href }));
  if (links.length < 2) return [];
  const english = links.find((l) => l.lang === localeLang[defaultLocale]);
  if (english) links.push({ lang: 'x-default', url: english.url });
  return links;
}

/**
 * The sitemap integrations. `builtPaths` is filled by the surface integration's
 * astro:build:done, which runs before these (they are added after it).
 */
export function sitemapIntegrations(builtPaths: Set<string>, siteUrl: () => string, written: () => Promise<void>): AstroIntegration[] {
  const canonicalOf = (url: string) => {
    const path = new URL(url).pathname.replace(/\.html$/, '');
    // Astro reports directory pages (homes, section indexes) without their trailing slash.
    return builtPaths.has(`${path}/`) ? `${path}/` : path === '' ? '/' : path;
  };
  return [
    sitemap({
      entryLimit: 50_000,
      // The signed-in dashboard's shells are `noindex`: nothing there for a search engine.
      filter: (url) => builtPaths.has(canonicalOf(url)) && !isSignedInDashboardPath(canonicalOf(url)),
      serialize: (item) => {
        const path = canonicalOf(item.url);
        return { ...item, url: new URL(path, siteUrl()).href, links: alternatesFor(path, builtPaths, siteUrl()) };
      },
    }),
    {
      name: 'crucible-surface:sitemap-index',
      hooks: {
        'astro:build:done': async ({ dir }) => {
          await copyFile(fileURLToPath(new URL('sitemap-index.xml', dir)), fileURLToPath(new URL('sitemap.xml', dir)));
          await written();
        },
      },
    },
  ];
}
