// Instrumentation injected into every benchmark page before its scripts run (addInitScript).
// It timestamps, in the page's own clock (epoch ms), the keystroke that opens search, the
// first search result in the DOM, and every later keystroke with the last change the search
// UI made to its results after it. Plain JavaScript: it runs in the browser as it is.

export interface KeystrokeSample {
  /** The query in the field after this keystroke. */
  query: string;
  /** Input event to the end of the synchronous input handlers, with a forced style and layout. */
  handlerMs: number;
  /** Input event to the last change of the results before the next keystroke; null if none. */
  toResultsMs: number | null;
}

export interface ProbeState {
  openedAt: number | null;
  firstResultAt: number | null;
  keystrokes: KeystrokeSample[];
}

declare global {
  interface Window {
    __searchBench: ProbeState & { resultSelector: string; resultsRoot: string; pending: { t0: number; sample: KeystrokeSample } | null };
  }
}

/** Installs the probe; `resultSelector` matches one result, `resultsRoot` the element results live in. */
export function installProbe({ resultSelector, resultsRoot }: { resultSelector: string; resultsRoot: string }): void {
  const epoch = () => performance.timeOrigin + performance.now();
  const state: Window['__searchBench'] = { openedAt: null, firstResultAt: null, keystrokes: [], resultSelector, resultsRoot, pending: null };
  window.__searchBench = state;
  addEventListener(
    'keydown',
    (event) => {
      if (state.openedAt === null && event.key === 'k' && (event.ctrlKey || event.metaKey)) state.openedAt = epoch();
    },
    true,
  );
  addEventListener(
    'input',
    (event) => {
      const target = event.target as HTMLInputElement;
      state.pending = { t0: performance.now(), sample: { query: target.value, handlerMs: 0, toResultsMs: null } };
    },
    true,
  );
  // Registered on window in the bubbling phase: runs after the search UI's own input handlers.
  addEventListener('input', () => {
    const pending = state.pending;
    if (!pending) return;
    document.body.getBoundingClientRect();
    pending.sample.handlerMs = performance.now() - pending.t0;
    state.keystrokes.push(pending.sample);
  });
  new MutationObserver((records) => {
    if (state.firstResultAt === null && document.querySelector(state.resultSelector)) state.firstResultAt = epoch();
    const pending = state.pending;
    if (!pending) return;
    const root = document.querySelector(state.resultsRoot);
    if (root && records.some((r) => root.contains(r.target))) pending.sample.toResultsMs = performance.now() - pending.t0;
  }).observe(document, { childList: true, subtree: true, characterData: true, attributes: true });
}
