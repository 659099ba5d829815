import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_WALLET } from '../../src/chain/world/actors.ts';
import { WORLD_ADDRESSES } from '../../src/chain/world/manifest.ts';
import type { OwnedNftBody } from '../../src/nfts/api/schemas.ts';
import { seriousAxeViolations } from '../support/axe.ts';
import { launchChromium } from '../support/browser.ts';
import { demoWalletNfts, documentName, nftKey } from '../support/world-nfts.ts';
import { startWorldSite, type WorldSite } from '../support/world-site.ts';

// A person opens the demo wallet's NFT gallery on `npm start`'s local network: the page's script
// pages through getNFTs with the demo key, and every NFT of the world the wallet holds is shown,
// its picture loaded from /nft-media/, the airdrop marked as spam.

const expected = demoWalletNfts();
let site: WorldSite;
let browser: Browser;

beforeAll(async () => {
  site = await startWorldSite();
  // Metadata and images are fetched when first asked for: wait until an answer carries them all, as a returning visitor sees it.
  await vi.waitFor(
    async () => {
      const answer = (await (await fetch(`${site.origin}/node/${site.network}/v2/demo/getNFTs?owner=${DEMO_WALLET}&pageSize=100`)).json()) as {
        ownedNfts: OwnedNftBody[];
      };
      const withImage = new Set(answer.ownedNfts.filter((nft) => nft.image.cachedUrl).map((nft) => nftKey(nft.contract.address, nft.tokenId)));
      for (const nft of expected.filter((entry) => entry.hasMetadata)) expect(withImage.has(nftKey(nft.contract, nft.tokenId))).toBe(true);
    },
    { timeout: 120_000, interval: 500 },
  );
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

describe('the NFT gallery page', () => {
  it("shows every NFT of the demo wallet with its picture loaded, and the airdrop's spam badge", async () => {
    const page = await browser.newPage();
    const failedRequests: string[] = [];
    page.on('requestfailed', (request) => failedRequests.push(request.url()));
    try {
      await page.goto(`${site.origin}/nfts/gallery`);
      const gallery = page.locator('[data-nft-gallery]');
      await expect.poll(() => gallery.getAttribute('data-state'), { timeout: 60_000 }).toBe('done');
      expect(await page.getByRole('status').textContent()).toBe(`NFTs shown: ${expected.length}`);

      const cards = page.locator('[data-grid] > li');
      const shown = await cards.evaluateAll((items) =>
        items.map((item) => `${(item as HTMLElement).dataset.contract}:${(item as HTMLElement).dataset.tokenId}`),
      );
      expect(shown.map((entry) => entry.toLowerCase()).sort()).toEqual(expected.map((nft) => nftKey(nft.contract, nft.tokenId)).sort());

      for (const nft of expected) {
        const card = page.locator(`[data-grid] > li[data-contract="${nft.contract}"][data-token-id="${nft.tokenId}"]`);
        if (nft.document) expect(await card.getByRole('heading').textContent()).toContain(await documentName(nft.document));
        expect(await card.locator('dd').nth(2).textContent()).toBe(nft.balance);
        expect(await card.locator('.spam').count(), nft.tokenId).toBe(nft.airdrop ? 1 : 0);
        expect(await card.locator('img').count(), `${nft.contract}:${nft.tokenId}`).toBe(nft.hasMetadata ? 1 : 0);
        // The legacy NFT has no metadata: the card says why.
        if (!nft.hasMetadata) expect(await card.locator('.metadata-error').textContent()).toContain('Metadata error');
      }
      expect(await page.locator(`li[data-contract="${WORLD_ADDRESSES.airdrop}"] .spam`).textContent()).toBe('Spam');

      // Every picture loaded: decoded with a width, from the site's own media route.
      const images = page.locator('[data-grid] img');
      await expect.poll(() => images.evaluateAll((all) => all.every((image) => (image as HTMLImageElement).complete)), { timeout: 30_000 }).toBe(true);
      const loaded = await images.evaluateAll((all) =>
        all.map((image) => ({ src: (image as HTMLImageElement).currentSrc, width: (image as HTMLImageElement).naturalWidth })),
      );
      expect(loaded.length).toBe(expected.filter((nft) => nft.hasMetadata).length);
      for (const image of loaded) {
        expect(image.src.startsWith(`${site.origin}/nft-media/`), image.src).toBe(true);
        expect(image.width, image.src).toBeGreaterThan(0);
      }
      expect(failedRequests).toEqual([]);
    } finally {
      await page.close();
    }
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`filled with the wallet's NFTs (${colorScheme}), has no serious or critical axe violations`, async () => {
      const page = await browser.newPage({ colorScheme, bypassCSP: true });
      try {
        await page.goto(`${site.origin}/nfts/gallery`);
        await expect.poll(() => page.locator('[data-nft-gallery]').getAttribute('data-state'), { timeout: 60_000 }).toBe('done');
        expect(await seriousAxeViolations(page)).toEqual([]);
      } finally {
        await page.close();
      }
    });
  }

  it('is in every locale, each with its own strings', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${site.origin}/ja/nfts/gallery`);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('デモウォレットの NFT');
      await expect.poll(() => page.locator('[data-nft-gallery]').getAttribute('data-state'), { timeout: 60_000 }).toBe('done');
      expect(await page.getByRole('status').textContent()).toBe(`表示中の NFT：${expected.length}`);
    } finally {
      await page.close();
    }
  });
});
