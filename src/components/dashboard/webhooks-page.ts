// The webhooks page: list, create (checked first with the webhook API's own CreateWebhook schema),
// pause and resume, delete, and each webhook's deliveries. The webhook API takes the dashboard's
// session (and its CSRF token) instead of X-Crucible-Token. The form shows the inputs of the type
// chosen: NFT filters, an address webhook's addresses, or the app a transaction webhook hears.
import { CreateWebhook, NFT_WEBHOOK_TYPES, TRANSACTION_WEBHOOK_TYPES, type WebhookType } from '../../webhooks/schemas.ts';
import { showAccountCap } from './account-cap.ts';
import type { DashboardTexts } from './client-texts.ts';
import { confirmAction } from './confirm.ts';
import { mountDeliveries } from './deliveries.ts';
import { el, formatTime, part } from './dom.ts';
import { linesOf } from './field-errors.ts';
import { fill } from './template.ts';
import { DashboardForm, failureText } from './form.ts';
import { call, dashboardPage, loadAll, markReady, requireAccount, type DashboardPage } from './page.ts';
import type { App, Network, Webhook } from './types.ts';

type Texts = Pick<DashboardTexts, 'errors' | 'webhooks'>;

export async function mountWebhooks(): Promise<void> {
  const page = dashboardPage<Texts>();
  await requireAccount(page);
  const texts = page.texts.webhooks;
  const form = new DashboardForm(part<HTMLFormElement>(page.root, 'create-webhook'));
  const loaded = await loadAll<[{ networks: Network[] }, { webhooks: Webhook[]; maxWebhooks: number | null }, { apps: App[] }]>(
    page,
    '/api/dashboard/networks',
    '/api/webhooks',
    '/api/dashboard/apps',
  );
  if (!loaded) return;
  const [{ networks }, { webhooks, maxWebhooks }, { apps }] = loaded;
  const appSelect = form.form.elements.namedItem('appId') as HTMLSelectElement;
  appSelect.replaceChildren(
    ...(apps.length > 0
      ? apps.map((app) => el('option', { value: app.id }, app.name))
      : [el('option', { value: '', disabled: true, selected: true }, texts.noApps)]),
  );
  const typeSelect = form.form.elements.namedItem('type') as HTMLSelectElement;
  const showInputsOf = () => {
    const type = typeSelect.value as WebhookType;
    const shown: Record<string, boolean> = {
      'filters.contractAddresses': isNft(type),
      // Shown for both NFT types: the server says beside it that metadata webhooks take none.
      'filters.tokenIds': isNft(type),
      addresses: type === 'ADDRESS_ACTIVITY',
      appId: isTransaction(type),
    };
    for (const [name, visible] of Object.entries(shown)) {
      const field = form.form.querySelector<HTMLElement>(`[data-field="${name}"]`);
      if (field) field.hidden = !visible;
    }
  };
  typeSelect.addEventListener('change', showInputsOf);
  showInputsOf();
  const networkSelect = form.form.elements.namedItem('network') as HTMLSelectElement;
  const preferred = page.root.dataset.preferredNetwork;
  networkSelect.replaceChildren(...networks.map((network) => el('option', { value: network.id, selected: network.id === preferred }, network.name)));
  const countLine = part(page.root, 'webhook-count');
  const list = new WebhookList(page, networks, apps, (count) => {
    if (maxWebhooks !== null) showAccountCap(countLine, texts, count, maxWebhooks);
  });
  list.show(webhooks);

  form.onSubmit(async () => {
    const type = form.value('type') as WebhookType;
    const input = {
      type,
      network: form.value('network'),
      url: form.value('url').trim(),
      ...(isNft(type) && {
        filters: {
          contractAddresses: linesOf(form.value('filters.contractAddresses')),
          tokenIds: linesOf(form.value('filters.tokenIds')),
        },
      }),
      ...(type === 'ADDRESS_ACTIVITY' && { addresses: linesOf(form.value('addresses')) }),
      ...(isTransaction(type) && { appId: form.value('appId') }),
    };
    // What depends on the server's mode (https only, public hosts) it answers, beside the field too.
    if (!form.check(CreateWebhook, input, webhookFieldMessages(page.texts.errors))) return;
    form.busy(texts.creating);
    const result = await call<Webhook>(page, 'POST', '/api/webhooks', input);
    form.busy(null);
    if (!result.ok) return form.showFailure(result, page.texts.common);
    form.form.reset();
    showInputsOf();
    list.add(result.body);
  });
  markReady(page);
}

const isNft = (type: WebhookType) => (NFT_WEBHOOK_TYPES as readonly string[]).includes(type);
const isTransaction = (type: WebhookType) => (TRANSACTION_WEBHOOK_TYPES as readonly string[]).includes(type);

/** The check's words for each field of the form, as the API names its inputs. */
function webhookFieldMessages(errors: DashboardTexts['errors']): Record<string, string> {
  return {
    network: errors.network,
    url: errors.url,
    'filters.contractAddresses': errors.contractAddresses,
    'filters.tokenIds': errors.tokenIds,
    addresses: errors.addresses,
    appId: errors.appId,
  };
}

class WebhookList {
  private readonly page: DashboardPage<Texts>;
  private readonly networks: readonly Network[];
  private readonly apps: readonly App[];
  private readonly list: HTMLElement;
  /** Told how many webhooks the list shows, whenever that changes. */
  private readonly counted: (count: number) => void;

