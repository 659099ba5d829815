import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

// The node gateway benchmark's load generator, in its own process so that it never shares an
// event loop with what it measures: autocannon (keep-alive connections, one request in flight
// on each) POSTs one JSON-RPC body for a fixed time. autocannon's latency histogram counts
// whole milliseconds; the gateway's added latency is a fraction of one, so each response's
// time is taken from autocannon's `response` event (hrtime, in ms) and the percentiles are
// computed here.

export interface LoadJob {
  url: string;
  body: string;
  /** Headers besides `content-type: application/json` (the MCP benchmark's key and Accept). */
  headers?: Record<string, string>;
  connections: number;
  seconds: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  /** Milliseconds, from every 2xx response of the run. */
  p50: number;
  p99: number;
  requests: number;
  /** Connection errors, timeouts and non-2xx answers. */
  failures: number;
}

type ResponseListener = (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void;

/** Sorted ascending; `q` in (0, 1]. */
function quantile(sorted: Float64Array, q: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]! : Number.NaN;
}

async function runJob(job: LoadJob): Promise<LoadResult> {
  let times = new Float64Array(1 << 16);
  let count = 0;
  // autocannon's instance is also an event emitter (bench/autocannon.d.ts types the promise only).
  const instance = autocannon({
    url: job.url,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...job.headers },
    body: job.body,
    connections: job.connections,
    duration: job.seconds,
  }) as ReturnType<typeof autocannon> & { on(event: 'response', listener: ResponseListener): void };
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (statusCode < 200 || statusCode >= 300) return;
    if (count === times.length) {
      const grown = new Float64Array(times.length * 2);
      grown.set(times);
      times = grown;
    }
    times[count++] = responseTime;
  });
  const result = await instance;
  const sorted = times.subarray(0, count).sort();
  return {
    requestsPerSecond: result.requests.average,
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    requests: result['2xx'] + result.non2xx,
    failures: result.errors + result.timeouts + result.non2xx,
  };
}

/** The generator as a child process: `run` sends it a job and resolves with its figures. */
export function startLoadGenerator(): { pid: number; run(job: LoadJob): Promise<LoadResult>; stop(): void } {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--child'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return {
    pid: child.pid!,
    run: (job) =>
      new Promise((resolve, reject) => {
        const onExit = (code: number | null) => reject(new Error(`the load generator exited with ${code}`));
        child.once('exit', onExit);
        child.once('message', (message: { result?: LoadResult; error?: string }) => {
          child.off('exit', onExit);
          if (message.result) resolve(message.result);
          else reject(new Error(`the load generator failed: ${message.error}`));
        });
        child.send(job);
      }),
    stop: () => void child.kill(),
  };
}

if (process.argv.includes('--child')) {
  process.on('message', (job: LoadJob) => {
    runJob(job).then(
      (result) => process.send!({ result }),
      (error: unknown) => process.send!({ error: error instanceof Error ? error.message : String(error) }),
    );
  });
}
