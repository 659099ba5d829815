import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { createWalletClient, http, type Hash } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORLD_DEPLOYER, WORLD_DEPLOYER_KEY } from '../../src/chain/world/actors.ts';
import { stepCall } from '../../src/chain/world/history.ts';
import { formatUi, ui } from '../../src/site/ui.ts';
import { dashboardUrl } from '../../src/site/urls.ts';
import { startReceiver, type TestReceiver } from '../integration/webhooks/receiver.ts';
import { seriousAxeViolations } from '../support/axe.ts';
import { launchChromium } from '../support/browser.ts';
import { startWorldSite, type WorldSite } from '../support/world-site.ts';

// A person who has never seen Crucible, in Chromium on the production server in local mode (issue's
// "done when"), in English and in Japanese: signs up, creates an app restricted to one domain,
// copies its key, calls the gateway with it from a page of that domain and from a foreign one
// (refused), sees the call in the usage chart and table, rotates the key and sees the old one
// refused, creates a webhook and sees its delivery reach a receiver on loopback. Then axe on every
// dashboard page, filled, in light and dark mode.

const PASSWORD = 'correct horse battery staple';
const FIRST_CALL = { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] };

let site: WorldSite;
let browser: Browser;
let receiver: TestReceiver;
/** A page for the app's allowed domain (`localhost`) and a foreign one (`127.0.0.1`): one server, two host names. */
let shop: Server;
let shopPort: number;
let accounts = 0;

beforeAll(async () => {
  site = await startWorldSite();
  browser = await launchChromium();
  receiver = await startReceiver();
  shop = createServer((_, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Shop</title><p>Shop'));
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  shopPort = (shop.address() as AddressInfo).port;
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await new Promise((resolve) => shop?.close(resolve));
  await site?.stop();
});

const nodeUrl = () => `${site.origin}/node/${site.network}/v2/`;

/** A browser context of its own (cookies, clipboard), at the site's origin. */
async function newContext(colorScheme: 'light' | 'dark' = 'light'): Promise<BrowserContext> {
  const context = await browser.newContext({ colorScheme, bypassCSP: true }); // axe is injected as a script
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.origin });
  return context;
}

/** Waits until the dashboard page's script has taken every control it handles (its root's data-ready): a click before that is lost. */
const ready = (page: Page) => page.locator('[data-dashboard][data-ready]').waitFor({ state: 'attached' });

/** Signs up a new account on the sign-up page (opened first unless `page` is on it), which then goes to `landing`. */
async function signUp(
  page: Page,
  locale: 'en' | 'ja',
  { open = true, landing = 'apps' }: { open?: boolean; landing?: 'apps' | 'account' } = {},
): Promise<void> {
  const strings = ui[locale].dashboard;
  if (open) await page.goto(`${site.origin}${dashboardUrl(locale, 'sign-up')}`);
  await ready(page);
  await page.getByLabel(strings.auth.email).fill(`person${++accounts}-${locale}@example.com`);
  await page.getByLabel(strings.auth.password, { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: strings.auth.signUp }).click();
  await page.waitForURL(`${site.origin}${dashboardUrl(locale, landing)}`);
  await ready(page);
}

/** Creates an app on the apps page, for `network` only and restricted to `domain`; returns its id from the app page it opens. */
async function createApp(page: Page, locale: 'en' | 'ja', name: string, domain: string): Promise<string> {
  const strings = ui[locale].dashboard;
  const form = page.locator('form#create-app');
  await form.getByLabel(strings.apps.name).fill(name);
  await form.locator(`input[name="allowedNetworks"][value="${site.network}"]`).check();
  await form.getByLabel(strings.apps.domains).fill(domain);
  await form.getByRole('button', { name: strings.apps.create }).click();
  await page.waitForURL(/\/dashboard\/app\/\?id=app_/);
  await ready(page);
  await expect.poll(() => page.locator('[data-app-view]').isVisible()).toBe(true);
  return new URL(page.url()).searchParams.get('id')!;
}

