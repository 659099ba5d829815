import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { once } from 'node:events';
import { openApiDocumentPaths } from '../../src/api/operations/openapi.ts';
import type { BuildEnvironment } from '../../src/config/build-environment.ts';
import { jsonType, markdownType, plainTextType, xmlType } from '../../src/http/media.ts';
import { surfaceManifestFile, type SurfaceManifest } from '../../src/http/surface-manifest.ts';
import { locales, type Locale } from '../../src/site/locales.ts';
import type { PageRecord } from '../../src/site/records.ts';
import { sections } from '../../src/site/sections.ts';
import type { Site } from '../../src/site/site.ts';
import { llmsFullUrl, llmsUrl, sectionLlmsUrl, searchIndexUrl } from '../../src/site/urls.ts';
import { headerRules, notFoundHeaders, redirectRules } from './header-policy.ts';
import { renderLlmsTxt, renderSectionLlmsTxt, type LlmsOptions } from './llms.ts';
import { renderOpenApiDocument } from './openapi.ts';
import { pageHeadersOf } from './page-headers.ts';
import { buildSearchIndex } from './search-index.ts';
import { renderTwin } from './twin.ts';

// Writes the machine-readable surface into dist/: twins and llms-full.txt per locale
// (writeLocaleTwins, run in worker threads by twin-job.ts), then llms.txt, search JSON, the
// OpenAPI document, robots.txt, the 404 markdown body and the rules manifest (writeSurfaceIndexes).

export interface TwinStats {
  twins: number;
  twinBytes: number;
  llmsFullBytes: number;
}

/** The pages' twins and the locale's llms-full.txt, streamed in reading order (spec 2.7, 4.8). */
export async function writeLocaleTwins(locale: Locale, pages: AsyncIterable<PageRecord>, site: Site, outDir: string, siteUrl: string): Promise<TwinStats> {
  const stats: TwinStats = { twins: 0, twinBytes: 0, llmsFullBytes: 0 };
  const files = new LimitedWriter();
  const fullPath = join(outDir, llmsFullUrl(locale));
  await files.dirs.ensure(dirname(fullPath));
  const full = createWriteStream(fullPath);
  await writeChunk(
    full,
    `# Crucible (${locale}): every page\n\n> Each page follows as its markdown twin: YAML frontmatter with title, url and description, then the body.\n\n`,
  );
  for await (const page of pages) {
    const twin = renderTwin(page, site, siteUrl);
    await files.write(join(outDir, page.twinUrl), twin);
    await writeChunk(full, `${twin}\n`);
    stats.twins += 1;
    stats.twinBytes += Buffer.byteLength(twin);
  }
  full.end();
  await once(full, 'finish');
  stats.llmsFullBytes = full.bytesWritten;
  await files.done();
  return stats;
}

interface SurfaceIndexOptions extends LlmsOptions {
  /** The project root: the faucet networks of the OpenAPI document are read under it. */
  root: string;
  environment: BuildEnvironment;
}

/** Everything but the twins: llms.txt family, search JSON per locale, OpenAPI document, robots.txt, 404.md, manifest (returned). Astro's HTML pages must be in `outDir`. */
export async function writeSurfaceIndexes(site: Site, outDir: string, options: SurfaceIndexOptions): Promise<SurfaceManifest> {
  const files = new LimitedWriter();
  for (const locale of locales) {
    if (pagesInReadingOrder(site, locale).length > 0) {
      await files.write(join(outDir, llmsUrl(locale)), renderLlmsTxt(site, locale, options));
      for (const section of sections) {
        if (site.pagesIn(locale, section).length === 0) continue;
        await files.write(join(outDir, sectionLlmsUrl(locale, section)), renderSectionLlmsTxt(site, locale, section, options));
      }
    }
    const json = JSON.stringify(buildSearchIndex(site, locale, options.siteUrl));
    await files.write(join(outDir, searchIndexUrl(locale)), json);
  }
  const openApi = await renderOpenApiDocument(options.root, options.siteUrl);
  for (const path of openApiDocumentPaths) await files.write(join(outDir, path), openApi);
  await files.write(join(outDir, notFoundMarkdownPath), notFoundMarkdown(options.siteUrl));
  await files.write(join(outDir, 'robots.txt'), `User-agent: *\nAllow: /\n\nSitemap: ${new URL('/sitemap.xml', options.siteUrl).href}\n`);
  const pageHeaders = pageHeadersOf(outDir, new URL(options.siteUrl).origin);
  const manifest = surfaceManifest({ site: options.siteUrl, twins: twinsOf(site), pageHeaders, environment: options.environment });
  await files.write(join(outDir, surfaceManifestFile), JSON.stringify(manifest));
  await files.done();
  return manifest;
}

/** Homepage first, then sections in menu order, each in display order. */
export function pagesInReadingOrder(site: Site, locale: Locale): PageRecord[] {
  const home = site.home(locale);
  return [...(home ? [home] : []), ...sections.flatMap((section) => site.pagesIn(locale, section))];
}

export const notFoundMarkdownPath = '/404.md';

/** Body of every missing `.md` URL (spec 4.7): where to find what exists. */
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

async function writeChunk(stream: WriteStream, chunk: string): Promise<void> {
  if (!stream.write(chunk)) await once(stream, 'drain');
}

/** Bounded number of writes in flight: memory stays flat however many pages there are. */
class LimitedWriter {
  readonly dirs = new DirectoryMaker();
  private pending = new Set<Promise<void>>();
  async write(path: string, data: string): Promise<void> {
    while (this.pending.size >= 64) await Promise.race(this.pending);
    const task: Promise<void> = this.dirs
      .ensure(dirname(path))
      .then(() => writeFile(path, data))
      .finally(() => this.pending.delete(task));
    this.pending.add(task);
  }
  async done(): Promise<void> {
    await Promise.all(this.pending);
  }
}

/** mkdir -p, once per directory. */
class DirectoryMaker {
  private made = new Map<string, Promise<unknown>>();
  ensure(dir: string): Promise<unknown> {
    let made = this.made.get(dir);
    if (!made) this.made.set(dir, (made = mkdir(dir, { recursive: true })));
    return made;
  }
}
