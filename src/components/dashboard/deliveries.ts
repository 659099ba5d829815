// A webhook's deliveries (docs/webhooks.md#deliveries-log), newest first a page at a time: status, block, attempts and
// the last answer; each opens to every attempt and the payload that was POSTed.
import type { DashboardTexts } from './client-texts.ts';
import { el, formatNumber, formatTime } from './dom.ts';
import { failureText } from './form.ts';
import { call, type DashboardPage } from './page.ts';
import type { Delivery, DeliveryDetail, Webhook } from './types.ts';

type Texts = Pick<DashboardTexts, 'webhooks'>;

const PAGE_SIZE = 20;

/** The deliveries part of a webhook's card: a button that shows them, refresh and older pages. */
export function mountDeliveries(page: DashboardPage<Texts>, webhook: Webhook): HTMLElement {
  const texts = page.texts.webhooks;
  const hostId = `deliveries-${webhook.id}`;
  const toggle = el('button', { type: 'button', class: 'secondary small', 'aria-expanded': 'false', 'aria-controls': hostId }, texts.showDeliveries);
  const refresh = el('button', { type: 'button', class: 'secondary small', hidden: true }, texts.refresh);
  const status = el('p', { class: 'form-status', role: 'status' });
  const body = el('tbody');
  const table = el(
    'table',
    { hidden: true },
    el('caption', {}, texts.deliveries),
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        ...[page.texts.common.created, texts.status, texts.block, texts.attempts, texts.httpStatus, texts.lastError, texts.details].map((label) =>
          el('th', { scope: 'col' }, label),
        ),
      ),
    ),
    body,
  );
  const more = el('button', { type: 'button', class: 'secondary small', hidden: true }, texts.more);
  const host = el('div', { id: hostId, hidden: true, 'data-deliveries': webhook.id }, table, more);
  let pageKey: string | null = null;
  /** Loads asked for so far: only the last one's answer is shown, whatever order the answers come in. */
  let asked = 0;

  /** While a load is out the list is aria-busy; a row opened meanwhile would be replaced by its answer. */
  const load = async (append: boolean) => {
    const ask = ++asked;
    host.setAttribute('aria-busy', 'true');
    status.textContent = page.texts.common.loading;
    const query = new URLSearchParams({ limit: String(PAGE_SIZE), ...(append && pageKey !== null && { pageKey }) });
    const result = await call<{ deliveries: Delivery[]; pageKey: string | null }>(
      page,
      'GET',
      `/api/webhooks/${encodeURIComponent(webhook.id)}/deliveries?${query}`,
    );
    if (ask !== asked) return;
    host.setAttribute('aria-busy', 'false');
    if (!result.ok) return void (status.textContent = failureText(result, page.texts.common));
    if (!append) body.replaceChildren();
    for (const delivery of result.body.deliveries) body.append(...rows(page, webhook, delivery));
    pageKey = result.body.pageKey;
    more.hidden = pageKey === null;
    table.hidden = body.childElementCount === 0;
    status.textContent = body.childElementCount === 0 ? texts.noDeliveries : '';
  };

  toggle.addEventListener('click', () => {
    const open = toggle.getAttribute('aria-expanded') !== 'true';
    toggle.setAttribute('aria-expanded', String(open));
    host.hidden = !open;
    refresh.hidden = !open;
    if (open) void load(false);
    else status.textContent = '';
  });
  refresh.addEventListener('click', () => void load(false));
  more.addEventListener('click', () => void load(true));
  return el('div', { class: 'deliveries' }, el('div', { class: 'actions' }, toggle, refresh, status), host);
}

/** A delivery's row, and the row below it that opens to its attempts and payload. */
function rows(page: DashboardPage<Texts>, webhook: Webhook, delivery: Delivery): [HTMLTableRowElement, HTMLTableRowElement] {
  const texts = page.texts.webhooks;
  const detailId = `delivery-${delivery.id}`;
  const open = el('button', { type: 'button', class: 'secondary small', 'aria-expanded': 'false', 'aria-controls': detailId }, texts.details);
  const cell = el('td', { colspan: '7' });
  const detail = el('tr', { id: detailId, hidden: true }, cell);
  const row = el(
    'tr',
    { 'data-delivery': delivery.id, 'data-status': delivery.status },
    el('td', {}, formatTime(delivery.createdAt)),
    el('td', {}, texts.statuses[delivery.status]),
    el('td', { class: 'number' }, delivery.blockNumber === null ? '' : formatNumber(delivery.blockNumber)),
    el('td', { class: 'number' }, formatNumber(delivery.attempts)),
    el('td', { class: 'number' }, delivery.lastHttpStatus === null ? '' : String(delivery.lastHttpStatus)),
    el('td', { lang: 'en' }, delivery.lastError ?? ''),
    el('td', {}, open),
  );
  let loaded = false;
  open.addEventListener('click', async () => {
    const expanded = open.getAttribute('aria-expanded') !== 'true';
    open.setAttribute('aria-expanded', String(expanded));
    detail.hidden = !expanded;
    if (!expanded || loaded) return;
    cell.textContent = page.texts.common.loading;
    const result = await call<DeliveryDetail>(page, 'GET', `/api/webhooks/${encodeURIComponent(webhook.id)}/deliveries/${encodeURIComponent(delivery.id)}`);
    if (!result.ok) return void (cell.textContent = failureText(result, page.texts.common));
    loaded = true;
    cell.replaceChildren(...detailOf(page, result.body));
  });
  return [row, detail];
}

function detailOf(page: DashboardPage<Texts>, delivery: DeliveryDetail): Node[] {
  const texts = page.texts.webhooks;
  const head = el(
    'tr',
    {},
    ...[texts.attempt, texts.outcome, texts.httpStatus, texts.error, texts.duration, texts.started].map((label) => el('th', { scope: 'col' }, label)),
  );
  const attempts = delivery.attemptList.map((attempt) =>
    el(
      'tr',
      {},
      el('td', { class: 'number' }, String(attempt.attempt)),
      el('td', {}, texts.outcomes[attempt.outcome]),
      el('td', { class: 'number' }, attempt.httpStatus === null ? '' : String(attempt.httpStatus)),
      el('td', { lang: 'en' }, attempt.error ?? ''),
      el('td', { class: 'number' }, attempt.durationMs === null ? '' : formatNumber(attempt.durationMs)),
      el('td', {}, formatTime(attempt.startedAt)),
    ),
  );
  return [
    el('table', {}, el('caption', {}, texts.attempts), el('thead', {}, head), el('tbody', {}, ...attempts)),
    el('p', { class: 'help' }, texts.payload),
    el('pre', { class: 'payload', tabindex: '0', 'data-payload': true }, el('code', {}, JSON.stringify(delivery.payload, null, 2))),
  ];
}