/** eth_blockNumber with `key`, sent by the page `from` shows (so with its Origin): the HTTP status. */
async function callFrom(page: Page, from: string, key: string): Promise<number> {
  await page.goto(from);
  return page.evaluate(async ({ url, body }) => (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status, {
    url: `${nodeUrl()}${key}`,
    body: JSON.stringify(FIRST_CALL),
  });
}

/** eth_blockNumber with `key` from a script (no Origin): the HTTP status. */
async function callFromScript(key: string): Promise<number> {
  const response = await fetch(`${nodeUrl()}${key}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(FIRST_CALL) });
  await response.body?.cancel();
  return response.status;
}

/** The usage table of one metric as text rows, once the meter's periodic flush has stored the calls. */
async function usageRows(page: Page, locale: 'en' | 'ja', metric: 'requests' | 'computeUnits', expectedTotal: string): Promise<string[][]> {
  const table = page.locator(`[data-usage-block="${metric}"] table`);
  await expect
    .poll(
      async () => {
        await page.getByRole('button', { name: ui[locale].dashboard.usage.refresh }).click();
        await expect.poll(() => page.locator('[data-usage-status]').textContent()).toBe('');
        return (await table.count()) === 0 ? null : table.locator('tfoot td').last().textContent();
      },
      { timeout: 60_000, interval: 1000 },
    )
    .toBe(expectedTotal);
  return table.locator('tr').evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent ?? '')));
}

/** Mints a relic on the indexed devnet as the world's deployer, through the gateway with `key`: an NFT transfer for webhooks. */
async function mintRelic(key: string): Promise<Hash> {
  const call = stepCall({ from: WORLD_DEPLOYER, action: 'relic-mint', to: '0x000000000000000000000000000000000000dEaD', ids: [BigInt(Date.now())] });
  const client = createWalletClient({ account: privateKeyToAccount(WORLD_DEPLOYER_KEY), transport: http(`${nodeUrl()}${key}`) });
  return client.sendTransaction({ chain: null, to: call.to, data: call.data });
}

describe.each(['en', 'ja'] as const)('the developer dashboard in %s', (locale) => {
  const strings = ui[locale].dashboard;
  let context: BrowserContext;
  let page: Page;
  let appId: string;
  let key: string;

  beforeAll(async () => {
    context = await newContext();
    page = await context.newPage();
  });
  afterAll(() => context?.close());

  it('sends a signed-out visitor to sign in, and back to the page after signing up', async () => {
    await page.goto(`${site.origin}${dashboardUrl(locale, 'account')}`);
    await page.waitForURL(/\/dashboard\/sign-in\/\?next=/);
    await expect.poll(() => page.locator('[data-sign-in-first]').isVisible()).toBe(true);
    await page.getByRole('link', { name: strings.auth.signUpTitle }).click();
    await page.waitForURL(/\/dashboard\/sign-up\/\?next=/);
    await signUp(page, locale, { open: false, landing: 'account' });
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(strings.account.title);
    await page.getByRole('link', { name: strings.common.apps }).click();
    await page.waitForURL(`${site.origin}${dashboardUrl(locale, 'apps')}`);
    await ready(page);
    await expect.poll(() => page.locator('input[name="allowedNetworks"]').count()).toBeGreaterThan(0);
    // How many apps the account may have, in the page's language.
    expect(await page.locator('[data-app-count]').textContent()).toBe(formatUi(strings.apps.count, { count: '0', max: '20' }));
  });

  it('refuses a bad form on the client, each error beside its field with focus on the first', async () => {
    const form = page.locator('form#create-app');
    await form.getByLabel(strings.apps.domains).fill('not a host!');
    await form.getByRole('button', { name: strings.apps.create }).click();
    const name = form.getByLabel(strings.apps.name);
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('name');
    // aria-describedby names the error, which says what the field must be, in the page's language.
    const described = (await name.getAttribute('aria-describedby'))!.split(' ');
    const errors = await Promise.all(described.map((id) => page.locator(`#${id}`).textContent()));
    expect(errors).toContain(strings.errors.name);
    expect(await form.locator('[data-field="allowedDomains"] [data-error]').textContent()).toBe(strings.errors.allowedDomains);
  });

  it('creates an app restricted to one domain and copies its key', async () => {
    appId = await createApp(page, locale, `Shop ${locale}`, 'localhost');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Shop ${locale}`);
    // Hidden until asked.
    expect(await page.locator('[data-key]').textContent()).toBe(strings.app.keyHidden);
    await page.getByRole('button', { name: strings.app.copyKey }).click();
    await expect.poll(() => page.locator('[data-key-status]').textContent()).toBe(strings.common.copied);
    key = await page.evaluate(() => navigator.clipboard.readText());
    expect(key).toMatch(/^[A-Za-z0-9_-]{32}$/);
    await page.getByRole('button', { name: strings.app.showKey }).click();
    await expect.poll(() => page.locator('[data-key]').textContent()).toBe(key);
    // The examples hold the key, ready to paste.
    expect(await page.locator('#example-curl').textContent()).toContain(`${nodeUrl()}${key}`);
    expect(await page.locator('#example-viem').textContent()).toContain(`http('${nodeUrl()}${key}')`);
    // Beside it, the same endpoint for WebSocket clients (eth_subscribe).
    expect(await page.locator('[data-endpoint-websocket-url]').textContent()).toBe(`${nodeUrl().replace(/^http:/, 'ws:')}${key}`);
  });

  it('lets a page of the allowed domain call the gateway with the key, and refuses a foreign one (403)', async () => {
    const shopPage = await context.newPage();
    try {
      expect(await callFrom(shopPage, `http://localhost:${shopPort}/`, key)).toBe(200);
      expect(await callFrom(shopPage, `http://127.0.0.1:${shopPort}/`, key)).toBe(403);
    } finally {
      await shopPage.close();
    }
  });

  it('shows the allowed call in the usage chart and in the table beside it', async () => {
    const rows = await usageRows(page, locale, 'requests', '1');
    expect(rows[0]).toEqual([strings.usage.time, `${site.network} · eth_blockNumber`, strings.usage.total]);
    expect(rows.at(-1)).toEqual([strings.usage.total, '1', '1']);
    const chart = page.locator('[data-usage-block="requests"] [data-chart]');
    expect(await chart.locator('canvas').count()).toBeGreaterThan(0);
    expect(await chart.getAttribute('role')).toBe('img');
    expect(await chart.getAttribute('aria-label')).toContain(strings.usage.requests);
  });

  it('rotates the key after a confirmation: the old key is refused, the new one works', async () => {
    await page.locator('form[data-rotate-key]').getByRole('button', { name: strings.app.rotate }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.getByRole('heading').textContent()).toBe(strings.app.rotateConfirm);
    await dialog.getByRole('button', { name: strings.app.rotate }).click();
    await expect.poll(() => page.locator('form[data-rotate-key] [data-form-status]').textContent()).toBe(strings.app.rotated);
    const rotated = (await page.locator('[data-key]').textContent())!;
    expect(rotated).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(rotated).not.toBe(key);
    expect(await callFromScript(key)).toBe(401);
    expect(await callFromScript(rotated)).toBe(200);
    key = rotated;
  });

  it('refuses a bad webhook form beside its fields before sending it, and the server’s refusal beside its field', async () => {
    await page.getByRole('link', { name: strings.common.webhooks }).click();
    await page.waitForURL(`${site.origin}${dashboardUrl(locale, 'webhooks')}`);
    await ready(page);
    const form = page.locator('form[data-create-webhook]');
    await expect.poll(() => form.locator(`select[name="network"] option[value="${site.network}"]`).count()).toBe(1);
    const sent: string[] = [];
    const record = (request: Request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname.startsWith('/api/webhooks')) sent.push(request.url());
    };
    page.on('request', record);
    try {
      await form.getByLabel(strings.webhooks.url).fill('hooks.example.com/nft');
      await form.getByLabel(strings.webhooks.contracts).fill('0x1234');
      await form.getByRole('button', { name: strings.webhooks.create }).click();
      const url = form.getByLabel(strings.webhooks.url);
      await expect.poll(() => url.getAttribute('aria-invalid')).toBe('true');
      // In the page's words, beside the field, with focus on the first refused.
      expect(await form.locator('[data-field="url"] [data-error]').textContent()).toBe(strings.errors.url);
      expect(await form.locator('[data-field="filters.contractAddresses"] [data-error]').textContent()).toBe(strings.errors.contractAddresses);
      expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('url');
      expect(sent).toEqual([]);
    } finally {
      page.off('request', record);
    }
    // Token ids suit NFT activity only: the API refuses them with their field, and the page shows its sentence there.
    await form.getByLabel(strings.webhooks.type).selectOption('NFT_METADATA_UPDATE');
    await form.getByLabel(strings.webhooks.url).fill(`${receiver.url}/refused`);
    await form.getByLabel(strings.webhooks.contracts).fill('');
    await form.getByLabel(strings.webhooks.tokenIds).fill('1');
    await form.getByRole('button', { name: strings.webhooks.create }).click();
    const tokenIdsError = form.locator('[data-field="filters.tokenIds"] [data-error]');
    await expect.poll(() => tokenIdsError.textContent()).toBe('The token ids apply to NFT_ACTIVITY webhooks only, not NFT_METADATA_UPDATE.');
    expect(await tokenIdsError.getAttribute('lang')).toBe(locale === 'en' ? null : 'en');
    expect(await form.locator('[data-field="url"] [data-error]').isHidden()).toBe(true);
    expect(await page.locator('[data-webhook]').count()).toBe(0);
    await form.getByLabel(strings.webhooks.type).selectOption('NFT_ACTIVITY');
    await form.getByLabel(strings.webhooks.tokenIds).fill('');
  });

  it('creates a webhook and shows its delivery, with the attempt and the payload the receiver got', async () => {
    const form = page.locator('form[data-create-webhook]');
    await form.getByLabel(strings.webhooks.network).selectOption(site.network);
    await form.getByLabel(strings.webhooks.url).fill(`${receiver.url}/${appId}`);
    await form.getByRole('button', { name: strings.webhooks.create }).click();
    const card = page.locator('[data-webhook]');
    await expect.poll(() => card.count()).toBe(1);
    expect(await page.locator('[data-webhook-count]').textContent()).toBe(formatUi(strings.webhooks.count, { count: '1', max: '20' }));
    const webhookId = (await card.getAttribute('data-webhook'))!;
    receiver.keys.set(webhookId, (await card.locator('[data-signing-key]').textContent())!);

    const hash = await mintRelic(key);
    await expect.poll(() => receiver.received.some((entry) => entry.payload.webhookId === webhookId), { timeout: 90_000, interval: 500 }).toBe(true);
    const received = receiver.received.find((entry) => entry.payload.webhookId === webhookId)!;
    expect(received.signatureValid).toBe(true);
    expect(received.timestampValid).toBe(true);

    await card.getByRole('button', { name: strings.webhooks.showDeliveries }).click();
    const row = card.locator(`tr[data-delivery="${received.payload.id}"]`);
    const list = card.locator('[data-deliveries]');
    // The receiver answered before the worker recorded it: refresh until the row says so, each time once the
    // list has its answer (a row opened while a load is out is replaced when the load answers).
    await expect
      .poll(
        async () => {
          await card.getByRole('button', { name: strings.webhooks.refresh }).click();
          await expect.poll(() => list.getAttribute('aria-busy')).toBe('false');
          return (await row.count()) === 0 ? null : row.getAttribute('data-status');
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe('delivered');
    expect(await row.locator('td').nth(1).textContent()).toBe(strings.webhooks.statuses.delivered);
    await row.getByRole('button', { name: strings.webhooks.details }).click();
    const detail = card.locator(`#delivery-${received.payload.id}`);
    await expect.poll(() => detail.locator('[data-payload]').count()).toBe(1);
    expect(await detail.locator('tbody tr').first().locator('td').nth(1).textContent()).toBe(strings.webhooks.outcomes.delivered);
    expect(await detail.locator('[data-payload]').textContent()).toContain(hash);
  });

  it('creates an address webhook and a transaction webhook, the form showing the inputs of each type', async () => {
    const form = page.locator('form[data-create-webhook]');
    const field = (name: string) => form.locator(`[data-field="${name}"]`);
    await form.getByLabel(strings.webhooks.type).selectOption('ADDRESS_ACTIVITY');
    expect([await field('addresses').isVisible(), await field('filters.contractAddresses').isVisible(), await field('appId').isVisible()]).toEqual([
      true,
      false,
      false,
    ]);
    await form.getByLabel(strings.webhooks.url).fill(`${receiver.url}/addresses`);
    await form
      .getByLabel(strings.webhooks.addresses, { exact: true })
      .fill('0x4c7E7865D1a8F526DA67ccC11eE9960C30e7a1Ae\n0x2f6e3Bc2a1B41d2A6F3a0b8c1f4e5D9a7C3b1e20');
    await form.getByRole('button', { name: strings.webhooks.create }).click();
    const cards = page.locator('[data-webhook]');
    await expect.poll(() => cards.count()).toBe(2);
    expect(await cards.nth(1).locator('h3').textContent()).toContain(strings.webhooks.types.ADDRESS_ACTIVITY);
    expect(await cards.nth(1).textContent()).toContain(formatUi(strings.webhooks.addressCount, { count: '2' }));

    await form.getByLabel(strings.webhooks.type).selectOption('MINED_TRANSACTION');
    expect([await field('addresses').isVisible(), await field('appId').isVisible()]).toEqual([false, true]);
    expect(await form.getByLabel(strings.webhooks.app, { exact: true }).inputValue()).toBe(appId);
    await form.getByLabel(strings.webhooks.url).fill(`${receiver.url}/mined`);
    await form.getByRole('button', { name: strings.webhooks.create }).click();
    await expect.poll(() => cards.count()).toBe(3);
    expect(await cards.nth(2).locator('h3').textContent()).toContain(strings.webhooks.types.MINED_TRANSACTION);
    expect(await cards.nth(2).textContent()).toContain(appId);
  });
});

