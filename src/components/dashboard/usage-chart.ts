// uPlot charts of an app's usage: lines over time per network and method, and bars of errors by
// code. The canvas is one image to assistive technology (role=img, its summary as label); the
// table beside it holds every number. Colours follow the page's light or dark scheme.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatNumber, pageLang } from './dom.ts';
import { chartData, type UsageTable } from './usage-data.ts';
import type { Usage } from './types.ts';

/** At least 3:1 against the page's background in each scheme (WCAG 1.4.11), told apart by the legend's labels too. */
const PALETTES = {
  light: ['#1d4ed8', '#c2410c', '#047857', '#7e22ce', '#b45309', '#0e7490', '#be185d', '#4b5563'],
  dark: ['#93b4ff', '#fb923c', '#34d399', '#d8b4fe', '#fbbf24', '#22d3ee', '#f9a8d4', '#cbd5e1'],
};

/** The most series a chart draws; the rest are summed into one. */
export const MAX_SERIES = PALETTES.light.length;

const HEIGHT = 240;
const dark = () => matchMedia('(prefers-color-scheme: dark)').matches;

function theme() {
  const style = getComputedStyle(document.documentElement);
  return { text: style.getPropertyValue('--muted').trim(), grid: style.getPropertyValue('--border').trim(), palette: dark() ? PALETTES.dark : PALETTES.light };
}

/** The colour of a series, as its legend swatch shows it. */
export function seriesColor(index: number): string {
  const palette = theme().palette;
  return palette[index % palette.length]!;
}

const compact = () => new Intl.NumberFormat(pageLang(), { notation: 'compact', maximumFractionDigits: 1 });

const BUCKET_FORMATS: Record<Usage['bucket'], Intl.DateTimeFormatOptions> = {
  minute: { hour: 'numeric', minute: '2-digit' },
  hour: { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' },
  day: { month: 'short', day: 'numeric' },
};

/** A bucket's start as the axis and the table show it: as precise as the bucket, no more. */
export function bucketFormat(bucket: Usage['bucket']): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(pageLang(), BUCKET_FORMATS[bucket]);
}

function axisStyle(colors: ReturnType<typeof theme>): Partial<uPlot.Axis> {
  return { stroke: colors.text, grid: { stroke: colors.grid, width: 1 }, ticks: { stroke: colors.grid, width: 1 }, font: '12px system-ui, sans-serif' };
}

/** Draws into `host`, again when the colour scheme changes or `host` is resized; returns a function that removes it. */
function mount(host: HTMLElement, make: (width: number) => uPlot): () => void {
  let chart = make(host.clientWidth);
  const redraw = () => {
    chart.destroy();
    chart = make(host.clientWidth);
  };
  const scheme = matchMedia('(prefers-color-scheme: dark)');
  scheme.addEventListener('change', redraw);
  const resize = new ResizeObserver(() => {
    if (host.clientWidth > 0 && host.clientWidth !== chart.width) chart.setSize({ width: host.clientWidth, height: HEIGHT });
  });
  resize.observe(host);
  return () => {
    scheme.removeEventListener('change', redraw);
    resize.disconnect();
    chart.destroy();
  };
}

/** Lines over the range's buckets, one per series of the table. */
export function lineChart(host: HTMLElement, table: UsageTable, bucket: Usage['bucket']): () => void {
  const format = bucketFormat(bucket);
  return mount(host, (width) => {
    const colors = theme();
    const options: uPlot.Options = {
      width,
      height: HEIGHT,
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: true }, y: { range: (_, __, max) => [0, Math.max(1, max) * 1.1] } },
      axes: [
        { ...axisStyle(colors), values: (_, splits) => splits.map((seconds) => format.format(new Date(seconds * 1000))) },
        { ...axisStyle(colors), size: 56, values: (_, splits) => splits.map((value) => compact().format(value)) },
      ],
      series: [
        {},
        ...table.series.map((series, index) => ({ label: series.label, stroke: colors.palette[index % colors.palette.length], width: 2, points: { size: 5 } })),
      ],
    };
    return new uPlot(options, chartData(table), host);
  });
}

/** One bar per error code, most first. */
export function barChart(host: HTMLElement, codes: readonly string[], counts: readonly number[]): () => void {
  return mount(host, (width) => {
    const colors = theme();
    const indexes = codes.map((_, index) => index);
    const options: uPlot.Options = {
      width,
      height: HEIGHT,
      legend: { show: false },
      cursor: { show: false },
      scales: { x: { time: false, range: () => [-0.5, codes.length - 0.5] }, y: { range: (_, __, max) => [0, Math.max(1, max) * 1.1] } },
      axes: [
        { ...axisStyle(colors), splits: () => indexes, values: (_, splits) => splits.map((at) => codes[at] ?? '') },
        { ...axisStyle(colors), size: 56, values: (_, splits) => splits.map((value) => (Number.isInteger(value) ? formatNumber(value) : '')) },
      ],
      series: [
        {},
        { label: 'errors', stroke: colors.palette[1], fill: colors.palette[1], paths: uPlot.paths.bars!({ size: [0.6, 80] }), points: { show: false } },
      ],
    };
    return new uPlot(options, [indexes, [...counts]], host);
  });
}
