import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

// The two benchmark plots, drawn as plain SVG (no plotting package): build time against N
// for Crucible and Starlight, and search bytes before the first result against entries per
// locale. Redrawn from bench/results/*.json after every benchmark run.

const resultsDir = resolve(import.meta.dirname, 'results');

export interface Series {
  name: string;
  color: string;
  dashed?: boolean;
  points: Array<[number, number]>;
  /** Runs that did not complete: drawn as a cross at the time they stopped. */
  stopped?: Array<[number, number]>;
}

interface Chart {
  title: string;
  xLabel: string;
  yLabel: string;
  series: Series[];
  /** Notes printed under the plot (e.g. a run that did not complete). */
  notes?: string[];
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function niceStep(range: number, ticks: number): number {
  const raw = range / ticks;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
}

/** Notes broken into lines of at most `width` characters. */
function wrap(notes: string[], width: number): string[] {
  return notes.flatMap((note) => {
    const lines: string[] = [];
    let line = '';
    for (const word of note.split(' ')) {
      if (line && line.length + word.length + 1 > width) {
        lines.push(line);
        line = `  ${word}`;
      } else line = line ? `${line} ${word}` : word;
    }
    return [...lines, line];
  });
}

const formatTick = (v: number) => (v >= 1000 ? `${v / 1000}k` : String(Number(v.toFixed(2))));

/** A line chart with a logarithmic x axis (N spans orders of magnitude) and a linear y axis from 0. */
export function lineChart(chart: Chart): string {
  const width = 720;
  const height = 420 + wrap(chart.notes ?? [], 100).length * 18;
  const plot = { left: 80, right: 180, top: 50, bottom: 360 };
  const all = chart.series.flatMap((s) => [...s.points, ...(s.stopped ?? [])]);
  const xs = all.map(([x]) => x);
  const ys = all.map(([, y]) => y);
  const xMin = Math.min(...xs);
  const xMax = Math.max(...xs, xMin * 3);
  const yStep = niceStep(Math.max(...ys, 1), 5);
  const yMax = Math.ceil(Math.max(...ys, 1) / yStep) * yStep;
  const logMin = Math.log10(xMin) - 0.1;
  const logMax = Math.log10(xMax) + 0.1;
  const px = (x: number) => plot.left + ((Math.log10(x) - logMin) / (logMax - logMin)) * (width - plot.right - plot.left);
  const py = (y: number) => plot.bottom - (y / yMax) * (plot.bottom - plot.top);

  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" font-family="system-ui, sans-serif" font-size="13">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${width / 2 - plot.right / 2 + plot.left / 2}" y="28" text-anchor="middle" font-size="16" font-weight="600">${escapeXml(chart.title)}</text>`,
  ];
  for (let y = 0; y <= yMax + 1e-9; y += yStep) {
    out.push(`<line x1="${plot.left}" x2="${width - plot.right}" y1="${py(y)}" y2="${py(y)}" stroke="#e5e7eb"/>`);
    out.push(`<text x="${plot.left - 8}" y="${py(y) + 4}" text-anchor="end" fill="#374151">${formatTick(y)}</text>`);
  }
  for (const x of [...new Set(xs)].sort((a, b) => a - b)) {
    out.push(`<line x1="${px(x)}" x2="${px(x)}" y1="${plot.top}" y2="${plot.bottom}" stroke="#f3f4f6"/>`);
    out.push(`<text x="${px(x)}" y="${plot.bottom + 18}" text-anchor="middle" fill="#374151">${formatTick(x)}</text>`);
  }
  out.push(`<line x1="${plot.left}" x2="${width - plot.right}" y1="${plot.bottom}" y2="${plot.bottom}" stroke="#111827"/>`);
  out.push(`<line x1="${plot.left}" x2="${plot.left}" y1="${plot.top}" y2="${plot.bottom}" stroke="#111827"/>`);
  out.push(`<text x="${(plot.left + width - plot.right) / 2}" y="${plot.bottom + 42}" text-anchor="middle">${escapeXml(chart.xLabel)}</text>`);
  out.push(`<text transform="translate(22 ${(plot.top + plot.bottom) / 2}) rotate(-90)" text-anchor="middle">${escapeXml(chart.yLabel)}</text>`);

  chart.series.forEach((series, i) => {
    const points = [...series.points].sort((a, b) => a[0] - b[0]);
    if (points.length > 1) {
      out.push(
        `<polyline fill="none" stroke="${series.color}" stroke-width="2.5"${series.dashed ? ' stroke-dasharray="6 4"' : ''} points="${points.map(([x, y]) => `${px(x).toFixed(1)},${py(y).toFixed(1)}`).join(' ')}"/>`,
      );
    }
    for (const [x, y] of points) {
      out.push(`<circle cx="${px(x).toFixed(1)}" cy="${py(y).toFixed(1)}" r="4" fill="${series.color}"/>`);
      // Alternate series label above and below their points so close values stay readable.
      out.push(
        `<text x="${(px(x) + 6).toFixed(1)}" y="${(py(y) + (i % 2 ? -6 : 14)).toFixed(1)}" font-size="11" fill="${series.color}">${formatTick(Number(y.toPrecision(3)))}</text>`,
      );
    }
    for (const [x, y] of series.stopped ?? []) {
      const [cx, cy] = [px(x), py(y)];
      out.push(`<path d="M${cx - 5} ${cy - 5}L${cx + 5} ${cy + 5}M${cx - 5} ${cy + 5}L${cx + 5} ${cy - 5}" stroke="${series.color}" stroke-width="2.5"/>`);
      out.push(
        `<text x="${(cx - 8).toFixed(1)}" y="${(cy + 4).toFixed(1)}" text-anchor="end" font-size="11" fill="${series.color}">stopped at ${formatTick(Number(y.toPrecision(3)))}</text>`,
      );
    }
    const ly = plot.top + 10 + i * 22;
    out.push(
      `<line x1="${width - plot.right + 16}" x2="${width - plot.right + 40}" y1="${ly}" y2="${ly}" stroke="${series.color}" stroke-width="2.5"${series.dashed ? ' stroke-dasharray="6 4"' : ''}/>`,
    );
    out.push(`<text x="${width - plot.right + 46}" y="${ly + 4}">${escapeXml(series.name)}</text>`);
  });
  for (const [i, note] of wrap(chart.notes ?? [], 100).entries()) {
    out.push(`<text x="${plot.left - 60}" y="${plot.bottom + 66 + i * 18}" font-size="12" fill="#6b7280">${escapeXml(note)}</text>`);
  }
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

async function readJson<T>(file: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(join(resultsDir, file), 'utf8')) as T;
  } catch {
    return null;
  }
}

interface BuildJson {
  runs: Record<
    string,
    { pages: number; crucible?: { completed: boolean; wallMs: number; reason?: string }; starlight?: { completed: boolean; wallMs: number; reason?: string } }
  >;
}
interface SearchJson {
  runs: Record<
    string,
    {
      entries: number;
      crucible: Record<string, { bytesBeforeFirstResult: number } | undefined>;
      pagefind: Record<string, { bytesBeforeFirstResult: number } | undefined>;
    }
  >;
}

export async function renderPlots(): Promise<void> {
  const build = await readJson<BuildJson>('build.json');
  if (build) {
    const runs = Object.values(build.runs).sort((a, b) => a.pages - b.pages);
    const points = (pick: (r: (typeof runs)[number]) => { completed: boolean; wallMs: number } | undefined, completed: boolean) =>
      runs.flatMap((r) => {
        const run = pick(r);
        return run && run.completed === completed ? [[r.pages, run.wallMs / 1000] as [number, number]] : [];
      });
    const notes = runs.flatMap((r) => [
      ...(r.crucible && !r.crucible.completed ? [`Crucible at ${r.pages} pages: ${r.crucible.reason ?? 'did not complete'}`] : []),
      ...(r.starlight && !r.starlight.completed ? [`Starlight at ${r.pages} pages: ${r.starlight.reason ?? 'did not complete'}`] : []),
    ]);
    const svg = lineChart({
      title: 'Whole build time (astro build, clean cache)',
      xLabel: 'pages in the corpus (N, log scale)',
      yLabel: 'wall time (s)',
      series: [
        { name: 'Crucible', color: '#c2410c', points: points((r) => r.crucible, true), stopped: points((r) => r.crucible, false) },
        { name: 'Starlight', color: '#4338ca', dashed: true, points: points((r) => r.starlight, true), stopped: points((r) => r.starlight, false) },
      ],
      notes,
    });
    await writeFile(join(resultsDir, 'build-time.svg'), svg);
  }
  const search = await readJson<SearchJson>('search.json');
  if (search) {
    const runs = Object.values(search.runs).sort((a, b) => a.entries - b.entries);
    const series = (system: 'crucible' | 'pagefind', locale: string, name: string, color: string, dashed: boolean): Series => ({
      name,
      color,
      dashed,
      points: runs.flatMap((r) => {
        const m = r[system][locale];
        return m ? [[r.entries, m.bytesBeforeFirstResult / 1024] as [number, number]] : [];
      }),
    });
    const svg = lineChart({
      title: 'Bytes transferred before the first search result',
      xLabel: 'entries per locale (log scale)',
      yLabel: 'KiB over the wire (brotli / as served)',
      series: [
        series('crucible', 'en', 'Crucible en', '#c2410c', false),
        series('crucible', 'ja', 'Crucible ja', '#f59e0b', false),
        series('pagefind', 'en', 'Pagefind en', '#4338ca', true),
        series('pagefind', 'ja', 'Pagefind ja', '#0891b2', true),
      ],
    });
    await writeFile(join(resultsDir, 'search-bytes.svg'), svg);
  }
}

if (import.meta.main) await renderPlots();
