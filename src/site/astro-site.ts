import { relative, resolve, sep } from 'node:path';
import type { MarkdownHeading } from 'astro';
import { getCollection, render, type CollectionEntry } from 'astro:content';
import { contentLocation } from './content-dir.ts';
import { renderMarkdownPage } from './markdown.ts';
import { pageRecordFromSource, type PageRecord } from './records.ts';
import { createSite, type Site } from './site.ts';

// The content model as Astro pages see it: the same records and Site as src/site/load.ts,
// built from Astro's collections, and each page's body rendered for its HTML page.

/** A page's body as HTML (`.md`), or as Astro's component for its MDX module (`.mdx`). */
export type RenderedBody = { headings: MarkdownHeading[] } & ({ html: string; Content?: undefined } | { Content: Awaited<ReturnType<typeof render>>['Content']; html?: undefined });

export interface AstroSite {
  site: Site;
  renderBody(page: PageRecord): Promise<RenderedBody>;
}

let cached: Promise<AstroSite> | undefined;

export function getSite(): Promise<AstroSite> {
  cached ??= build();
  return cached;
}

async function build(): Promise<AstroSite> {
  const root = process.cwd();
  const { absolute: base, shown: shownDir } = contentLocation(root);
  const entries = await getCollection('pages');
  const entryByUrl = new Map<string, CollectionEntry<'pages'>>();
  const pages: PageRecord[] = [];
  for (const entry of entries) {
    const relativePath = relative(base, resolve(root, entry.filePath ?? '')).split(sep).join('/');
    // Records here carry no body: bodies are rendered from their files (renderBody), and only twins read the source.
    const record = pageRecordFromSource({ relativePath, data: entry.data, body: '', contentDir: shownDir });
    if (!record) continue;
    pages.push(record);
    entryByUrl.set(record.url, entry);
  }
  const apps = (await getCollection('apps')).map((entry) => ({ ...entry.data, slug: entry.id, sourcePath: entry.filePath ?? '' }));
  const networks = (await getCollection('networks')).map((entry) => ({ ...entry.data, id: entry.id, sourcePath: entry.filePath ?? '' }));
  const site = createSite({ pages, apps, networks });
  return {
    site,
    async renderBody(page) {
      const entry = entryByUrl.get(page.url);
      if (!entry?.filePath) throw new Error(`no collection entry for ${page.url}`);
      if (page.format === 'md') return renderMarkdownPage(entry.filePath);
      const { Content, headings } = await render(entry);
      return { Content, headings };
    },
  };
}
