import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { SurfaceManifest } from '../../src/http/surface-manifest.ts';
import { locales, type Locale } from '../../src/site/locales.ts';
import type { PageRecord } from '../../src/site/records.ts';
import type { Site } from '../../src/site/site.ts';
import type { TwinStats } from './locale-twins.ts';
import { joinPageHeaderRuns, pageHeaderRun, type PageHeaderRun } from './page-headers.ts';
import { moveStagedFiles } from './staging.ts';
import type { RpcTwinSections } from './twin.ts';
import { pagesInReadingOrder } from './write.ts';

// Renders the `.md` twins and llms-full.txt files in worker threads, started at
// astro:config:setup so the work overlaps Astro's own build (content sync, bundling,
// rendering) instead of following it. Twins are parsed and re-serialised with remark, which
// is most of the surface's cost, and need nothing from Astro, only the content files.
// Astro empties dist/ when it starts bundling, so the locales begun before that are written into
// a staging folder in the cache directory; once Astro has (astro:build:setup), the next locales
// go straight into dist/ and a worker moves the staged files in. At astro:build:done, the
// threads still at work also read HTML pages for their headers, in runs.

/** One locale's pages in reading order, bodies left out (the worker reads them from disk), and the folder to write into. */
export interface TwinTask {
  kind: 'twins';
  locale: Locale;
  pages: PageRecord[];
  outDir: string;
}

/** Staged files to move into dist/. */
interface MoveTask {
  kind: 'move';
  from: string;
  to: string;
}

/** A run of HTML files of dist/ (sorted) whose headers a worker computes; `run` is its place among the runs. */
interface PageHeadersTask {
  kind: 'pageHeaders';
  run: number;
  distDir: string;
  files: string[];
  siteOrigin: string;
}

export type TwinWorkerTask = TwinTask | MoveTask | PageHeadersTask;

export interface TwinWorkerData {
  root: string;
  siteUrl: string;
  rpcSections: RpcTwinSections;
}

export type TwinWorkerMessage =
  | { type: 'twins'; locale: Locale; stats: TwinStats; ms: number; peakHeapBytes: number }
  | { type: 'moved' }
  | { type: 'pageHeaders'; run: number; headers: PageHeaderRun }
  | { type: 'failed'; message: string };

export interface TwinJobResult extends TwinStats {
  /** Time the workers spent rendering, summed over workers. */
  workMs: number;
  workers: number;
  /** Largest heap of any worker thread: stays flat however large llms-full.txt grows. */
  peakWorkerHeapBytes: number;
}

export interface TwinJob {
  /** Locales not begun yet are written into `outDir`, which Astro has emptied; a worker moves what was staged. */
  writeInto(outDir: string): void;
  /** Lets up to `workers` threads take the remaining tasks (Astro has finished with the CPU). */
  boost(workers: number): void;
  /**
   * The manifest's `pageHeaders` of these HTML files of `distDir` (sorted), as pageHeadersOf() gives them, computed in
   * runs by the worker threads (up to `workers` of them, started if need be) and by this one in helpWithPageHeaders().
   */
  pageHeaders(distDir: string, htmlFiles: readonly string[], siteOrigin: string, workers: number): Promise<SurfaceManifest['pageHeaders']>;
  /** Computes the page-header runs no worker has taken on this thread, yielding between runs so the workers get theirs. */
  helpWithPageHeaders(): Promise<void>;
  /** Waits for every locale and moves what is still staged into `outDir`; `files` are the twin files, relative to it. */
  finish(outDir: string): Promise<TwinJobResult>;
}

/** HTML files per page-headers task: enough runs for every thread to take several, few enough that messages stay rare. */
const pagesPerRun = 500;

/**
 * A thread's young generation (V8's default lets it grow to 192 MiB): rendering a twin makes
 * short-lived trees, and a large nursery only holds more of them before a scavenge. At 10,000
 * pages this cap took about 100 MiB off the build's peak RSS for no measurable CPU.
 */
const youngGenerationMb = 24;

type QueuedTask = Omit<TwinTask, 'outDir'> | MoveTask | PageHeadersTask;