describe('the dashboard in a second tab', () => {
  it('tells the person an app changed elsewhere and shows it as it now is (409 stale_version)', async () => {
    const context = await newContext();
    try {
      const strings = ui.en.dashboard;
      const first = await context.newPage();
      await signUp(first, 'en');
      const id = await createApp(first, 'en', 'Two tabs', 'localhost');
      const second = await context.newPage();
      await second.goto(first.url());
      await ready(second);
      await expect.poll(() => second.locator('[data-app-view]').isVisible()).toBe(true);
      await first.locator('form#app-settings').getByLabel(strings.apps.name).fill('Renamed in the first tab');
      await first.locator('form#app-settings').getByRole('button', { name: strings.app.save }).click();
      await expect.poll(() => first.locator('form#app-settings [data-form-status]').textContent()).toBe(strings.app.saved);

      const settings = second.locator('form#app-settings');
      await settings.getByLabel(strings.apps.name).fill('Renamed in the second tab');
      await settings.getByRole('button', { name: strings.app.save }).click();
      await expect.poll(() => settings.locator('[data-form-error]').textContent()).toBe(strings.app.staleVersion);
      expect(await second.getByRole('heading', { level: 1 }).textContent()).toBe('Renamed in the first tab');
      expect(await settings.getByLabel(strings.apps.name).inputValue()).toBe('Renamed in the first tab');
      expect(id).toMatch(/^app_/);
    } finally {
      await context.close();
    }
  });
});

