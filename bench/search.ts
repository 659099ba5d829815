import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import type { Locale } from '../src/site/locales.ts';
import { searchIndexUrl } from '../src/site/urls.ts';
import { launchChromium } from '../test/support/browser.ts';
import { buildCrucible, buildStarlight, machine, resultsDir, type BuildResult, type Machine } from './build.ts';
import { brotliSize, starlightSizes } from './build/sizes.ts';
import { loadAverage, waitForQuietMachine } from './build/measure.ts';
import { ensureCorpus, projectRoot, type CorpusSummary } from './corpus.ts';
import type { CorpusShape } from './corpus/plan.ts';
import { installProbe, type KeystrokeSample, type ProbeState } from './search/probe.ts';
import { startStaticSite, type Served, type StaticSite } from './search/static-server.ts';
import { renderPlots } from './plots.ts';
import { starlightDir } from './starlight/convert.ts';
import { hasPagefindIndex, runPagefind } from './starlight/pagefind.ts';

// `npm run bench:search [-- --entries 2000 --entries 10000 --runs 5 --rebuild]`
// Builds a corpus with the given number of search entries per locale (en and ja) with both
// Crucible and Starlight, serves both dists from one static server (bench/search/static-server.ts)
// and drives Chromium: time from opening search to the first result, bytes transferred before
// it, and per-keystroke latency for 1- and 2-word prefix queries, against Pagefind.

const searchLocales = ['en', 'ja'] as const satisfies readonly Locale[];
type SearchLocale = (typeof searchLocales)[number];
const apps = 40;
const networks = 1;
const searchBuildHeapMiB = 12_288;

/** Only searchable sections (blog, guides, case studies), en and ja: every prose page is a search entry. */
export function searchShape(entries: number): CorpusShape {
  return {
    pages: searchLocales.length * (entries - apps + 1 + networks),
    seed: 'crucible-search',
    localeWeights: { en: 1, ja: 1 },
    sectionWeights: { blog: 0.4, overviews: 0.45, 'case-studies': 0.15 },
    networks,
    apps,
  };
}

/** The query for first-result timing, and the typed queries (vocabulary of bench/corpus/words.ts). */
const queries: Record<SearchLocale, { first: string; oneWord: string[]; twoWords: string[] }> = {
  en: { first: 'token', oneWord: ['transaction', 'validator', 'webhook', 'sequencer'], twoWords: ['token balance', 'gas price', 'smart wallet', 'api key'] },
  ja: {
    first: 'トークン',
    oneWord: ['トランザクション', 'バリデーター', 'ウォレット', 'シーケンサー'],
    twoWords: ['トークン 残高', 'ガス 価格', 'スマート ウォレット', 'API キー'],
  },
};

interface SearchUi {
  system: 'crucible' | 'pagefind';
  home(locale: SearchLocale): string;
  input: string;
  result: string;
  resultsRoot: string;
  /** Search code fetched with the page (before search is opened) that the first result needs. */
  searchCodeOnLoad: RegExp;
  /** What "the index" is: the first result's time after the last of these was sent (by the server's clock: Pagefind fetches from a worker, out of the page's resource timing). */
  indexResources: RegExp;
  /** Pause after each keystroke, long enough for the UI to settle (Pagefind debounces input). */
  keystrokeGapMs: number;
}

const crucibleUi: SearchUi = {
  system: 'crucible',
  home: (locale) => (locale === 'en' ? '/' : `/${locale}/`),
  input: '#site-search-input',
  result: '.search-results [role="option"]',
  resultsRoot: '.search-body',
  searchCodeOnLoad: /^\/_astro\/(SearchDialog|engine)[^/]*\.js$/,
  indexResources: /^\/api\/search\/|^\/_astro\/engine\./,
  keystrokeGapMs: 100,
};

const pagefindUi: SearchUi = {
  system: 'pagefind',
  home: (locale) => (locale === 'en' ? '/' : `/${starlightDir(locale)}/`),
  input: '#starlight__search input',
  // A result's link appears once its fragment has loaded (a bare .pagefind-ui__result is a placeholder).
  result: '.pagefind-ui__result-link',
  resultsRoot: '#starlight__search',
  searchCodeOnLoad: /^\/_astro\/(ui-core|Search\.astro)[^/]*\.js$|^\/pagefind\//,
  indexResources: /^\/pagefind\//,
  keystrokeGapMs: 800,
};

interface Percentiles {
  n: number;
  p50: number;
  p95: number;
}

export interface LocaleMeasurement {
  runs: number;
  /** Medians over runs, each in a fresh browser context (cold cache). */
  openToFirstResultMs: number;
  indexToFirstResultMs: number;
  bytesBeforeFirstResult: number;
  /** What was counted in the median run, path -> bytes. */
  counted: Record<string, number>;
  keystrokes: { oneWord: Percentiles; twoWords: Percentiles; metric: 'handlerMs' | 'toResultsMs' };
  /** The locale's whole index as stored: Crucible's JSON raw and brotli, or Pagefind's files for the language. */
  indexBytes: { raw: number; brotli?: number };
}

