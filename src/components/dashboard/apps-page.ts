// The apps page: the list, and creating an app with the backend's NewApp schema checked first.
import { NewApp } from '../../dashboard/schemas.ts';
import { appFieldMessages, appInput, formById, showNetworkOptions } from './app-fields.ts';
import type { DashboardTexts } from './client-texts.ts';
import { showAccountCap } from './account-cap.ts';
import { el, formatTime, part } from './dom.ts';
import { call, dashboardPage, loadAll, markReady, requireAccount, type DashboardPage } from './page.ts';
import type { App, Network } from './types.ts';

type Texts = Pick<DashboardTexts, 'errors' | 'apps'>;

export async function mountApps(): Promise<void> {
  const page = dashboardPage<Texts>();
  await requireAccount(page);
  const form = formById('create-app');
  const loaded = await loadAll<[{ networks: Network[] }, { apps: App[]; maxApps: number }]>(page, '/api/dashboard/networks', '/api/dashboard/apps');
  if (!loaded) return;
  const [{ networks }, { apps, maxApps }] = loaded;
  showNetworkOptions(form, networks, []);
  showApps(page, apps, networks);
  showAccountCap(part(page.root, 'app-count'), page.texts.apps, apps.length, maxApps);

  form.onSubmit(async () => {
    const input = appInput(form);
    if (!form.check(NewApp, input, appFieldMessages(page.texts.errors))) return;
    form.busy(page.texts.apps.creating);
    const result = await call<{ app: App; key: string }>(page, 'POST', '/api/dashboard/apps', NewApp.parse(input));
    form.busy(null);
    if (!result.ok) return form.showFailure(result, page.texts.common);
    location.assign(`${page.urls.app}?${new URLSearchParams({ id: result.body.app.id, created: '1' })}`);
  });
  markReady(page);
}

function showApps(page: DashboardPage<Texts>, apps: readonly App[], networks: readonly Network[]): void {
  const texts = page.texts.apps;
  const list = part(page.root, 'app-list');
  if (apps.length === 0) {
    list.replaceChildren(el('p', {}, texts.empty));
    return;
  }
  const networkName = (id: string) => networks.find((network) => network.id === id)?.name ?? id;
  const header = el(
    'tr',
    {},
    ...[texts.name, texts.state, texts.networks, texts.domains, page.texts.common.created].map((label) => el('th', { scope: 'col' }, label)),
  );
  const rows = apps.map((app) =>
    el(
      'tr',
      { 'data-app': app.id },
      el('th', { scope: 'row' }, el('a', { href: `${page.urls.app}?${new URLSearchParams({ id: app.id })}` }, app.name)),
      el('td', {}, el('span', { class: `badge ${app.state === 'active' ? 'ok' : 'off'}` }, app.state === 'active' ? texts.active : texts.disabled)),
      el('td', {}, app.allowedNetworks.length === 0 ? texts.allNetworks : app.allowedNetworks.map(networkName).join(', ')),
      el('td', { class: 'mono' }, app.allowedDomains.length === 0 ? texts.anyDomain : app.allowedDomains.join(', ')),
      el('td', {}, formatTime(app.createdAt)),
    ),
  );
  list.replaceChildren(el('table', {}, el('thead', {}, header), el('tbody', {}, ...rows)));
}
