// Site search in Chromium against the built site (docs/website.md#search-index): keyboard, English and
// Japanese queries, grouped and highlighted hits, navigation, and result text kept as text.
import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SearchGroup } from '../../src/api/schemas.ts';
import { parseSearchIndex } from '../../src/search/data.ts';
import { createSearchEngine } from '../../src/search/engine.ts';
import { ui } from '../../src/site/ui.ts';
import { launchChromium } from '../support/browser.ts';
import { startBuiltSite } from '../support/site.ts';

const screenshotPath = resolve(import.meta.dirname, '../../test-results/search-dialog.png');

let site: Awaited<ReturnType<typeof startBuiltSite>>;
let browser: Browser;
let context: BrowserContext | undefined;

beforeAll(async () => {
  site = await startBuiltSite();
  browser = await launchChromium();
});
afterEach(async () => {
  await context?.close();
  context = undefined;
});
afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

interface Watched {
  page: Page;
  /** Browser dialogs (alert, confirm) that opened: script that ran. */
  alerts: string[];
  pageErrors: string[];
  indexRequests: string[];
}

async function openPage(path: string): Promise<Watched> {
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const watched: Watched = { page, alerts: [], pageErrors: [], indexRequests: [] };
  page.on('dialog', (dialog) => {
    watched.alerts.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => watched.pageErrors.push(error.message));
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/search/')) watched.indexRequests.push(request.url());
  });
  await page.goto(new URL(path, site.origin).href);
  return watched;
}

async function servedIndex(locale: string): Promise<SearchGroup[]> {
  const response = await fetch(new URL(`/api/search/${locale}`, site.origin));
  expect(response.status).toBe(200);
  return parseSearchIndex(await response.json());
}

/** The hits the dialog should show: the same engine, run in Node over the served index. */
function expectedHits(groups: SearchGroup[], query: string): [string, string[]][] {
  return createSearchEngine(groups)
    .search(query)
    .map((group): [string, string[]] => [group.label, group.hits.map((hit) => hit.item.title)]);
}

/** The first page of the served index that `queryFor` makes a query for and that the query finds. */
function pickQuery(groups: SearchGroup[], locale: string, queryFor: (title: string) => string | undefined) {
  for (const target of groups.flatMap((group) => group.items)) {
    const query = target.external ? undefined : queryFor(target.title);
    if (!query) continue;
    const expected = expectedHits(groups, query);
    if (expected.some(([, titles]) => titles.includes(target.title))) return { target, query, expected };
  }
  throw new Error(`the served /api/search/${locale} has no page to search for`);
}

/** Group labels and hit titles as the dialog shows them. */
async function shownHits(page: Page): Promise<[string, string[]][]> {
  const groups = page.locator('[role="listbox"] [role="group"]');
  const shown: [string, string[]][] = [];
  for (let i = 0; i < (await groups.count()); i++) {
    const group = groups.nth(i);
    shown.push([(await group.locator('.search-group-label').textContent()) ?? '', await group.locator('[role="option"] .search-hit-title').allTextContents()]);
  }
  return shown;
}

function optionTitled(page: Page, title: string) {
  return page.getByRole('option').filter({ has: page.locator('.search-hit-title').getByText(title, { exact: true }) });
}

async function openWithKeyboard(page: Page): Promise<void> {
  await page.keyboard.press('Control+K');
  await page.locator('dialog.search-dialog[open]').waitFor();
  await expect.poll(() => page.getByRole('combobox').evaluate((input) => input === document.activeElement)).toBe(true);
}

/** ArrowDown makes the first hit active; Enter follows it. */
async function openFirstHit(page: Page): Promise<{ href: string; title: string }> {
  const input = page.getByRole('combobox');
  const first = page.getByRole('option').first();
  const href = (await first.locator('a').getAttribute('href')) ?? '';
  const title = (await first.locator('.search-hit-title').textContent()) ?? '';
  await page.keyboard.press('ArrowDown');
  expect(await first.getAttribute('aria-selected')).toBe('true');
  expect(await input.getAttribute('aria-activedescendant')).toBe(await first.getAttribute('id'));
  await Promise.all([page.waitForURL(new URL(href, site.origin).href), page.keyboard.press('Enter')]);
  return { href, title };
}

