import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadSite } from '../src/site/read-content.ts';
import type { Locale } from '../src/site/locales.ts';
import { sections } from '../src/site/sections.ts';
import { ensureCorpus, projectRoot, type CorpusSummary } from './corpus.ts';
import { siteShape } from './corpus/plan.ts';
import { measure, waitForQuietMachine, type Measured } from './build/measure.ts';
import { crucibleSizes, starlightSizes, type CrucibleSizes, type StarlightSizes } from './build/sizes.ts';
import { parseCrucibleLog, parseStarlightLog, type CrucibleTiming, type StarlightTiming } from './build/logs.ts';
import { renderPlots } from './plots.ts';
import { writeStarlightDocs } from './starlight/convert.ts';
import { ensureStarlightProject, starlightProjectDir, writeStarlightConfig } from './starlight/project.ts';

// `npm run bench:build -- --pages N [--pages M …] [--repeat K] [--only crucible|starlight] [--timeout-min 45] [--heap-mib M]`
// For each N: generate the corpus (bench/corpus.ts), build Crucible over it, convert it to
// Starlight's layout and build the peer, each from a clean cache, measuring wall time, peak
// RSS and output sizes. Every build waits for a quiet machine (1-minute load below 1.0, checked
// every 30 s for up to 20 min) and records the load it started at. Results merge into
// bench/results/build.json; plots are redrawn.

const siteUrl = 'https://bench.example';
export const resultsDir = join(projectRoot, 'bench/results');
const buildResultsFile = join(resultsDir, 'build.json');

export interface BuildRun<Timing, Sizes> {
  completed: boolean;
  /** Why the build did not complete (timeout, exit code). */
  reason?: string;
  loadAtStart: number;
  wallMs: number;
  maxRssBytes: number | null;
  treePeakRssBytes: number;
  pagesBuilt: number | null;
  /** Process-tree RSS over the build, one sample every ~2 s: [seconds, MiB]. */
  rssTimeline: Array<[number, number]>;
  timing: Timing | null;
  sizes: Sizes | null;
  log: string;
  /** --max-old-space-size given to the build, when the default heap was raised. */
  heapMiB?: number;
  /** With --repeat: every run's wall time; the figures are those of the median run. */
  wallSamplesMs?: number[];
}

export interface BuildResult {
  pages: number;
  measuredAt: string;
  corpus: CorpusSummary;
  crucible?: BuildRun<CrucibleTiming, CrucibleSizes>;
  starlight?: BuildRun<StarlightTiming, StarlightSizes> & { versions: Record<string, string> };
}

export interface BuildResults {
  machine: Machine;
  runs: Record<string, BuildResult>;
}

export interface Machine {
  nproc: number;
  cpu: string;
  memoryGiB: number;
  node: string;
}

export function machine(): Machine {
  return { nproc: availableParallelism(), cpu: cpus()[0]?.model ?? 'unknown', memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version };
}

const log = (line: string) => console.log(`[bench:build] ${line}`);

async function readResults(): Promise<BuildResults> {
  try {
    return JSON.parse(await readFile(buildResultsFile, 'utf8')) as BuildResults;
  } catch {
    return { machine: machine(), runs: {} };
  }
}

/** How a build runs: its time limit and, where a default V8 heap is too small for the corpus, a larger one. */
export interface BuildOptions {
  timeoutMin: number;
  heapMiB?: number;
}

/** A build whose process tree passes this is stopped: other work shares the machine's memory. */
const rssCapBytes = 14 * 2 ** 30;

const nodeOptions = (options: BuildOptions) =>
  [process.env.NODE_OPTIONS, options.heapMiB ? `--max-old-space-size=${options.heapMiB}` : ''].filter(Boolean).join(' ');

export async function buildCrucible(
  pages: number,
  contentDir: string,
  runDir: string,
  locales: Locale[],
  options: BuildOptions,
): Promise<BuildRun<CrucibleTiming, CrucibleSizes>> {
  const distDir = join(runDir, 'crucible-dist');
  const cacheDir = join(runDir, 'crucible-cache');
  await rm(distDir, { recursive: true, force: true });
  await rm(cacheDir, { recursive: true, force: true });
  const loadAtStart = await waitForQuietMachine(log);
  log(`crucible: building ${pages} pages (load ${loadAtStart.toFixed(2)})`);
  const result = await measure(process.execPath, [join(projectRoot, 'node_modules/astro/bin/astro.mjs'), 'build', '--outDir', distDir], {
    cwd: projectRoot,
    env: {
      ...process.env,
      CRUCIBLE_CONTENT_DIR: contentDir,
      CRUCIBLE_CACHE_DIR: cacheDir,
      SITE_URL: siteUrl,
      ASTRO_TELEMETRY_DISABLED: '1',
      NODE_OPTIONS: nodeOptions(options),
    },
    logFile: join(runDir, 'crucible-build.log'),
    timeoutMs: options.timeoutMin * 60_000,
    rssCapBytes,
  });
  const output = await readFile(result.log, 'utf8');
  return { ...(await finish(result, loadAtStart, parseCrucibleLog(output), () => crucibleSizes(distDir, locales))), heapMiB: options.heapMiB };
}