  constructor(page: DashboardPage<Texts>, networks: readonly Network[], apps: readonly App[], counted: (count: number) => void) {
    this.page = page;
    this.networks = networks;
    this.apps = apps;
    this.list = part(page.root, 'webhook-list');
    this.counted = counted;
  }

  show(webhooks: readonly Webhook[]): void {
    this.list.replaceChildren(...webhooks.map((webhook) => this.item(webhook)));
    this.changed();
  }

  add(webhook: Webhook): void {
    this.list.querySelector('[data-empty]')?.remove();
    const item = this.item(webhook);
    this.list.append(item);
    this.changed();
    item.querySelector<HTMLElement>('h3')?.focus();
  }

  /** After a webhook came or went: the empty line when none is left, and the count. */
  private changed(): void {
    const count = this.list.querySelectorAll('[data-webhook]').length;
    if (count === 0) this.list.replaceChildren(el('li', { 'data-empty': true }, this.page.texts.webhooks.empty));
    this.counted(count);
  }

  private item(webhook: Webhook): HTMLLIElement {
    const texts = this.page.texts.webhooks;
    const networkName = this.networks.find((network) => network.id === webhook.network)?.name ?? webhook.network;
    const path = `/api/webhooks/${encodeURIComponent(webhook.id)}`;
    const status = el('p', { class: 'form-status', role: 'status' });
    const active = webhook.state === 'active';
    const toggle = el('button', { type: 'button', class: 'secondary small' }, active ? texts.pause : texts.resume);
    const remove = el('button', { type: 'button', class: 'danger small' }, texts.delete);
    const item = el(
      'li',
      { class: 'card-item', 'data-webhook': webhook.id },
      el('h3', { tabindex: '-1' }, `${texts.types[webhook.type]} · ${networkName}`),
      el(
        'p',
        {},
        el('span', { class: `badge ${active ? 'ok' : 'off'}` }, active ? texts.active : texts.paused),
        webhook.pausedReason ? ' ' : null,
        webhook.pausedReason ? el('span', { lang: 'en' }, webhook.pausedReason) : null,
      ),
      el(
        'dl',
        { class: 'facts' },
        el('dt', {}, texts.url),
        el('dd', { class: 'mono' }, webhook.url),
        ...this.selection(webhook),
        el('dt', {}, this.page.texts.common.created),
        el('dd', {}, formatTime(webhook.createdAt)),
      ),
      el(
        'details',
        {},
        el('summary', {}, texts.signingKey),
        el('p', {}, el('code', { class: 'mono', 'data-signing-key': true }, webhook.signingKey)),
        el('p', { class: 'help' }, texts.signingKeyHelp),
      ),
      el('div', { class: 'actions' }, toggle, remove, status),
    );
    item.append(mountDeliveries(this.page, webhook));

    toggle.addEventListener('click', async () => {
      toggle.disabled = true;
      const result = await call<Webhook>(this.page, 'POST', `${path}/${active ? 'pause' : 'resume'}`);
      toggle.disabled = false;
      if (!result.ok) return void (status.textContent = failureText(result, this.page.texts.common));
      const next = this.item(result.body);
      item.replaceWith(next);
      next.querySelector<HTMLButtonElement>('.actions button')?.focus();
    });
    remove.addEventListener('click', async () => {
      if (!(await confirmAction({ title: texts.deleteConfirm, body: texts.deleteConfirmBody, confirm: texts.delete, cancel: this.page.texts.common.cancel })))
        return;
      const result = await call<null>(this.page, 'DELETE', path);
      if (!result.ok && result.status !== 404) return void (status.textContent = failureText(result, this.page.texts.common));
      item.remove();
      this.changed();
      part(this.page.root, 'webhook-list').closest('section')?.querySelector<HTMLElement>('h2')?.focus();
    });
    return item;
  }

  /** What the webhook listens to, as its type says: NFT filters, a count of addresses, or an app. */
  private selection(webhook: Webhook): HTMLElement[] {
    const texts = this.page.texts.webhooks;
    const type = webhook.type as WebhookType;
    if (type === 'ADDRESS_ACTIVITY')
      return [el('dt', {}, texts.addresses), el('dd', {}, fill(texts.addressCount, { count: webhook.addressCount.toLocaleString() }))];
    if (isTransaction(type)) {
      const app = this.apps.find((candidate) => candidate.id === webhook.appId);
      return [el('dt', {}, texts.app), el('dd', {}, app ? `${app.name} (${webhook.appId})` : (webhook.appId ?? ''))];
    }
    const { contractAddresses, tokenIds, tokens } = webhook.filters;
    const everything = contractAddresses.length + tokenIds.length + tokens.length === 0;
    return [
      el('dt', {}, texts.contracts),
      el('dd', { class: 'mono' }, contractAddresses.join(', ') || texts.everyContract),
      el('dt', {}, texts.tokenIds),
      el('dd', { class: 'mono' }, tokenIds.join(', ') || texts.everyToken),
      ...(everything || tokens.length === 0
        ? []
        : [el('dt', {}, texts.tokens), el('dd', { class: 'mono' }, tokens.map((token) => `${token.contractAddress} #${token.tokenId}`).join(', '))]),
    ];
  }
}
