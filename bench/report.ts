import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BuildResult, BuildResults } from './build.ts';
import { resultsDir } from './build.ts';
import type { SearchRun } from './search.ts';

// Prints the figure tables of BENCHMARKS.md from bench/results/build.json and search.json:
// `node bench/report.ts`. Every figure is "Crucible / Starlight (ratio)".

const mib = (b: number | null | undefined) => (b == null ? '–' : `${(b / 2 ** 20).toFixed(b < 10 * 2 ** 20 ? 2 : 0)} MiB`);
const kib = (b: number | null | undefined) => (b == null ? '–' : `${(b / 1024).toFixed(1)} KiB`);
const sec = (ms: number | null | undefined) => (ms == null ? '–' : `${(ms / 1000).toFixed(1)} s`);
const ms = (v: number | null | undefined) => (v == null ? '–' : `${v.toFixed(1)} ms`);
const ratio = (a: number | null | undefined, b: number | null | undefined) => (a != null && b ? (a / b).toFixed(2) : '–');
const pair = (a: string, b: string, r: string) => `${a} / ${b} (${r})`;

function buildRows(run: BuildResult): string[] {
  const done = <R extends { completed: boolean }>(r: R | undefined) => (r?.completed ? r : undefined);
  const c = done(run.crucible);
  const s = done(run.starlight);
  const t = c?.timing;
  const wall = (r: { completed: boolean; wallMs: number } | undefined) => (!r ? '–' : r.completed ? sec(r.wallMs) : `stopped at ${sec(r.wallMs)}`);
  return [
    `| ${run.pages} | ${pair(wall(run.crucible), wall(run.starlight), ratio(c?.wallMs, s?.wallMs))} | ${t ? `${sec(t.surfaceCriticalMs)} = ${((100 * t.surfaceCriticalMs) / c!.wallMs).toFixed(1)}%` : '–'} | ${t ? `${sec(t.contentCheckMs)} + ${sec(t.outputsMs)} + ${sec(t.sitemapMs)}` : '–'} | ${sec(t?.backgroundTwinsMs)} | ${pair(mib(run.crucible?.maxRssBytes), mib(run.starlight?.maxRssBytes), ratio(c?.maxRssBytes, s?.maxRssBytes))} | ${c?.pagesBuilt ?? '–'} / ${s?.pagesBuilt ?? '–'} | ${run.crucible?.loadAtStart.toFixed(2) ?? '–'} / ${run.starlight?.loadAtStart.toFixed(2) ?? '–'} |`,
  ];
}

function stoppedNotes(run: BuildResult): string[] {
  return (['crucible', 'starlight'] as const).flatMap((system) => {
    const r = run[system];
    return r && !r.completed ? [`- ${system === 'crucible' ? 'Crucible' : 'Starlight'} at ${run.pages} pages: ${r.reason}.`] : [];
  });
}

function samples(run: BuildResult): string[] {
  return (['crucible', 'starlight'] as const).flatMap((system) => {
    const r = run[system];
    return r?.wallSamplesMs && r.wallSamplesMs.length > 1
      ? [`- ${system === 'crucible' ? 'Crucible' : 'Starlight'} at ${run.pages} pages, every run: ${r.wallSamplesMs.map((ms) => sec(ms)).join(', ')}.`]
      : [];
  });
}

function outputRows(run: BuildResult): string[] {
  const c = run.crucible?.sizes;
  const s = run.starlight?.completed ? run.starlight.sizes : undefined;
  if (!c) return [];
  const rows = [
    `| ${run.pages} | ${c.twins.count} files, ${mib(c.twins.bytes)} | ${pair(mib(c.llmsFull.en), mib(s?.llmsFull.en), ratio(c.llmsFull.en, s?.llmsFull.en))} | ${mib(c.llmsFull.allLocales)} | ${run.crucible?.timing?.peakTwinWorkerHeapMiB ?? '–'} MiB | ${pair(mib(c.distBytes), mib(s?.distBytes), ratio(c.distBytes, s?.distBytes))} |`,
  ];
  return rows;
}

