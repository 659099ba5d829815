import { copyFile, mkdir, readdir, rename, rm, unlink } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { Worker } from 'node:worker_threads';
import { locales, type Locale } from '../../src/site/locales.ts';
import type { NetworkRecord, PageRecord } from '../../src/site/records.ts';
import type { Site } from '../../src/site/site.ts';
import { pagesInReadingOrder, type TwinStats } from './write.ts';

// Renders the `.md` twins and llms-full.txt files in worker threads, started at
// astro:config:setup so the work overlaps Astro's own build (content sync, bundling,
// rendering) instead of following it. Twins are parsed and re-serialised with remark, which
// is most of the surface's cost, and need nothing from Astro, only the content files.
// Astro empties dist/ before it renders, so workers write into a staging folder in the cache
// directory and finish() moves the files into dist/ at astro:build:done.

/** One locale's pages in reading order, bodies left out (the worker reads them from disk). */
export interface TwinTask {
  locale: Locale;
  pages: PageRecord[];
}

export interface TwinWorkerData {
  root: string;
  siteUrl: string;
  outDir: string;
  networks: NetworkRecord[];
}

export type TwinWorkerMessage =
  | { type: 'done'; locale: Locale; stats: TwinStats; ms: number; peakHeapBytes: number }
  | { type: 'failed'; locale: Locale; message: string };

export interface TwinJobResult extends TwinStats {
  /** Time the workers spent rendering, summed over workers. */
  workMs: number;
  workers: number;
  /** Largest heap of any worker thread: stays flat however large llms-full.txt grows. */
  peakWorkerHeapBytes: number;
}

export interface TwinJob {
  /** Lets up to `workers` threads take the remaining locales (Astro has finished with the CPU). */
  boost(workers: number): void;
  /** Waits for every locale, then moves the staged files into `outDir`. */
  finish(outDir: string): Promise<TwinJobResult>;
}

export function startTwinJob(input: { root: string; site: Site; siteUrl: string; stagingDir: string; workers: number }): TwinJob {
  const queue: TwinTask[] = locales
    .map((locale) => ({ locale, pages: pagesInReadingOrder(input.site, locale) }))
    .filter((task) => task.pages.length > 0)
    // Largest first, so the last locale to finish is a small one.
    .sort((a, b) => b.pages.length - a.pages.length);
  const result: TwinJobResult = { twins: 0, twinBytes: 0, llmsFullBytes: 0, workMs: 0, workers: 0, peakWorkerHeapBytes: 0 };
  const live = new Set<Worker>();
  /** Workers that have not taken their first locale yet. */
  let starting = 0;
  let failure: Error | undefined;
  let settle!: () => void;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  const staged = rm(input.stagingDir, { recursive: true, force: true });
  const workerData: TwinWorkerData = { root: input.root, siteUrl: input.siteUrl, outDir: input.stagingDir, networks: input.site.networks };

  const spawn = () => {
    starting += 1;
    result.workers += 1;
    const worker = new Worker(new URL('./twin-worker.ts', import.meta.url), { workerData });
    live.add(worker);
    worker.unref(); // a build that fails elsewhere does not wait for the twins; finish() refs them
    const next = () => worker.postMessage(failure ? null : (queue.shift() ?? null));
    worker.on('message', (message: TwinWorkerMessage) => {
      if (message.type === 'failed') failure ??= new Error(`twin rendering failed: ${message.message}`);
      else {
        result.twins += message.stats.twins;
        result.twinBytes += message.stats.twinBytes;
        result.llmsFullBytes += message.stats.llmsFullBytes;
        result.workMs += message.ms;
        result.peakWorkerHeapBytes = Math.max(result.peakWorkerHeapBytes, message.peakHeapBytes);
      }
      next();
    });
    worker.on('error', (error) => (failure ??= error));
    worker.on('exit', () => {
      live.delete(worker);
      if (live.size === 0) settle();
    });
    void staged.then(() => {
      starting -= 1;
      next();
    });
  };

  const boost = (workers: number) => {
    while (live.size < workers && queue.length > starting) spawn();
  };
  if (queue.length === 0) settle();
  else boost(Math.max(1, input.workers));

  return {
    boost,
    async finish(outDir) {
      for (const worker of live) worker.ref();
      await settled;
      if (failure) throw failure;
      await moveTree(input.stagingDir, outDir);
      return result;
    },
  };
}

/** Moves every file under `from` to the same place under `to`, then removes `from`. */
async function moveTree(from: string, to: string): Promise<void> {
  const made = new Set<string>();
  for (const dirent of await readdir(from, { recursive: true, withFileTypes: true })) {
    if (!dirent.isFile()) continue;
    const source = join(dirent.parentPath, dirent.name);
    const target = join(to, relative(from, source));
    const dir = dirname(target);
    if (!made.has(dir)) {
      await mkdir(dir, { recursive: true });
      made.add(dir);
    }
    await rename(source, target).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EXDEV') throw error;
      // The cache directory is on another file system: copy instead.
      await copyFile(source, target);
      await unlink(source);
    });
  }
  await rm(from, { recursive: true, force: true });
}