export interface SearchRun {
  entries: number;
  measuredAt: string;
  loadAtStart: number;
  corpus: CorpusSummary;
  builds: Pick<BuildResult, 'crucible' | 'starlight'>;
  /** When Starlight's build rendered every page but stopped in its Pagefind step: that step run on its own. */
  pagefindStandalone?: { wallMs: number; maxRssBytes: number | null; treePeakRssBytes: number; loadAtStart: number };
  crucible: Partial<Record<SearchLocale, LocaleMeasurement>>;
  pagefind: Partial<Record<SearchLocale, LocaleMeasurement>>;
}

interface SearchResults {
  machine: Machine;
  runs: Record<string, SearchRun>;
}

const log = (line: string) => console.log(`[bench:search] ${line}`);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
function percentiles(values: number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => Number((sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0).toFixed(2));
  return { n: sorted.length, p50: at(0.5), p95: at(0.95) };
}

async function probePage(browser: Browser, ui: SearchUi): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript(installProbe, { resultSelector: ui.result, resultsRoot: ui.resultsRoot });
  return page;
}

async function openSearch(page: Page, ui: SearchUi): Promise<void> {
  await page.keyboard.press('Control+k');
  await page.locator(ui.input).waitFor({ state: 'visible' });
}

/** One cold run: load the home page, open search with Ctrl+K, type the query at once, wait for a result. */
async function firstResultRun(browser: Browser, site: StaticSite, ui: SearchUi, locale: SearchLocale) {
  const page = await probePage(browser, ui);
  site.reset();
  await page.goto(site.origin + ui.home(locale), { waitUntil: 'networkidle' });
  const onLoad: Served[] = [...site.served];
  site.reset();
  await openSearch(page, ui);
  await page.keyboard.insertText(queries[locale].first);
  await page.locator(ui.result).first().waitFor({ timeout: 60_000 });
  const state = await page.evaluate(() => window.__searchBench as ProbeState);
  const afterOpen = [...site.served];
  await page.context().close();
  const firstResultAt = state.firstResultAt!;
  const lastIndexPiece = Math.max(...afterOpen.filter((s) => ui.indexResources.test(s.path) && s.doneAt <= firstResultAt).map((s) => s.doneAt));
  const counted: Record<string, number> = {};
  for (const s of onLoad) if (ui.searchCodeOnLoad.test(s.path)) counted[s.path] = (counted[s.path] ?? 0) + s.bytes;
  for (const s of afterOpen) if (s.at >= state.openedAt! - 1 && s.at <= firstResultAt) counted[s.path] = (counted[s.path] ?? 0) + s.bytes;
  return {
    openToFirstResultMs: firstResultAt - state.openedAt!,
    indexToFirstResultMs: firstResultAt - lastIndexPiece,
    bytes: Object.values(counted).reduce((a, b) => a + b, 0),
    counted,
  };
}

/** A warm session: search loaded, then each query typed one key at a time. */
async function keystrokeSession(browser: Browser, site: StaticSite, ui: SearchUi, locale: SearchLocale) {
  const page = await probePage(browser, ui);
  await page.goto(site.origin + ui.home(locale), { waitUntil: 'networkidle' });
  await openSearch(page, ui);
  await page.keyboard.insertText(queries[locale].first);
  await page.locator(ui.result).first().waitFor({ timeout: 60_000 });
  const type = async (query: string) => {
    await page.locator(ui.input).fill('');
    await page.waitForTimeout(ui.keystrokeGapMs);
    await page.evaluate(() => (window.__searchBench.keystrokes = []));
    for (const char of query) {
      await page.keyboard.type(char);
      await page.waitForTimeout(ui.keystrokeGapMs);
    }
    return page.evaluate(() => window.__searchBench.keystrokes as KeystrokeSample[]);
  };
  const metric = ui.system === 'crucible' ? 'handlerMs' : 'toResultsMs';
  const value = (s: KeystrokeSample) => (metric === 'handlerMs' ? s.handlerMs : s.toResultsMs);
  const oneWord: number[] = [];
  const twoWords: number[] = [];
  for (const query of queries[locale].oneWord) for (const s of await type(query)) if (value(s) !== null) oneWord.push(value(s)!);
  for (const query of queries[locale].twoWords) {
    for (const s of await type(query)) if (/\S\s+\S/.test(s.query) && value(s) !== null) twoWords.push(value(s)!);
  }
  await page.context().close();
  return { oneWord: percentiles(oneWord), twoWords: percentiles(twoWords), metric } as const;
}

async function indexBytes(ui: SearchUi, distDir: string, locale: SearchLocale): Promise<LocaleMeasurement['indexBytes']> {
  if (ui.system === 'crucible') {
    const json = await readFile(join(distDir, searchIndexUrl(locale)));
    return { raw: json.byteLength, brotli: brotliSize(json) };
  }
  return { raw: (await starlightSizes(distDir, [locale])).pagefind[locale] ?? 0 };
}

