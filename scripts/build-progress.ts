// The one line `npm start` shows while it builds the site (scripts/build.ts): the step, the pages
// rendered of all there are, and the time so far. On a terminal it is redrawn in place; in a log
// (CI, a file) it is printed again every few seconds.

/** What the build is doing: preparing (content, bundles) before the pages are known, then rendering them, then the rest. */
export type BuildStep = { step: 'preparing' } | { step: 'pages'; rendered: number; total: number } | { step: 'compressing' };

/** The progress line for `step` after `elapsedMs`; `reason` says why the site is built. */
export function progressLine(reason: string | undefined, step: BuildStep, elapsedMs: number): string {
  const what =
    step.step === 'preparing'
      ? 'preparing'
      : step.step === 'compressing'
        ? 'compressing'
        : step.rendered < step.total
          ? `${step.rendered} of ${step.total} pages`
          : `${step.total} of ${step.total} pages, writing twins, llms.txt and search`;
  return `Building the site${reason ? ` (${reason})` : ''}: ${what}, ${seconds(elapsedMs)}`;
}

/** The line that replaces the progress line once the build is done. */
export function summaryLine(pages: number | null, elapsedMs: number): string {
  return `Built the site${pages === null ? '' : `: ${pages} pages`} in ${seconds(elapsedMs)}.`;
}

function seconds(ms: number): string {
  return `${Math.round(ms / 1000)} s`;
}

/** Seconds between two printed lines when the output is not a terminal. */
const LOG_INTERVAL_MS = 5000;
/** How often a terminal's line is redrawn: often enough for the page count to move smoothly. */
const TERMINAL_INTERVAL_MS = 200;

export interface ProgressDisplay {
  set(step: BuildStep): void;
  /** Replaces the line with `last` (a terminal) or prints it (a log), and stops redrawing. */
  finish(last: string): void;
}

/** Draws the progress line on `out` until finish(). */
export function showProgress(out: NodeJS.WritableStream & { isTTY?: boolean }, reason: string | undefined, now = () => performance.now()): ProgressDisplay {
  const started = now();
  const terminal = out.isTTY === true;
  let step: BuildStep = { step: 'preparing' };
  const line = () => progressLine(reason, step, now() - started);
  // \r and "erase to the end of the line": the new line over the old one.
  const draw = () => out.write(terminal ? `\r${line()}\x1b[K` : `${line()}\n`);
  draw();
  const timer = setInterval(draw, terminal ? TERMINAL_INTERVAL_MS : LOG_INTERVAL_MS);
  return {
    set(next) {
      step = next;
    },
    finish(last) {
      clearInterval(timer);
      out.write(terminal ? `\r${last}\x1b[K\n` : `${last}\n`);
    },
  };
}