describe('search dialog', () => {
  it('answers an English prefix query with grouped, highlighted hits and opens the chosen page', async () => {
    // A prefix of the longest word of a title: forward (prefix) matching.
    const { target, query, expected } = pickQuery(await servedIndex('en'), 'en', (title) => {
      const word = title.match(/\p{L}{4,}/gu)?.sort((a, b) => b.length - a.length)[0];
      return word?.slice(0, Math.max(4, word.length - 2)).toLowerCase();
    });

    const { page, alerts, pageErrors, indexRequests } = await openPage('/');
    await openWithKeyboard(page);
    await page.keyboard.type(query);
    await optionTitled(page, target.title).waitFor();

    expect(await shownHits(page)).toEqual(expected);
    expect(await page.getByRole('combobox').getAttribute('aria-expanded')).toBe('true');
    const marks = await optionTitled(page, target.title).locator('.search-hit-title mark').allTextContents();
    expect(marks.map((mark) => mark.toLowerCase())).toContain(query);

    await mkdir(dirname(screenshotPath), { recursive: true });
    await page.screenshot({ path: screenshotPath });

    // Closing and reopening reuses the index fetched on first use.
    await page.keyboard.press('Escape');
    await openWithKeyboard(page);
    expect(await page.getByRole('option').count()).toBeGreaterThan(0);
    expect(indexRequests).toEqual([new URL('/api/search/en', site.origin).href]);

    const opened = await openFirstHit(page);
    expect(new URL(page.url()).pathname).toBe(new URL(opened.href, site.origin).pathname);
    expect(await page.title()).toContain(opened.title);
    expect(alerts).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('answers a Japanese query on /ja/ and opens the chosen page', async () => {
    // The last dictionary word of a Japanese title, as a reader would type it.
    const { target, query, expected } = pickQuery(await servedIndex('ja'), 'ja', (title) =>
      [...new Intl.Segmenter('ja', { granularity: 'word' }).segment(title)]
        .map((segment) => segment.segment)
        .filter((segment) => /^[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}]{2,}$/u.test(segment))
        .at(-1),
    );

    const { page, pageErrors, indexRequests } = await openPage('/ja/');
    await openWithKeyboard(page);
    await page.keyboard.insertText(query);
    await optionTitled(page, target.title).waitFor();

    expect(await shownHits(page)).toEqual(expected);
    expect(await optionTitled(page, target.title).locator('.search-hit-title mark').allTextContents()).toContain(query);
    expect(indexRequests).toEqual([new URL('/api/search/ja', site.origin).href]);

    const opened = await openFirstHit(page);
    expect(new URL(page.url()).pathname).toMatch(/^\/ja\//);
    expect(await page.title()).toContain(opened.title);
    expect(pageErrors).toEqual([]);
  });

  it('shows the empty state, and Escape closes the dialog and gives focus back', async () => {
    const { page } = await openPage('/');
    const button = page.locator('[data-search-open]');
    await button.focus();
    await page.keyboard.press('Enter');
    await page.locator('dialog.search-dialog[open]').waitFor();

    await page.keyboard.type('zzqxw');
    await expect.poll(() => page.getByRole('status').textContent()).toBe(`${ui.en.search.empty} “zzqxw”`);
    expect(await page.getByRole('option').count()).toBe(0);
    expect(await page.getByRole('combobox').getAttribute('aria-expanded')).toBe('false');

    await page.keyboard.press('Escape');
    expect(await page.locator('dialog.search-dialog').evaluate((dialog) => (dialog as HTMLDialogElement).open)).toBe(false);
    expect(await button.evaluate((element) => element === document.activeElement)).toBe(true);

    // `/` opens search when focus is not in a field (here it is on the button).
    await page.keyboard.press('/');
    await page.locator('dialog.search-dialog[open]').waitFor();
  });

  it('renders result text as text and marks apps as external', async () => {
    // Served in place of the real index: a page title that is also markup, and an app listing.
    const xssTitle = 'Escaping <img src=x onerror=alert(1)> in titles';
    const iconUrl = new URL('/__search-test/fixture-swap.svg', site.origin).href;
    const fixture: SearchGroup[] = [
      {
        label: 'Blog Posts',
        items: [{ title: xssTitle, url: '/blog/escaping-titles', description: 'A title that must render as text everywhere, never as markup.' }],
      },
      {
        label: 'Apps',
        items: [
          {
            title: 'Fixture Swap',
            url: 'https://swap.fixture.example/',
            description: 'A decentralized exchange for the fixture.',
            icon: iconUrl,
            external: true,
          },
        ],
      },
    ];
    context = await browser.newContext();
    await context.route('**/api/search/en', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(fixture) }));
    await context.route(iconUrl, (route) =>
      route.fulfill({
        status: 200,
        contentType: 'image/svg+xml',
        body: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><rect width="8" height="8" fill="teal"/></svg>',
      }),
    );
    const page = await context.newPage();
    const alerts: string[] = [];
    page.on('dialog', (dialog) => {
      alerts.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(new URL('/', site.origin).href);

    await openWithKeyboard(page);
    await page.keyboard.type('escaping');
    await page.getByRole('option').first().waitFor();
    const title = page.locator('.search-hit-title').first();
    expect(await title.textContent()).toBe(xssTitle);
    expect(await title.locator('mark').allTextContents()).toEqual(['Escaping']);
    expect(await page.getByText('<img src=x onerror=alert(1)>').isVisible()).toBe(true);
    expect(await page.locator('img[src="x"]').count()).toBe(0);

    await page.getByRole('combobox').fill('swap');
    const app = page.getByRole('option', { name: `Fixture Swap A decentralized exchange for the fixture. (${ui.en.search.external})` });
    await app.waitFor();
    const link = app.locator('a');
    expect(await link.getAttribute('href')).toBe('https://swap.fixture.example/');
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener');
    expect(await app.locator('img.search-hit-icon').getAttribute('src')).toBe(iconUrl);
    expect(await app.locator('.search-hit-external').isVisible()).toBe(true);
    expect(alerts).toEqual([]);
  });
});