async function measureSystem(browser: Browser, ui: SearchUi, distDir: string, runs: number): Promise<Partial<Record<SearchLocale, LocaleMeasurement>>> {
  const site = await startStaticSite(distDir);
  const out: Partial<Record<SearchLocale, LocaleMeasurement>> = {};
  try {
    for (const locale of searchLocales) {
      await firstResultRun(browser, site, ui, locale); // warm the server's brotli cache; not counted
      const samples = [];
      for (let i = 0; i < runs; i++) samples.push(await firstResultRun(browser, site, ui, locale));
      const byBytes = [...samples].sort((a, b) => a.bytes - b.bytes);
      const middle = byBytes[Math.floor(byBytes.length / 2)]!;
      out[locale] = {
        runs,
        openToFirstResultMs: Number(median(samples.map((s) => s.openToFirstResultMs)).toFixed(1)),
        indexToFirstResultMs: Number(median(samples.map((s) => s.indexToFirstResultMs)).toFixed(1)),
        bytesBeforeFirstResult: middle.bytes,
        counted: middle.counted,
        keystrokes: await keystrokeSession(browser, site, ui, locale),
        indexBytes: await indexBytes(ui, distDir, locale),
      };
      log(
        `${ui.system} ${locale}: first result ${out[locale]!.openToFirstResultMs} ms after opening, ${out[locale]!.indexToFirstResultMs} ms after the index; ${middle.bytes} bytes`,
      );
    }
  } finally {
    await site.stop();
  }
  return out;
}

async function readResults(): Promise<SearchResults> {
  try {
    return JSON.parse(await readFile(join(resultsDir, 'search.json'), 'utf8')) as SearchResults;
  } catch {
    return { machine: machine(), runs: {} };
  }
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      entries: { type: 'string', multiple: true },
      runs: { type: 'string', default: '5' },
      rebuild: { type: 'boolean', default: false },
      'timeout-min': { type: 'string', default: '45' },
    },
  });
  const sizes = (values.entries ?? ['2000', '10000']).map(Number);
  if (sizes.some((n) => !Number.isInteger(n) || n <= apps))
    throw new Error(`usage: npm run bench:search [-- --entries N (> ${apps}) …] [--runs 5] [--rebuild]`);
  for (const entries of sizes) {
    const runDir = join(projectRoot, `bench/out/search-${entries}`);
    const contentDir = join(runDir, 'content');
    const { summary: corpus, reused } = await ensureCorpus(searchShape(entries), contentDir);
    log(`corpus: ${corpus.pages} pages, ${JSON.stringify(corpus.searchEntries)} search entries${reused ? ' (reused)' : ''}`);
    const previous = (await readResults()).runs[String(entries)];
    const fresh = !reused || values.rebuild;
    const builds: SearchRun['builds'] = { crucible: previous?.builds.crucible, starlight: previous?.builds.starlight };
    // These builds only produce the sites to search; both get a heap large enough for ~20k pages.
    const buildOptions = { timeoutMin: Number(values['timeout-min']), heapMiB: searchBuildHeapMiB };
    if (fresh || !existsSync(join(runDir, 'crucible-dist/index.html')))
      builds.crucible = await buildCrucible(corpus.pages, contentDir, runDir, [...searchLocales], buildOptions);
    if (fresh || !existsSync(join(runDir, 'starlight-dist/index.html')))
      builds.starlight = await buildStarlight(corpus.pages, contentDir, runDir, [...searchLocales], buildOptions);

    const starlightDist = join(runDir, 'starlight-dist');
    let pagefindStandalone: SearchRun['pagefindStandalone'];
    if (!hasPagefindIndex(starlightDist) && existsSync(join(starlightDist, 'index.html'))) {
      log(`Starlight's build stopped before its Pagefind index was written; running that step on its HTML`);
      const load = await waitForQuietMachine(log);
      const indexed = await runPagefind(starlightDist, join(runDir, 'pagefind-standalone.log'));
      if (indexed.code !== 0) throw new Error(`pagefind failed; see ${indexed.log}`);
      pagefindStandalone = {
        wallMs: Math.round(indexed.wallMs),
        maxRssBytes: indexed.maxRssBytes,
        treePeakRssBytes: indexed.treePeakRssBytes,
        loadAtStart: load,
      };
    }

    const loadAtStart = await waitForQuietMachine(log);
    const browser = await launchChromium();
    let run: SearchRun;
    try {
      run = {
        entries,
        measuredAt: new Date().toISOString(),
        loadAtStart,
        corpus,
        builds,
        pagefindStandalone: pagefindStandalone ?? previous?.pagefindStandalone,
        crucible: await measureSystem(browser, crucibleUi, join(runDir, 'crucible-dist'), Number(values.runs)),
        pagefind: hasPagefindIndex(starlightDist) ? await measureSystem(browser, pagefindUi, starlightDist, Number(values.runs)) : {},
      };
    } finally {
      await browser.close();
    }
    log(`load ${loadAtStart.toFixed(2)} at start, ${(await loadAverage()).toFixed(2)} at the end`);
    const results = await readResults();
    results.machine = machine();
    results.runs[String(entries)] = run;
    await mkdir(resultsDir, { recursive: true });
    await writeFile(join(resultsDir, 'search.json'), `${JSON.stringify(results, null, 2)}\n`);
    await renderPlots();
  }
}