export function startTwinJob(input: { root: string; site: Site; siteUrl: string; rpcSections: RpcTwinSections; stagingDir: string; workers: number }): TwinJob {
  const queue: QueuedTask[] = locales
    .map((locale) => ({ kind: 'twins' as const, locale, pages: pagesInReadingOrder(input.site, locale) }))
    .filter((task) => task.pages.length > 0)
    // Largest first, so the last locale to finish is a small one.
    .sort((a, b) => b.pages.length - a.pages.length);
  const result: TwinJobResult = { twins: 0, twinBytes: 0, llmsFullBytes: 0, files: [], workMs: 0, workers: 0, peakWorkerHeapBytes: 0 };
  const live = new Set<Worker>();
  /** Workers that have not taken their first task yet. */
  let starting = 0;
  /** Once build:done waits on the workers, they keep the process alive. */
  let held = false;
  let failure: Error | undefined;
  /** Where locales are written: the staging folder until Astro has emptied dist/. */
  let target = input.stagingDir;
  /** Locales and moves not done yet: finish() waits for them. */
  let workLeft = queue.length;
  const workDone = deferred<void>();
  /** Page-header runs received, and who waits for them. */
  let headerRuns: { runs: PageHeaderRun[]; left: number; files: readonly string[]; done: Deferred<SurfaceManifest['pageHeaders']> } | undefined;
  const staged = rm(input.stagingDir, { recursive: true, force: true });
  const workerData: TwinWorkerData = { root: input.root, siteUrl: input.siteUrl, rpcSections: input.rpcSections };

  const fail = (error: Error) => {
    failure ??= error;
    workDone.reject(failure);
    headerRuns?.done.reject(failure);
  };
  const done = () => {
    if (--workLeft === 0) workDone.resolve();
  };
  const received = (message: TwinWorkerMessage) => {
    if (message.type === 'failed') return fail(new Error(message.message));
    if (message.type === 'moved') return done();
    if (message.type === 'pageHeaders') {
      if (!headerRuns) return;
      headerRuns.runs[message.run] = message.headers;
      if (--headerRuns.left === 0) headerRuns.done.resolve(joinPageHeaderRuns(headerRuns.files, headerRuns.runs));
      return;
    }
    result.twins += message.stats.twins;
    result.twinBytes += message.stats.twinBytes;
    result.llmsFullBytes += message.stats.llmsFullBytes;
    result.files.push(...message.stats.files);
    result.workMs += message.ms;
    result.peakWorkerHeapBytes = Math.max(result.peakWorkerHeapBytes, message.peakHeapBytes);
    done();
  };

  const spawn = () => {
    starting += 1;
    result.workers += 1;
    const worker = new Worker(new URL('./twin-worker.ts', import.meta.url), { workerData, resourceLimits: { maxYoungGenerationSizeMb: youngGenerationMb } });
    live.add(worker);
    if (!held) worker.unref(); // a build that fails elsewhere does not wait for the twins; build:done holds them
    let busy = false;
    const next = () => {
      const task = failure ? undefined : queue.shift();
      busy = task !== undefined;
      worker.postMessage(task?.kind === 'twins' ? { ...task, outDir: target } : (task ?? null));
    };
    worker.on('message', (message: TwinWorkerMessage) => {
      received(message);
      next();
    });
    worker.on('error', fail);
    worker.on('exit', (code) => {
      live.delete(worker);
      if (busy) fail(new Error(`a twin worker thread stopped (exit code ${code}) before finishing its task`));
    });
    void staged.then(() => {
      starting -= 1;
      next();
    });
  };

  const boost = (workers: number) => {
    while (live.size < workers && queue.length > starting) spawn();
  };
  const hold = () => {
    held = true;
    for (const worker of live) worker.ref();
  };
  if (queue.length === 0) workDone.resolve();
  else boost(Math.max(1, input.workers));

  return {
    writeInto(outDir) {
      if (target !== input.stagingDir) return;
      target = resolve(outDir);
      // A worker still rendering moves what is staged before its next locale; when every locale is done, finish() does.
      if (workLeft > 0 && !failure) {
        queue.unshift({ kind: 'move', from: input.stagingDir, to: target });
        workLeft += 1;
      }
    },
    boost,
    pageHeaders(distDir, files, siteOrigin, workers) {
      if (headerRuns) throw new Error('page headers are computed once per build');
      const runs = Math.ceil(files.length / pagesPerRun);
      headerRuns = { runs: [], left: runs, files, done: deferred() };
      if (failure) headerRuns.done.reject(failure);
      else if (runs === 0) headerRuns.done.resolve(joinPageHeaderRuns(files, []));
      for (let run = 0; run < runs; run++) {
        queue.push({ kind: 'pageHeaders', run, distDir, siteOrigin, files: files.slice(run * pagesPerRun, (run + 1) * pagesPerRun) });
      }
      hold();
      boost(workers);
      return headerRuns.done.promise;
    },
    async helpWithPageHeaders() {
      for (;;) {
        const next = queue.findIndex((task) => task.kind === 'pageHeaders');
        if (failure || next === -1) return;
        const task = queue.splice(next, 1)[0] as PageHeadersTask;
        received({ type: 'pageHeaders', run: task.run, headers: pageHeaderRun(task.distDir, task.files, task.siteOrigin) });
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
    async finish(outDir) {
      if (target !== input.stagingDir && target !== resolve(outDir)) {
        throw new Error(`twins were written into ${target}, but Astro built into ${outDir}`);
      }
      hold();
      await workDone.promise;
      moveStagedFiles(input.stagingDir, outDir);
      await rm(input.stagingDir, { recursive: true, force: true });
      return result;
    },
  };
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: Error): void;
}

/** A promise settled from outside; its rejection counts as handled until someone awaits it (build:done may come much later). */
function deferred<T>(): Deferred<T> {
  const { promise, resolve, reject } = Promise.withResolvers<T>();
  promise.catch(() => {});
  return { promise, resolve, reject };
}
