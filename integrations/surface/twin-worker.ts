import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { pageHeaderRun } from './page-headers.ts';
import { moveStagedFiles } from './staging.ts';
import type { TwinTask, TwinWorkerData, TwinWorkerMessage, TwinWorkerTask } from './twin-job.ts';

// A worker thread of twin-job.ts: takes one task at a time: a locale whose twins and
// llms-full.txt it writes, the staged files to move into dist/, or a run of HTML pages whose
// headers it computes. The twin renderer is loaded with the first locale.

const data = workerData as TwinWorkerData;
const port = parentPort!;

/** This thread's largest heap between pages: flat if llms-full.txt really streams. */
let peakHeapBytes = 0;
const sampleHeap = () => {
  peakHeapBytes = Math.max(peakHeapBytes, getHeapStatistics().used_heap_size);
};

async function renderTwins(task: TwinTask): Promise<TwinWorkerMessage> {
  const started = performance.now();
  const { renderLocaleTwins } = await import('./locale-twins.ts');
  const stats = await renderLocaleTwins({ ...data, locale: task.locale, pages: task.pages, outDir: task.outDir, afterPage: sampleHeap });
  return { type: 'twins', locale: task.locale, stats, ms: performance.now() - started, peakHeapBytes };
}

const failures: Record<TwinWorkerTask['kind'], string> = {
  twins: 'twin rendering failed',
  move: 'moving the staged twins into dist/ failed',
  pageHeaders: 'reading the pages for their headers failed',
};

port.on('message', async (task: TwinWorkerTask | null) => {
  if (task === null) return port.close();
  let message: TwinWorkerMessage;
  try {
    if (task.kind === 'twins') message = await renderTwins(task);
    else if (task.kind === 'move') {
      moveStagedFiles(task.from, task.to);
      message = { type: 'moved' };
    } else message = { type: 'pageHeaders', run: task.run, headers: pageHeaderRun(task.distDir, task.files, task.siteOrigin) };
  } catch (error) {
    message = { type: 'failed', message: `${failures[task.kind]}: ${(error as Error).message}` };
  }
  port.postMessage(message);
});
