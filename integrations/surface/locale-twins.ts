import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { splitFrontmatter } from '../../src/site/read-content.ts';
import type { Locale } from '../../src/site/locales.ts';
import type { PageRecord } from '../../src/site/records.ts';
import { llmsFullUrl } from '../../src/site/urls.ts';
import { LimitedWriter } from './limited-writer.ts';
import { renderTwin, type RpcTwinSections } from './twin.ts';

// A locale's `.md` twins and its llms-full.txt, as a twin worker thread (twin-worker.ts) writes
// them: page bodies are read from the source files a few pages ahead of the one being rendered,
// so no thread ever holds every body at once. Only twin workers load this module and what it
// imports (remark, YAML): a worker that computes page headers or moves files needs none of it.

export interface TwinStats {
  twins: number;
  twinBytes: number;
  llmsFullBytes: number;
  /** The files written, relative to the folder written into. */
  files: string[];
}

/** The pages' twins and the locale's llms-full.txt, streamed in reading order (docs/website.md#markdown-twins, docs/website.md#text-indexes). */
async function writeLocaleTwins(
  locale: Locale,
  pages: AsyncIterable<PageRecord>,
  rpcSections: RpcTwinSections,
  outDir: string,
  siteUrl: string,
): Promise<TwinStats> {
  const stats: TwinStats = { twins: 0, twinBytes: 0, llmsFullBytes: 0, files: [llmsFullUrl(locale).slice(1)] };
  const files = new LimitedWriter();
  const fullPath = join(outDir, llmsFullUrl(locale));
  await files.dirs.ensure(dirname(fullPath));
  const full = createWriteStream(fullPath);
  await writeChunk(
    full,
    `# Crucible (${locale}): every page\n\n> Each page follows as its markdown twin: YAML frontmatter with title, url and description, then the body.\n\n`,
  );
  for await (const page of pages) {
    const twin = renderTwin(page, siteUrl, rpcSections);
    await files.write(join(outDir, page.twinUrl), twin);
    stats.files.push(page.twinUrl.slice(1));
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

async function writeChunk(stream: WriteStream, chunk: string): Promise<void> {
  if (!stream.write(chunk)) await once(stream, 'drain');
}

const readAhead = 8;

/**
 * One locale's twins from pages without bodies (their files under `root` are read here); a
 * failure names the page's file. `afterPage` runs between pages (the worker samples its heap).
 */
export async function renderLocaleTwins(input: {
  root: string;
  locale: Locale;
  pages: PageRecord[];
  rpcSections: RpcTwinSections;
  outDir: string;
  siteUrl: string;
  afterPage: () => void;
}): Promise<TwinStats> {
  let current: PageRecord | undefined;
  async function* withBodies(pages: PageRecord[]): AsyncGenerator<PageRecord> {
    const read = (page: PageRecord) =>
      readFile(resolve(input.root, page.sourcePath), 'utf8').then((source) => ({ ...page, body: splitFrontmatter(source).body }));
    const pending = pages.slice(0, readAhead).map(read);
    for (let i = 0; i < pages.length; i++) {
      const page = await pending[i]!;
      if (i + readAhead < pages.length) pending.push(read(pages[i + readAhead]!));
      delete pending[i];
      current = page;
      yield page;
      input.afterPage();
    }
  }
  try {
    return await writeLocaleTwins(input.locale, withBodies(input.pages), input.rpcSections, input.outDir, input.siteUrl);
  } catch (error) {
    throw new Error(`${current?.sourcePath ?? input.locale}: ${(error as Error).message}`, { cause: error });
  }
}
