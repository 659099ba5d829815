import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import matter from 'gray-matter';
import pLimit from 'p-limit';
import { glob } from 'tinyglobby';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { appData, networkAliasData, networkData } from './schema.ts';
import { createNetworkNames, NETWORK_ALIASES_FILE, networkFilesGlob, type NetworkNames } from './network-names.ts';
import { ContentError, issuesFromZod, pageRecordFromSource, type AppRecord, type ContentIssue, type NetworkRecord, type PageRecord } from './records.ts';
import { contentLocation } from './content-dir.ts';
import { createSite, type Site } from './site.ts';

// The I/O edge of the content model: reads content/ from disk. Astro reads the same files
// through src/content.config.ts; both validate with src/site/schema.ts.

export const pageGlob = ['*/index.{md,mdx}', '*/*/*.{md,mdx}', '!apps/**', '!networks/**'];

const yamlEngine = { parse: (source: string) => parseYaml(source) as object, stringify: () => '' };

/** Frontmatter data and body of a page file. Throws on invalid YAML. */
export function splitFrontmatter(source: string): { data: unknown; body: string } {
  // An options object also keeps gray-matter from caching every file it has read.
  const { data, content } = matter(source, { engines: { yaml: yamlEngine } });
  // The parser's strings are slices of the file's text, so keeping a page's title would keep the
  // whole file alive (about 55 MB of sources at 10,000 pages); a copy holds its own strings.
  return { data: structuredClone(data), body: content };
}

/** The site from the content folder under `rootDir` (`dir`: another than the configured one). */
export async function loadSite(rootDir: string, dir?: string): Promise<Site> {
  const { absolute: contentDir, shown: shownDir } = contentLocation(rootDir, dir);
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
  await pLimit(64).map(pageFiles.sort(), async (relativePath) => {
    const source = await readFile(join(contentDir, relativePath), 'utf8');
    const parsed = collect(() => {
      try {
        return splitFrontmatter(source);
      } catch (error) {
        throw new ContentError([{ file: `${shownDir}/${relativePath}`, field: '', message: `frontmatter is not valid YAML: ${(error as Error).message}` }]);
      }
    });
    if (!parsed) return;
    const record = collect(() => pageRecordFromSource({ relativePath, data: parsed.data, body: parsed.body, contentDir: shownDir }));
    if (record) pages.push(record);
  });

  const apps = await loadDataFiles(contentDir, shownDir, 'apps', appData, issues, (data, slug, sourcePath): AppRecord => ({ ...data, slug, sourcePath }));
  const networks = await loadNetworkFiles(contentDir, shownDir, issues);

  if (issues.length) throw new ContentError(issues);
  return createSite({ pages, apps, networks });
}

/** Only the network files (content/networks/*.yaml), validated as loadSite validates them: the faucet's start. */
export async function loadNetworks(rootDir: string): Promise<NetworkRecord[]> {
  const { absolute: contentDir, shown: shownDir } = contentLocation(rootDir);
  const issues: ContentIssue[] = [];
  const networks = await loadNetworkFiles(contentDir, shownDir, issues);
  if (issues.length) throw new ContentError(issues);
  return networks;
}

function loadNetworkFiles(contentDir: string, shownDir: string, issues: ContentIssue[]): Promise<NetworkRecord[]> {
  return loadDataFiles(contentDir, shownDir, 'networks', networkData, issues, (data, id, sourcePath): NetworkRecord => ({ ...data, id, sourcePath }));
}

/** Every name a network answers to: the ids of content/networks/ and the aliases of its table (optional). */
export async function loadNetworkNames(rootDir: string): Promise<NetworkNames> {
  const { absolute: contentDir, shown: shownDir } = contentLocation(rootDir);
  const issues: ContentIssue[] = [];
  const networks = await loadNetworkFiles(contentDir, shownDir, issues);
  const sourcePath = `${shownDir}/${NETWORK_ALIASES_FILE}`;
  const path = join(contentDir, NETWORK_ALIASES_FILE);
  let aliases = {};
  if (existsSync(path)) {
    const parsed = networkAliasData.safeParse(await readYaml(path, sourcePath, issues));
    if (parsed.success) aliases = parsed.data;
    else issues.push(...issuesFromZod(sourcePath, parsed.error));
  }
  if (issues.length) throw new ContentError(issues);
  return createNetworkNames(networks, aliases, sourcePath);
}

/** Every `<folder>/<name>.yaml`, validated; the file name becomes the record's key. */
async function loadDataFiles<Schema extends z.ZodType, Record>(
  contentDir: string,
  shownDir: string,
  folder: string,
  schema: Schema,
  issues: ContentIssue[],
  toRecord: (data: z.infer<Schema>, name: string, sourcePath: string) => Record,
): Promise<Record[]> {
  const records: Record[] = [];
  const files = folder === 'networks' ? networkFilesGlob : `${folder}/*.yaml`;
  for (const file of (await glob(files, { cwd: contentDir })).sort()) {
    const sourcePath = `${shownDir}/${file}`;
    const parsed = schema.safeParse(await readYaml(join(contentDir, file), sourcePath, issues));
    if (!parsed.success) issues.push(...issuesFromZod(sourcePath, parsed.error));
    else records.push(toRecord(parsed.data, file.slice(folder.length + 1, -'.yaml'.length), sourcePath));
  }
  return records;
}

async function readYaml(path: string, sourcePath: string, issues: ContentIssue[]): Promise<unknown> {
  try {
    return parseYaml(await readFile(path, 'utf8'));
  } catch (error) {
    issues.push({ file: sourcePath, field: '', message: `not valid YAML: ${(error as Error).message}` });
    return undefined;
  }
}
