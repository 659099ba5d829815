import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { splitFrontmatter } from '../../src/site/load.ts';
import type { PageRecord } from '../../src/site/records.ts';
import { createSite } from '../../src/site/site.ts';
import type { TwinTask, TwinWorkerData, TwinWorkerMessage } from './twin-job.ts';
import { writeLocaleTwins } from './write.ts';

// A worker thread of twin-job.ts: takes one locale at a time and writes its twins and
// llms-full.txt. Page bodies are read from the source files here, a few ahead of the page
// being rendered, so no thread ever holds every body at once.

const { root, siteUrl, outDir, networks } = workerData as TwinWorkerData;
// renderTwin looks up RPC pages' networks; no other part of the site is needed here.
const site = createSite({ pages: [], apps: [], networks });
const port = parentPort!;
const readAhead = 8;

/** The page being rendered, so a failure can name its file. */
let current: PageRecord | undefined;
/** This thread's largest heap between pages: flat if llms-full.txt really streams. */
let peakHeapBytes = 0;

async function* withBodies(pages: PageRecord[]): AsyncGenerator<PageRecord> {
  const read = (page: PageRecord) => readFile(resolve(root, page.sourcePath), 'utf8').then((source) => ({ ...page, body: splitFrontmatter(source).body }));
  const pending = pages.slice(0, readAhead).map(read);
  for (let i = 0; i < pages.length; i++) {
    const page = await pending[i]!;
    if (i + readAhead < pages.length) pending.push(read(pages[i + readAhead]!));
    delete pending[i];
    current = page;
    yield page;
    peakHeapBytes = Math.max(peakHeapBytes, getHeapStatistics().used_heap_size);
  }
}

port.on('message', async (task: TwinTask | null) => {
  if (task === null) return port.close();
  const started = performance.now();
  let message: TwinWorkerMessage;
  try {
    const stats = await writeLocaleTwins(task.locale, withBodies(task.pages), site, outDir, siteUrl);
    message = { type: 'done', locale: task.locale, stats, ms: performance.now() - started, peakHeapBytes };
  } catch (error) {
    message = { type: 'failed', locale: task.locale, message: `${current?.sourcePath ?? task.locale}: ${(error as Error).message}` };
  }
  port.postMessage(message);
});
