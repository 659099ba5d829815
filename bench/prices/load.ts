import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import autocannon from 'autocannon';

// The prices benchmark's load, in a process of its own for each run (`node bench/prices/load.ts
// <job as JSON>`, one JSON line of figures on stdout) so that it never shares an event loop with the
// server or with the benchmark's own database loop: autocannon sends one request over keep-alive
// connections, one in flight on each, for a fixed time. autocannon's histogram counts whole
// milliseconds, so each 2xx response's own time (hrtime, ms) is kept from its `response` event.

export interface LoadJob {
  origin: string;
  method: 'GET' | 'POST';
  path: string;
  /** JSON, sent with content-type application/json. */
  body?: string;
  connections: number;
  seconds: number;
}

export interface LoadResult {
  /** Milliseconds per 2xx response, in the order they came. */
  times: number[];
  /** From the start of the run to its last answer. */
  seconds: number;
  failures: number;
  firstFailure: string | null;
}

const execFileAsync = promisify(execFile);

/** Runs `job` in a child process and resolves with its figures. */
export async function runLoad(job: LoadJob): Promise<LoadResult> {
  const { stdout } = await execFileAsync(process.execPath, [import.meta.filename, JSON.stringify(job)], { maxBuffer: 256 * 1024 * 1024 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as LoadResult;
}

async function run(job: LoadJob): Promise<LoadResult> {
  const times: number[] = [];
  const started = performance.now();
  const instance = autocannon({
    url: `${job.origin}${job.path}`,
    method: job.method,
    headers: job.body === undefined ? {} : { 'content-type': 'application/json' },
    body: job.body,
    connections: job.connections,
    duration: job.seconds,
  }) as ReturnType<typeof autocannon> & { on(event: 'response', listener: (client: unknown, status: number, bytes: number, ms: number) => void): void };
  instance.on('response', (_client, status, _bytes, ms) => {
    if (status >= 200 && status < 300) times.push(ms);
  });
  const result = await instance;
  const failures = result.errors + result.timeouts + result.non2xx;
  return {
    times,
    seconds: (performance.now() - started) / 1000,
    failures,
    firstFailure: failures ? `${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts` : null,
  };
}

if (import.meta.main) process.stdout.write(`${JSON.stringify(await run(JSON.parse(process.argv[2]!) as LoadJob))}\n`);
