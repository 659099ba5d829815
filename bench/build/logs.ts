// Figures read from the build logs: pages built, the surface integration's timing line
// (integrations/surface/index.ts), Pagefind's indexing time, and Astro's phase lines.

export interface CrucibleTiming {
  pagesBuilt: number | null;
  /** Surface work the build waits for: the content check at config:setup, the outputs at build:done, the sitemap. */
  surfaceCriticalMs: number;
  contentCheckMs: number | null;
  outputsMs: number | null;
  sitemapMs: number | null;
  /** Twins rendered in worker threads while Astro builds (overlapping the rest of the build). */
  backgroundTwinsMs: number | null;
  /** Largest heap of a twin worker thread (the one streaming llms-full.txt). */
  peakTwinWorkerHeapMiB: number | null;
  astroPhases: string[];
}

export interface StarlightTiming {
  pagesBuilt: number | null;
  pagefindMs: number | null;
  astroPhases: string[];
}

// Astro colours its log lines; the figures are read from plain text.
// biome-ignore lint/suspicious/noControlCharactersInRegex: strips ANSI colour codes (ESC [ … m)
const plain = (output: string) => output.replace(/\x1b\[[0-9;]*m/g, '');
const number = (pattern: RegExp, text: string) => {
  const match = pattern.exec(text)?.[1];
  return match === undefined ? null : Number(match);
};

function astroPhases(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => /Completed in|built in|Synced content|Syncing content|Finished building/.test(line) && !line.includes('├'))
    .map((line) => line.trim());
}

export function parseCrucibleLog(output: string): CrucibleTiming {
  const text = plain(output);
  const contentCheckMs = number(/surface timing: content check (\d+) ms/, text);
  const outputsMs = number(/surface timing: .*outputs (\d+) ms/, text) ?? number(/\[crucible-surface\] wrote \d+ twins.* in (\d+) ms/, text);
  const sitemapMs = number(/surface timing: .*sitemap (\d+) ms/, text);
  return {
    pagesBuilt: number(/(\d+) page\(s\) built in/, text),
    surfaceCriticalMs: number(/surface timing: .*critical path (\d+) ms/, text) ?? outputsMs ?? 0,
    contentCheckMs,
    outputsMs,
    sitemapMs,
    backgroundTwinsMs: number(/surface timing: .*twins rendered in the background in (\d+) ms/, text),
    peakTwinWorkerHeapMiB: number(/surface timing: .*peak worker heap (\d+) MiB/, text),
    astroPhases: astroPhases(text),
  };
}

export function parseStarlightLog(output: string): StarlightTiming {
  const text = plain(output);
  const pagefindS = number(/Finished building search index in ([\d.]+)s/, text);
  return {
    pagesBuilt: number(/(\d+) page\(s\) built in/, text),
    pagefindMs: pagefindS === null ? null : Math.round(pagefindS * 1000),
    astroPhases: astroPhases(text),
  };
}
