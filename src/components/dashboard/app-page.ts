// One app's page: loads the app named by `?id=`, and its state, settings, rotation and deletion.
// Every change sends the version it was made on: a 409 stale_version (the app changed in another
// tab, or with the CLI) says so and shows the app as it now is.
import { AppChange, KeyRotation } from '../../dashboard/schemas.ts';
import { appFieldMessages, appInput, fillAppFields, formById } from './app-fields.ts';
import { mountKey } from './app-key.ts';
import { mountUsage } from './app-usage.ts';
import type { ApiResult } from './api.ts';
import type { DashboardTexts } from './client-texts.ts';
import { confirmAction } from './confirm.ts';
import { el, formatNumber, formatTime, part } from './dom.ts';
import { DashboardForm, failureText } from './form.ts';
import { call, dashboardPage, markReady, requireAccount, showPageError, type DashboardPage } from './page.ts';
import { fill } from './template.ts';
import type { App, Network } from './types.ts';

type Texts = Pick<DashboardTexts, 'errors' | 'apps' | 'app' | 'usage'>;

export async function mountApp(): Promise<void> {
  const page = dashboardPage<Texts>();
  const texts = page.texts.app;
  const params = new URLSearchParams(location.search);
  const appId = params.get('id');
  if (!appId) return showPageError(page, texts.missingId);
  await requireAccount(page);
  const path = `/api/dashboard/apps/${encodeURIComponent(appId)}`;
  const [networks, loaded] = await Promise.all([call<{ networks: Network[] }>(page, 'GET', '/api/dashboard/networks'), call<{ app: App }>(page, 'GET', path)]);
  if (!loaded.ok) return showPageError(page, loaded.status === 404 ? texts.notFound : failureText(loaded, page.texts.common));
  if (!networks.ok) return showPageError(page, failureText(networks, page.texts.common));

  const settings = formById('app-settings');
  const key = mountKey(page, appId, networks.body.networks);
  let app = loaded.body.app;
  const show = (next: App) => {
    app = next;
    showApp(page, app, networks.body.networks);
    fillAppFields(settings, app, networks.body.networks);
    key.showApp(app);
  };
  /** After a 409: the app as it is now, and why the change did not happen. */
  const reload = async (): Promise<boolean> => {
    const fresh = await call<{ app: App }>(page, 'GET', path);
    if (fresh.ok) show(fresh.body.app);
    return fresh.ok;
  };
  const isStale = (result: ApiResult<unknown>) => !result.ok && result.status === 409;

  show(app);
  part(page.root, 'app-created').hidden = params.get('created') !== '1';
  part(page.root, 'app-view').hidden = false;
  mountUsage(page, appId);

  const stateButton = part<HTMLButtonElement>(page.root, 'toggle-state');
  const stateStatus = part(page.root, 'state-status');
  stateButton.addEventListener('click', async () => {
    stateButton.disabled = true;
    stateStatus.textContent = '';
    const result = await call<{ app: App }>(page, 'PATCH', path, { version: app.version, state: app.state === 'active' ? 'disabled' : 'active' });
    stateButton.disabled = false;
    if (result.ok) show(result.body.app);
    else if (isStale(result) && (await reload())) stateStatus.textContent = texts.staleVersion;
    else if (!result.ok) stateStatus.textContent = failureText(result, page.texts.common);
  });

  settings.onSubmit(async () => {
    const input = { version: app.version, ...appInput(settings) };
    if (!settings.check(AppChange, input, appFieldMessages(page.texts.errors))) return;
    settings.busy(texts.saving);
    const result = await call<{ app: App }>(page, 'PATCH', path, AppChange.parse(input));
    settings.busy(null);
    if (result.ok) {
      show(result.body.app);
      return settings.showStatus(texts.saved);
    }
    if (isStale(result) && (await reload())) return settings.showError(texts.staleVersion);
    settings.showFailure(result as Extract<typeof result, { ok: false }>, page.texts.common);
  });

  const rotate = new DashboardForm(part<HTMLFormElement>(page.root, 'rotate-key'));
  rotate.onSubmit(async () => {
    const input = { graceSeconds: Number(rotate.value('graceSeconds')) };
    if (!rotate.check(KeyRotation, input, {})) return;
    const confirmed = await confirmAction({
      title: texts.rotateConfirm,
      body: texts.rotateConfirmBody,
      confirm: texts.rotate,
      cancel: page.texts.common.cancel,
    });
    if (!confirmed) return;
    rotate.busy(texts.saving);
    const result = await call<{ app: App; key: string }>(page, 'POST', `${path}/rotate`, input);
    rotate.busy(null);
    if (!result.ok) return rotate.showFailure(result, page.texts.common);
    show(result.body.app);
    key.showKey(result.body.key);
    rotate.showStatus(texts.rotated);
  });

  const deleteButton = part<HTMLButtonElement>(page.root, 'delete-app');
  deleteButton.addEventListener('click', async () => {
    const confirmed = await confirmAction({
      title: fill(texts.deleteConfirm, { name: app.name }),
      body: texts.deleteConfirmBody,
      confirm: texts.delete,
      cancel: page.texts.common.cancel,
    });
    if (!confirmed) return;
    deleteButton.disabled = true;
    const result = await call<null>(page, 'DELETE', path);
    deleteButton.disabled = false;
    if (result.ok || result.status === 404) return location.assign(page.urls.apps);
    part(page.root, 'delete-status').textContent = failureText(result, page.texts.common);
  });
  markReady(page);
}

/** The app's name as the page's title, its facts, and its state. */
function showApp(page: DashboardPage<Texts>, app: App, networks: readonly Network[]): void {
  const { app: texts, apps } = page.texts;
  part(page.root, 'title').textContent = app.name;
  document.title = `${app.name} · Crucible`;
  const networkName = (id: string) => networks.find((network) => network.id === id)?.name ?? id;
  const facts: Array<[string, Node | string]> = [
    [texts.id, el('code', { class: 'mono' }, app.id)],
    [apps.state, el('span', { class: `badge ${app.state === 'active' ? 'ok' : 'off'}` }, app.state === 'active' ? apps.active : apps.disabled)],
    [apps.networks, app.allowedNetworks.length === 0 ? apps.allNetworks : app.allowedNetworks.map(networkName).join(', ')],
    [apps.domains, app.allowedDomains.length === 0 ? apps.anyDomain : app.allowedDomains.join(', ')],
    [texts.rate, fill(texts.rateValue, { cu: formatNumber(app.computeUnitsPerSecond) })],
    [texts.quota, app.monthlyComputeUnitQuota === null ? texts.unlimited : fill(texts.quotaValue, { cu: formatNumber(app.monthlyComputeUnitQuota) })],
    [page.texts.common.created, formatTime(app.createdAt)],
    [texts.updated, formatTime(app.updatedAt)],
  ];
  part(page.root, 'app-facts').replaceChildren(...facts.flatMap(([term, value]) => [el('dt', {}, term), el('dd', {}, value)]));
  const active = app.state === 'active';
  part(page.root, 'state-note').textContent = active ? texts.activeNote : texts.disabledNote;
  part(page.root, 'toggle-state').textContent = active ? texts.disable : texts.enable;
  const previous = part(page.root, 'previous-key');
  const until = app.previousKeyExpiresAt;
  previous.hidden = until === null || Date.parse(until) <= Date.now();
  previous.textContent = until === null ? '' : fill(texts.previousKey, { time: formatTime(until) });
}
