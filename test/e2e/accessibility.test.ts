import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations } from '../support/axe.ts';
import { launchChromium } from '../support/browser.ts';
import { startBuiltSite, type BuiltSite } from '../support/site.ts';

// axe-core in real Chromium over the built site: landmarks, labels, contrast, names.

const pages = [
  '/',
  '/ja/',
  '/overviews/',
  '/overviews/getting-started-with-node-api', // Tabs, Callout, CodeGroup
  '/rpc/ethereum-sepolia',
  '/faucets/',
  '/faucets/base-sepolia',
  '/faucets/syndicate-risa', // deprecated: disabled form
  '/ko/support/faucet-troubleshooting',
  '/does-not-exist',
];

let site: BuiltSite;
let browser: Browser;

beforeAll(async () => {
  site = await startBuiltSite();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

describe('accessibility', () => {
  for (const path of pages) {
    for (const colorScheme of ['light', 'dark'] as const) {
      it(`${path} (${colorScheme}) has no serious or critical axe violations`, async () => {
        const page = await browser.newPage({ colorScheme, bypassCSP: true }); // axe is injected as a script
        try {
          await page.goto(`${site.origin}${path}`);
          expect(await seriousAxeViolations(page)).toEqual([]);
        } finally {
          await page.close();
        }
      });
    }
  }

  it('every page has one main landmark, a skip link and a labelled navigation', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${site.origin}/overviews/getting-started-with-node-api`);
      expect(await page.locator('main').count()).toBe(1);
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
      expect(await page.locator('nav[aria-label="Main"]').count()).toBe(1);
    } finally {
      await page.close();
    }
  });
});