export async function buildStarlight(pages: number, contentDir: string, runDir: string, locales: Locale[], options: BuildOptions) {
  const versions = await ensureStarlightProject(log);
  let site = await loadSite(projectRoot, contentDir);
  await writeStarlightConfig({ locales, sections: sections.filter((s) => locales.some((l) => site.pagesIn(l, s).length > 0)), siteUrl });
  const converted = await writeStarlightDocs(site, starlightProjectDir);
  site = undefined as never; // the bodies are not needed while the peer builds
  log(`starlight: converted ${converted.pages} pages into ${starlightProjectDir}/src/content/docs`);

  const distDir = join(runDir, 'starlight-dist');
  const cacheDir = join(runDir, 'starlight-cache');
  await rm(distDir, { recursive: true, force: true });
  await rm(cacheDir, { recursive: true, force: true });
  await rm(join(starlightProjectDir, '.astro'), { recursive: true, force: true });
  const loadAtStart = await waitForQuietMachine(log);
  log(`starlight: building ${pages} pages (load ${loadAtStart.toFixed(2)})`);
  const result = await measure(process.execPath, [join(starlightProjectDir, 'node_modules/astro/bin/astro.mjs'), 'build', '--outDir', distDir], {
    cwd: starlightProjectDir,
    env: { ...process.env, BENCH_CACHE_DIR: cacheDir, ASTRO_TELEMETRY_DISABLED: '1', NODE_OPTIONS: nodeOptions(options) },
    logFile: join(runDir, 'starlight-build.log'),
    timeoutMs: options.timeoutMin * 60_000,
    rssCapBytes,
  });
  const output = await readFile(result.log, 'utf8');
  return { ...(await finish(result, loadAtStart, parseStarlightLog(output), () => starlightSizes(distDir, locales))), versions, heapMiB: options.heapMiB };
}

async function finish<T extends { pagesBuilt: number | null }, S>(
  result: Measured,
  loadAtStart: number,
  timing: T,
  sizes: () => Promise<S>,
): Promise<BuildRun<T, S>> {
  const completed = result.code === 0;
  const reason = result.timedOut
    ? `not completed: stopped after ${Math.round(result.wallMs / 60_000)} min`
    : result.overRssCap
      ? `not completed: stopped when the process tree passed ${rssCapBytes / 2 ** 30} GiB RSS`
      : completed
        ? undefined
        : `exit code ${result.code}: ${failureOf(await readFile(result.log, 'utf8'))}`;
  if (reason) log(reason);
  return {
    completed,
    reason,
    loadAtStart,
    wallMs: Math.round(result.wallMs),
    maxRssBytes: result.maxRssBytes,
    treePeakRssBytes: result.treePeakRssBytes,
    pagesBuilt: timing.pagesBuilt,
    rssTimeline: downsample(result.rssTimeline, 2000),
    timing: completed ? timing : null,
    sizes: completed ? await sizes() : null,
    log: result.log.slice(projectRoot.length + 1),
  };
}

function downsample(timeline: Array<[number, number]>, everyMs: number): Array<[number, number]> {
  let next = 0;
  return timeline.flatMap(([ms, bytes]) => {
    if (ms < next) return [];
    next = ms + everyMs;
    return [[Math.round(ms / 100) / 10, Math.round(bytes / 2 ** 20)] as [number, number]];
  });
}

/** The run with the median wall time, carrying every run's wall time. */
function medianRun<R extends { wallMs: number; wallSamplesMs?: number[] }>(runs: R[]): R | undefined {
  if (runs.length === 0) return undefined;
  const sorted = [...runs].sort((a, b) => a.wallMs - b.wallMs);
  return { ...sorted[Math.floor((sorted.length - 1) / 2)]!, wallSamplesMs: runs.map((r) => r.wallMs) };
}

