import { relative, resolve, sep } from 'node:path';
import { getCollection, type CollectionEntry } from 'astro:content';
import { contentLocation } from './content-dir.ts';
import { pageRecordFromSource, type PageRecord } from './records.ts';
import { createSite, type Site } from './site.ts';

// The content model as Astro pages see it: the same records and Site as src/site/load.ts,
// built from Astro's collections so pages can also render their entries.

export interface AstroSite {
  site: Site;
  entryOf(page: PageRecord): CollectionEntry<'pages'>;
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
    const record = pageRecordFromSource({ relativePath, data: entry.data, body: entry.body ?? '', contentDir: shownDir });
    if (!record) continue;
    pages.push(record);
    entryByUrl.set(record.url, entry);
  }
  const apps = (await getCollection('apps')).map((entry) => ({ ...entry.data, slug: entry.id, sourcePath: entry.filePath ?? '' }));
  const networks = (await getCollection('networks')).map((entry) => ({ ...entry.data, id: entry.id, sourcePath: entry.filePath ?? '' }));
  const site = createSite({ pages, apps, networks });
  return {
    site,
    entryOf: (page) => {
      const entry = entryByUrl.get(page.url);
      if (!entry) throw new Error(`no collection entry for ${page.url}`);
      return entry;
    },
  };
}
