import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openApiDocumentPaths } from '../../src/api/operations/openapi.ts';
import type { BuildEnvironment } from '../../src/config/build-environment.ts';
import { jsonType, markdownType, plainTextType, xmlType } from '../../src/http/media.ts';
import { surfaceManifestFile, type SurfaceManifest } from '../../src/http/surface-manifest.ts';
import { locales, type Locale } from '../../src/site/locales.ts';
import type { PageRecord } from '../../src/site/records.ts';
import { sections } from '../../src/site/sections.ts';
import type { Site } from '../../src/site/site.ts';
import { llmsUrl, sectionLlmsUrl, searchIndexUrl } from '../../src/site/urls.ts';
import { headerRules, notFoundHeaders, redirectRules } from './header-policy.ts';
import { LimitedWriter } from './limited-writer.ts';
import { renderLlmsTxt, renderSectionLlmsTxt, type LlmsOptions } from './llms.ts';
import { renderOpenApiDocument } from './openapi.ts';
import { buildSearchIndex } from './search-index.ts';

// Writes the machine-readable surface into dist/ besides the twins and llms-full.txt files
// (locale-twins.ts, run in worker threads by twin-job.ts): llms.txt, search JSON, the OpenAPI
// document, robots.txt and the 404 markdown body (writeSurfaceIndexes), then the rules
// manifest once every page's headers are known (writeSurfaceManifest).

interface SurfaceIndexOptions extends LlmsOptions {
  /** The project root: the faucet networks of the OpenAPI document are read under it. */
  root: string;
}

/** Everything but the twins and the manifest: llms.txt family, search JSON per locale, OpenAPI document, robots.txt, 404.md. Returns the files written, relative to `outDir`. */
export async function writeSurfaceIndexes(site: Site, outDir: string, options: SurfaceIndexOptions): Promise<string[]> {
  const files = new LimitedWriter();
  const written: string[] = [];
  /** `path` is a site path (`/llms.txt`). */
  const write = (path: string, data: string) => {
    written.push(path.slice(1));
    return files.write(join(outDir, path), data);
  };
  for (const locale of locales) {
    if (pagesInReadingOrder(site, locale).length > 0) {
      await write(llmsUrl(locale), renderLlmsTxt(site, locale, options));
      for (const section of sections) {
        if (site.pagesIn(locale, section).length === 0) continue;
        await write(sectionLlmsUrl(locale, section), renderSectionLlmsTxt(site, locale, section, options));
      }
    }
    const json = JSON.stringify(buildSearchIndex(site, locale, options.siteUrl));
    await write(searchIndexUrl(locale), json);
  }
  const openApi = await renderOpenApiDocument(options.root, options.siteUrl);
  for (const path of openApiDocumentPaths) await write(path, openApi);
  await write(notFoundMarkdownPath, notFoundMarkdown(options.siteUrl));
  await write('/robots.txt', `User-agent: *\nAllow: /\n\nSitemap: ${new URL('/sitemap.xml', options.siteUrl).href}\n`);
  await files.done();
  return written;
}

/** The rules manifest of the site built in `outDir` (returned), once its pages' headers are known. */
export async function writeSurfaceManifest(
  site: Site,
  outDir: string,
  input: { siteUrl: string; environment: BuildEnvironment; pageHeaders: SurfaceManifest['pageHeaders'] },
): Promise<SurfaceManifest> {
  const manifest = surfaceManifest({ site: input.siteUrl, twins: twinsOf(site), pageHeaders: input.pageHeaders, environment: input.environment });
  await writeFile(join(outDir, surfaceManifestFile), JSON.stringify(manifest));
  return manifest;
}

/** Homepage first, then sections in menu order, each in display order. */
export function pagesInReadingOrder(site: Site, locale: Locale): PageRecord[] {
  const home = site.home(locale);
  return [...(home ? [home] : []), ...sections.flatMap((section) => site.pagesIn(locale, section))];
}

export const notFoundMarkdownPath = '/404.md';

/** Body of every missing `.md` URL (docs/website.md#markdown-twins): where to find what exists. */
export function notFoundMarkdown(siteUrl: string): string {
  const at = (path: string) => new URL(path, siteUrl).href;
  return [
    '---',
    'title: Page not found',
    'description: There is no markdown page at this address.',
    '---',
    '',
    '# Page not found',
    '',
    'There is no markdown page at this address. Every page that exists is listed in:',
    '',
    `- [llms.txt](${at('/llms.txt')}): every page by section, with its \`.md\` URL and a one-sentence description`,
    `- [sitemap.xml](${at('/sitemap.xml')}): every HTML page`,
    '',
  ].join('\n');
}

const twinsOf = (site: Site) => Object.fromEntries(site.pages.map((page) => [page.twinUrl, page.url]));

/** The rules manifest of a dist/ with these twins and pages: the rest is the site's header policy (header-policy.ts). */
export function surfaceManifest(input: Pick<SurfaceManifest, 'twins' | 'pageHeaders' | 'environment'> & { site: string }): SurfaceManifest {
  return {
    version: 2,
    site: new URL(input.site).origin,
    twins: input.twins,
    types: [
      { pattern: '/api/search/*', contentType: jsonType },
      { pattern: '/**/*.md', contentType: markdownType },
      { pattern: '/**/*.txt', contentType: plainTextType },
      { pattern: '/**/*.xml', contentType: xmlType },
    ],
    headers: headerRules,
    pageHeaders: input.pageHeaders,
    notFound: { html: '404.html', markdown: notFoundMarkdownPath.slice(1), headers: notFoundHeaders },
    redirects: redirectRules,
    ...(input.environment ? { environment: input.environment } : {}),
  };
}