/** The error a failed build reports (V8's heap limit, Astro's error line), for the results table. */
function failureOf(output: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: strips ANSI colour codes (ESC [ … m)
  const text = output.replace(/\x1b\[[0-9;]*m/g, '');
  if (text.includes('JavaScript heap out of memory')) return 'JavaScript heap out of memory';
  const caused = /Caused by:\s*\n\s*(.+)/.exec(text)?.[1];
  const error = /^\[(\w*Error)\]/m.exec(text)?.[1] ?? /^\w*Error: [^\n]*/m.exec(text)?.[0];
  return [error, caused].filter(Boolean).join(' — caused by: ') || 'see the log';
}

const mib = (bytes: number | null | undefined) => (bytes == null ? '–' : `${(bytes / 2 ** 20).toFixed(0)} MiB`);
const seconds = (ms: number | null | undefined) => (ms == null ? '–' : `${(ms / 1000).toFixed(1)} s`);

function summary(run: BuildResult): string {
  const c = run.crucible;
  const s = run.starlight;
  const ratio = (a: number | null | undefined, b: number | null | undefined) => (a && b ? (a / b).toFixed(2) : '–');
  return [
    `N=${run.pages}`,
    `  wall      ${seconds(c?.wallMs)} / ${seconds(s?.completed ? s.wallMs : null)}  ratio ${ratio(c?.wallMs, s?.completed ? s.wallMs : null)}`,
    `  surface   ${seconds(c?.timing?.surfaceCriticalMs)} (${c?.timing && c.wallMs ? ((100 * c.timing.surfaceCriticalMs) / c.wallMs).toFixed(1) : '–'}% of the build)`,
    `  peak RSS  ${mib(c?.maxRssBytes)} / ${mib(s?.maxRssBytes)}  (process tree ${mib(c?.treePeakRssBytes)} / ${mib(s?.treePeakRssBytes)})`,
    `  llms-full ${mib(c?.sizes?.llmsFull.en)} / ${mib(s?.sizes?.llmsFull.en)}`,
  ].join('\n');
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      pages: { type: 'string', multiple: true },
      only: { type: 'string' },
      'timeout-min': { type: 'string', default: '45' },
      'heap-mib': { type: 'string' },
      repeat: { type: 'string', default: '1' },
    },
  });
  const sizes = (values.pages ?? ['1000']).map(Number);
  if (sizes.some((n) => !Number.isInteger(n) || n < 100))
    throw new Error('usage: npm run bench:build -- --pages N [--pages M …] [--repeat K] [--only crucible|starlight] [--timeout-min 45] [--heap-mib M]');
  const buildOptions: BuildOptions = { timeoutMin: Number(values['timeout-min']), heapMiB: values['heap-mib'] ? Number(values['heap-mib']) : undefined };
  for (const pages of sizes) {
    const runDir = join(projectRoot, `bench/out/corpus-${pages}`);
    const contentDir = join(runDir, 'content');
    const { summary: corpus, reused } = await ensureCorpus(siteShape(pages), contentDir);
    log(`corpus: ${corpus.pages} pages, ${(corpus.sourceBytes / 1e6).toFixed(1)} MB${reused ? ' (reused)' : ''}`);
    const locales = Object.keys(corpus.pagesByLocale) as Locale[];
    const previous = (await readResults()).runs[String(pages)];
    const run: BuildResult = { pages, measuredAt: new Date().toISOString(), corpus };
    const crucibleRuns: Array<NonNullable<BuildResult['crucible']>> = [];
    const starlightRuns: Array<NonNullable<BuildResult['starlight']>> = [];
    // Alternating, so both systems see the same spread of background load.
    for (let i = 0; i < Number(values.repeat); i++) {
      if (values.only !== 'starlight') crucibleRuns.push(await buildCrucible(pages, contentDir, runDir, locales, buildOptions));
      if (values.only !== 'crucible') starlightRuns.push(await buildStarlight(pages, contentDir, runDir, locales, buildOptions));
    }
    run.crucible = medianRun(crucibleRuns) ?? previous?.crucible;
    run.starlight = medianRun(starlightRuns) ?? previous?.starlight;

    const results = await readResults();
    results.machine = machine();
    results.runs[String(pages)] = run;
    await mkdir(resultsDir, { recursive: true });
    await writeFile(buildResultsFile, `${JSON.stringify(results, null, 2)}\n`);
    await renderPlots();
    console.log(summary(run));
  }
}