function searchJsonRows(run: BuildResult): string[] {
  const c = run.crucible?.sizes;
  const s = run.starlight?.completed ? run.starlight.sizes : undefined;
  if (!c) return [];
  return Object.entries(c.search).map(
    ([locale, size]) =>
      `| ${run.pages} | ${locale} | ${kib(size!.raw)} | ${kib(size!.brotli)} | ${kib(s?.pagefind[locale as keyof typeof s.pagefind])} | ${ratio(size!.brotli, s?.pagefind[locale as keyof typeof s.pagefind])} |`,
  );
}

function searchRows(run: SearchRun): string[] {
  return (['en', 'ja'] as const).map((locale) => {
    const c = run.crucible[locale];
    const p = run.pagefind[locale];
    return `| ${run.entries} | ${locale} | ${pair(ms(c?.openToFirstResultMs), ms(p?.openToFirstResultMs), ratio(c?.openToFirstResultMs, p?.openToFirstResultMs))} | ${ms(c?.indexToFirstResultMs)} / ${ms(p?.indexToFirstResultMs)} | ${pair(kib(c?.bytesBeforeFirstResult), kib(p?.bytesBeforeFirstResult), ratio(c?.bytesBeforeFirstResult, p?.bytesBeforeFirstResult))} | ${ms(c?.keystrokes.oneWord.p50)} / ${ms(c?.keystrokes.oneWord.p95)} | ${ms(c?.keystrokes.twoWords.p50)} / ${ms(c?.keystrokes.twoWords.p95)} | ${ms(p?.keystrokes.oneWord.p50)} / ${ms(p?.keystrokes.oneWord.p95)} | ${ms(p?.keystrokes.twoWords.p50)} / ${ms(p?.keystrokes.twoWords.p95)} | ${run.loadAtStart.toFixed(2)} |`;
  });
}

const read = async <T>(file: string) => JSON.parse(await readFile(join(resultsDir, file), 'utf8').catch(() => 'null')) as T | null;

const build = await read<BuildResults>('build.json');
if (build) {
  const runs = Object.values(build.runs).sort((a, b) => a.pages - b.pages);
  console.log(`Machine: ${build.machine.nproc} CPUs, ${build.machine.cpu}, ${build.machine.memoryGiB} GiB, Node ${build.machine.node}\n`);
  console.log(
    '| N pages | whole build, Crucible / Starlight (ratio) | surface on the critical path (share) | content check + outputs + sitemap | twins rendered in the background | peak RSS (largest process), Crucible / Starlight | pages built | load at start |',
  );
  console.log('|---:|---|---|---|---:|---|---|---|');
  for (const run of runs) console.log(buildRows(run).join('\n'));
  console.log(['', ...runs.flatMap(samples), ...runs.flatMap(stoppedNotes)].join('\n'));
  console.log(
    '\n| N pages | all twins | `llms-full.txt` (en), Crucible / Starlight (ratio) | `llms-full.txt`, all 7 locales | twin worker peak heap | whole dist |',
  );
  console.log('|---:|---|---|---|---:|---|');
  for (const run of runs) console.log(outputRows(run).join('\n'));
  console.log('\n| N pages | locale | search JSON raw | brotli | Pagefind files for the language | ratio (brotli / Pagefind) |');
  console.log('|---:|---|---:|---:|---:|---:|');
  for (const run of runs) console.log(searchJsonRows(run).join('\n'));
}
const search = await read<{ runs: Record<string, SearchRun> }>('search.json');
if (search) {
  console.log(
    '\n| entries per locale | locale | open → first result, Crucible / Pagefind (ratio) | index arrived → first result, Crucible / Pagefind | bytes before the first result, Crucible / Pagefind (ratio) | Crucible keystroke 1 word p50 / p95 | Crucible 2 words p50 / p95 | Pagefind keystroke → results 1 word p50 / p95 | Pagefind 2 words p50 / p95 | load |',
  );
  console.log('|---:|---|---|---|---|---|---|---|---|---:|');
  for (const run of Object.values(search.runs).sort((a, b) => a.entries - b.entries)) console.log(searchRows(run).join('\n'));
}