describe('accessibility of every dashboard page', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`finds no serious or critical axe violations, filled, in ${colorScheme} mode`, async () => {
      const context = await newContext(colorScheme);
      try {
        const page = await context.newPage();
        const check = async (what: string) => expect(await seriousAxeViolations(page), `${what} (${colorScheme})`).toEqual([]);
        for (const signedOut of ['start', 'sign-in', 'sign-up'] as const) {
          await page.goto(`${site.origin}${dashboardUrl('en', signedOut)}`);
          await ready(page);
          await check(signedOut);
        }
        await signUp(page, 'en');
        await createApp(page, 'en', 'Checked', 'localhost');
        await page.getByRole('button', { name: ui.en.dashboard.app.showKey }).click();
        await expect.poll(() => page.locator('[data-key]').textContent()).toMatch(/^[A-Za-z0-9_-]{32}$/);
        expect(await callFromScript((await page.locator('[data-key]').textContent())!)).toBe(200);
        await usageRows(page, 'en', 'requests', '1');
        await check('app');
        await page.goto(`${site.origin}${dashboardUrl('en', 'apps')}`);
        await ready(page);
        await expect.poll(() => page.locator('[data-app-list] table').count()).toBe(1);
        await check('apps');
        await page.goto(`${site.origin}${dashboardUrl('en', 'webhooks')}`);
        await ready(page);
        const form = page.locator('form[data-create-webhook]');
        await form.getByLabel(ui.en.dashboard.webhooks.url).fill(receiver.url);
        await form.getByRole('button', { name: ui.en.dashboard.webhooks.create }).click();
        await expect.poll(() => page.locator('[data-webhook]').count()).toBe(1);
        await page.getByRole('button', { name: ui.en.dashboard.webhooks.showDeliveries }).click();
        await expect.poll(() => page.locator('[data-deliveries]').getAttribute('aria-busy')).toBe('false');
        await check('webhooks');
        await page.goto(`${site.origin}${dashboardUrl('en', 'account')}`);
        await ready(page);
        await page.locator('form[data-create-token]').getByRole('button', { name: ui.en.dashboard.account.createToken }).click();
        await expect.poll(() => page.locator('[data-token-secret]').isVisible()).toBe(true);
        await check('account');
        // A confirmation dialog, open.
        await page.getByRole('button', { name: ui.en.dashboard.account.revoke }).click();
        await check('revoke dialog');
      } finally {
        await context.close();
      }
    });
  }
});
