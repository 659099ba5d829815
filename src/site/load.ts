import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import matter from 'gray-matter';
import { glob } from 'tinyglobby';
import { parse as parseYaml } from 'yaml';
import { appData, networkData } from './schema.ts';
import { ContentError, issuesFromZod, pageRecordFromSource, type AppRecord, type ContentIssue, type NetworkRecord, type PageRecord } from './records.ts';
import { contentLocation } from './content-dir.ts';
import { createSite, type Site } from './site.ts';

// The I/O edge of the content model: reads content/ from disk. Astro reads the same files
// through src/content.config.ts; both validate with src/site/schema.ts.

export const pageGlob = ['*/index.{md,mdx}', '*/*/*.{md,mdx}', '!apps/**', '!networks/**'];

const yamlEngine = { parse: (source: string) => parseYaml(source) as object, stringify: () => '' };

export async function loadSite(rootDir: string): Promise<Site> {
  const { absolute: contentDir, shown: shownDir } = contentLocation(rootDir);
  const issues: ContentIssue[] = [];
  const collect = <T>(fn: () => T): T | undefined => {
    try {
      return fn();
    } catch (error) {
      if (error instanceof ContentError) issues.push(...error.issues);
      else throw error;
      return undefined;
    }
  };

  const pageFiles = await glob(pageGlob, { cwd: contentDir });
  const pages: PageRecord[] = [];
  await forEachLimited(pageFiles.sort(), 64, async (relativePath) => {
    const source = await readFile(join(contentDir, relativePath), 'utf8');
    const parsed = collect(() => {
      try {
        // An options object also keeps gray-matter from caching every file it has read.
        return matter(source, { engines: { yaml: yamlEngine } });
      } catch (error) {
        throw new ContentError([{ file: `${shownDir}/${relativePath}`, field: '', message: `frontmatter is not valid YAML: ${(error as Error).message}` }]);
      }
    });
    if (!parsed) return;
    const record = collect(() => pageRecordFromSource({ relativePath, data: parsed.data, body: parsed.content, contentDir: shownDir }));
    if (record) pages.push(record);
  });

  const apps: AppRecord[] = [];
  for (const file of (await glob('apps/*.yaml', { cwd: contentDir })).sort()) {
    const sourcePath = `${shownDir}/${file}`;
    const data = await readYaml(join(contentDir, file), sourcePath, issues);
    const parsed = appData.safeParse(data);
    if (!parsed.success) issues.push(...issuesFromZod(sourcePath, parsed.error));
    else apps.push({ ...parsed.data, slug: file.slice('apps/'.length, -'.yaml'.length), sourcePath });
  }

  const networks: NetworkRecord[] = [];
  for (const file of (await glob('networks/*.yaml', { cwd: contentDir })).sort()) {
    const sourcePath = `${shownDir}/${file}`;
    const data = await readYaml(join(contentDir, file), sourcePath, issues);
    const parsed = networkData.safeParse(data);
    if (!parsed.success) issues.push(...issuesFromZod(sourcePath, parsed.error));
    else networks.push({ ...parsed.data, id: file.slice('networks/'.length, -'.yaml'.length), sourcePath });
  }

  if (issues.length) throw new ContentError(issues);
  return createSite({ pages, apps, networks });
}

async function readYaml(path: string, sourcePath: string, issues: ContentIssue[]): Promise<unknown> {
  try {
    return parseYaml(await readFile(path, 'utf8'));
  } catch (error) {
    issues.push({ file: sourcePath, field: '', message: `not valid YAML: ${(error as Error).message}` });
    return undefined;
  }
}

async function forEachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
