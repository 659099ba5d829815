import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { startBuiltSite, type BuiltSite } from '../support/site.ts';

// A person on the faucet page of a local network: paste an address, pass the development
// check, watch the drip land. The chain is the real anvil the server starts on demand.

const recipient = '0x00000000000000000000000000000000c0ffee01';
let site: BuiltSite;
let browser: Browser;

beforeAll(async () => {
  site = await startBuiltSite({ env: { ANVIL_BLOCK_TIME: '1' } });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

describe('faucet page', () => {
  it('sends a drip on a local network and shows it mined', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${site.origin}/faucets/crucible-testnet`);
      const address = page.getByLabel('Wallet address');
      await address.fill('0x1234');
      await address.blur();
      await expect.poll(() => page.locator('#faucet-address-error').textContent()).toContain('This is not an address');

      await address.fill(recipient);
      await page.getByLabel('I am testing locally (development check)').check();
      await page.getByRole('button', { name: 'Send 0.1 ETH' }).click();

      const status = page.getByRole('status');
      await expect.poll(() => status.getAttribute('data-state'), { timeout: 60_000 }).toBe('success');
      expect(await status.textContent()).toContain('Done: 0.1 ETH sent.');
      const hash = (await status.locator('code').textContent())!;
      expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
      await page.screenshot({ path: 'test-results/faucet-success.png' });

      // The page's word is checked against the chain itself.
      const rpc = await (await fetch(`${site.origin}/api/faucets/crucible-testnet/status?transactionHash=${hash}`)).json();
      expect(rpc).toMatchObject({ status: 'success', mined: true, chainId: 7357001 });

      // A second request for the same address is refused with the rate limit and a countdown.
      await page.getByLabel('I am testing locally (development check)').check();
      await page.getByRole('button', { name: 'Send 0.1 ETH' }).click();
      await expect.poll(() => status.textContent(), { timeout: 30_000 }).toContain('You can request again in');
    } finally {
      await page.close();
    }
  });
});
