import { spawn } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';

// Runs one build as a child process and measures it: wall time, peak RSS (GNU time's maximum
// resident set of the largest process, and a sampled sum over the whole process tree, which
// also counts helpers such as Pagefind's binary), with its output kept in a log file.

export interface Measured {
  code: number;
  wallMs: number;
  /** Largest single process's high-water RSS (GNU time `%M`), bytes; null without /usr/bin/time. */
  maxRssBytes: number | null;
  /** Highest sampled sum of VmRSS over the process tree, bytes. */
  treePeakRssBytes: number;
  /** RSS of the tree over time: [ms since start, bytes]. */
  rssTimeline: Array<[number, number]>;
  log: string;
  timedOut: boolean;
  /** Stopped because the process tree's RSS passed `rssCapBytes` (the machine is shared). */
  overRssCap: boolean;
}

const gnuTime = '/usr/bin/time';
const sampleEveryMs = 250;

async function rssOfTree(rootPid: number): Promise<number> {
  const parents = new Map<number, number>();
  for (const name of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    // pid (comm) state ppid …; comm may contain spaces, so split after the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid) parents.set(Number(name), ppid);
  }
  const inTree = (pid: number): boolean => {
    for (let p: number | undefined = pid, depth = 0; p && depth < 64; p = parents.get(p), depth++) if (p === rootPid) return true;
    return false;
  };
  let total = 0;
  for (const pid of parents.keys()) {
    if (!inTree(pid)) continue;
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    if (kb) total += Number(kb) * 1024;
  }
  return total;
}

export async function measure(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; logFile: string; timeoutMs?: number; rssCapBytes?: number },
): Promise<Measured> {
  const useTime = existsSync(gnuTime);
  const log = createWriteStream(options.logFile);
  const started = performance.now();
  const child = spawn(useTime ? gnuTime : command, useTime ? ['-f', 'GNU_TIME_MAXRSS_KB=%M', command, ...args] : args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so a timeout stops the build and every helper it started.
    detached: true,
  });
  let timedOut = false;
  let overRssCap = false;
  const timer = options.timeoutMs
    ? setTimeout(() => {
        timedOut = true;
        process.kill(-child.pid!, 'SIGTERM');
      }, options.timeoutMs)
    : undefined;
  let tail = '';
  const keep = (chunk: Buffer) => {
    log.write(chunk);
    tail = (tail + chunk.toString('utf8')).slice(-4096);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);

  const rssTimeline: Array<[number, number]> = [];
  let treePeakRssBytes = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const rss = await rssOfTree(child.pid!);
      if (rss > treePeakRssBytes) treePeakRssBytes = rss;
      if (options.rssCapBytes && rss > options.rssCapBytes && !overRssCap) {
        overRssCap = true;
        process.kill(-child.pid!, 'SIGTERM');
      }
      rssTimeline.push([Math.round(performance.now() - started), rss]);
      await new Promise((r) => setTimeout(r, sampleEveryMs));
    }
  })();
  const code = await new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (c) => resolve(c ?? 1));
  });
  const wallMs = performance.now() - started;
  clearTimeout(timer);
  sampling = false;
  await sampler;
  await new Promise((r) => log.end(r));
  const maxRssKb = /GNU_TIME_MAXRSS_KB=(\d+)/.exec(tail)?.[1];
  return { code, wallMs, maxRssBytes: maxRssKb ? Number(maxRssKb) * 1024 : null, treePeakRssBytes, rssTimeline, log: options.logFile, timedOut, overRssCap };
}

/** The 1-minute load average. */
export async function loadAverage(): Promise<number> {
  return Number((await readFile('/proc/loadavg', 'utf8')).split(' ')[0]);
}

/**
 * Waits until the machine is quiet enough to measure (1-minute load below `below`), checking
 * every 30 s for at most `maxMinutes`. Returns the load when measuring starts.
 * BENCH_SKIP_LOAD_WAIT=1 skips the wait while developing the benchmark itself.
 */
export async function waitForQuietMachine(log: (line: string) => void, below = 1.0, maxMinutes = 20): Promise<number> {
  if (process.env.BENCH_SKIP_LOAD_WAIT === '1') {
    const load = await loadAverage();
    log(`BENCH_SKIP_LOAD_WAIT=1: measuring at load ${load.toFixed(2)} (development only; figures are not comparable)`);
    return load;
  }
  const deadline = Date.now() + maxMinutes * 60_000;
  let load = await loadAverage();
  while (load >= below && Date.now() < deadline) {
    log(`load ${load.toFixed(2)} >= ${below}; waiting 30 s`);
    await new Promise((r) => setTimeout(r, 30_000));
    load = await loadAverage();
  }
  if (load >= below) log(`load still ${load.toFixed(2)} after ${maxMinutes} min; measuring anyway (recorded)`);
  return load;
}
