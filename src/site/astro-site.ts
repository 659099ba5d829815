import { getCollection } from 'astro:content';
import { contentLocation } from './content-dir.ts';
import { pageRecordFromSource, type PageRecord } from './records.ts';
import { createSite, type Site } from './site.ts';

// The content model as Astro pages see it: the same records and Site as src/site/read-content.ts,
// built from Astro's collections. Pages render their bodies from their files
// (src/site/markdown.ts), so these records carry none; only twins read the source.

let cached: Promise<Site> | undefined;

export function getSite(): Promise<Site> {
  cached ??= build();
  return cached;
}

async function build(): Promise<Site> {
  const { shown: shownDir } = contentLocation(process.cwd());
  const pages: PageRecord[] = [];
  for (const entry of await getCollection('pages')) {
    // The pages loader's id is the file's path under the content folder.
    const record = pageRecordFromSource({ relativePath: entry.id, data: entry.data, body: '', contentDir: shownDir });
    if (record) pages.push(record);
  }
  const apps = (await getCollection('apps')).map((entry) => ({ ...entry.data, slug: entry.id, sourcePath: entry.filePath ?? '' }));
  const networks = (await getCollection('networks')).map((entry) => ({ ...entry.data, id: entry.id, sourcePath: entry.filePath ?? '' }));
  return createSite({ pages, apps, networks });
}
