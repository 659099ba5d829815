// An app's usage on its page: the last hour, day or month as three uPlot charts (requests and
// compute units per network and method, errors by code), each with a table of the same numbers
// beside it and a summary as the chart's text alternative.
import type { DashboardTexts } from './client-texts.ts';
import { el, formatNumber, part } from './dom.ts';
import { failureText } from './form.ts';
import { call, type DashboardPage } from './page.ts';
import { fill } from './template.ts';
import type { Usage, UsageRange } from './types.ts';
import { barChart, bucketFormat, lineChart, MAX_SERIES, seriesColor } from './usage-chart.ts';
import { errorCodes, usageRows, usageTable, type UsageMetric, type UsageTable } from './usage-data.ts';

type Texts = Pick<DashboardTexts, 'usage'>;

/** Loads the chosen range now and whenever another is chosen; returns a reload. */
export function mountUsage(page: DashboardPage<Texts>, appId: string): () => Promise<void> {
  const status = part(page.root, 'usage-status');
  const radios = [...page.root.querySelectorAll<HTMLInputElement>('input[data-usage-range]')];
  const removers: Array<() => void> = [];
  const range = () => (radios.find((radio) => radio.checked)?.value ?? 'hour') as UsageRange;

  /** Loads asked for so far: only the last one's answer is shown (a range chosen, then another, or a refresh meanwhile). */
  let asked = 0;
  const load = async () => {
    const ask = ++asked;
    status.textContent = page.texts.common.loading;
    const result = await call<Usage>(page, 'GET', `/api/dashboard/apps/${encodeURIComponent(appId)}/usage?range=${range()}`);
    if (ask !== asked) return;
    if (!result.ok) {
      status.textContent = failureText(result, page.texts.common);
      return;
    }
    for (const remove of removers.splice(0)) remove();
    const texts = page.texts.usage;
    for (const metric of ['requests', 'computeUnits'] as const) {
      const table = usageTable(result.body, metric, { maxSeries: MAX_SERIES, otherLabel: texts.other });
      removers.push(showSeries(block(page, metric), table, result.body.bucket, metric === 'requests' ? texts.requests : texts.computeUnits, texts));
    }
    removers.push(showErrors(block(page, 'errors'), result.body, texts));
    status.textContent = '';
    page.root.dataset.usageRange = result.body.range;
  };
  for (const radio of radios) radio.addEventListener('change', () => void load());
  part(page.root, 'usage-refresh').addEventListener('click', () => void load());
  void load();
  return load;
}

function block(page: DashboardPage<unknown>, metric: UsageMetric | 'errors'): HTMLElement {
  return page.root.querySelector<HTMLElement>(`[data-usage-block="${metric}"]`)!;
}

/** Chart, legend and table of one metric; returns what removes the chart. */
function showSeries(container: HTMLElement, table: UsageTable, bucket: Usage['bucket'], what: string, texts: DashboardTexts['usage']): () => void {
  const chart = part(container, 'chart');
  const legend = part(container, 'legend');
  const tableHost = part(container, 'usage-table');
  chart.setAttribute('aria-label', fill(texts.summary, { what, total: formatNumber(table.total) }));
  container.classList.toggle('empty', table.total === 0);
  if (table.total === 0) {
    chart.hidden = true;
    legend.replaceChildren();
    tableHost.replaceChildren(el('p', {}, texts.empty));
    return () => {};
  }
  chart.hidden = false;
  legend.replaceChildren(
    ...table.series.map((series, index) => el('li', {}, el('span', { class: 'swatch', style: `background:${seriesColor(index)}` }), series.label)),
  );
  const head = el(
    'tr',
    {},
    el('th', { scope: 'col' }, texts.time),
    ...table.series.map((series) => el('th', { scope: 'col', class: 'number' }, series.label)),
    el('th', { scope: 'col', class: 'number' }, texts.total),
  );
  const time = bucketFormat(bucket);
  const rows = usageRows(table).map((row) =>
    el(
      'tr',
      {},
      el('th', { scope: 'row', class: 'time' }, time.format(row.time)),
      ...row.values.map((value) => el('td', { class: 'number' }, formatNumber(value))),
      el('td', { class: 'number' }, formatNumber(row.total)),
    ),
  );
  const foot = el(
    'tr',
    {},
    el('th', { scope: 'row' }, texts.total),
    ...table.series.map((series) => el('td', { class: 'number' }, formatNumber(series.total))),
    el('td', { class: 'number' }, formatNumber(table.total)),
  );
  tableHost.replaceChildren(
    el('table', {}, el('caption', {}, fill(texts.tableCaption, { what })), el('thead', {}, head), el('tbody', {}, ...rows), el('tfoot', {}, foot)),
  );
  return lineChart(chart, table, bucket);
}

function showErrors(container: HTMLElement, usage: Usage, texts: DashboardTexts['usage']): () => void {
  const chart = part(container, 'chart');
  const tableHost = part(container, 'usage-table');
  const { codes, counts, total } = errorCodes(usage);
  part(container, 'legend').replaceChildren();
  chart.setAttribute('aria-label', fill(texts.summary, { what: texts.errors, total: formatNumber(total) }));
  container.classList.toggle('empty', total === 0);
  if (total === 0) {
    chart.hidden = true;
    tableHost.replaceChildren(el('p', {}, texts.noErrors));
    return () => {};
  }
  chart.hidden = false;
  const rows = codes.map((code, at) => el('tr', {}, el('th', { scope: 'row', class: 'mono' }, code), el('td', { class: 'number' }, formatNumber(counts[at]!))));
  const foot = el('tr', {}, el('th', { scope: 'row' }, texts.total), el('td', { class: 'number' }, formatNumber(total)));
  tableHost.replaceChildren(
    el(
      'table',
      {},
      el('caption', {}, texts.errors),
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, texts.code), el('th', { scope: 'col', class: 'number' }, texts.count))),
      el('tbody', {}, ...rows),
      el('tfoot', {}, foot),
    ),
  );
  return barChart(chart, codes, counts);
}
