import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`), the browser every e2e test drives. */
const chromiumPath = '/usr/bin/chromium';

/** Headless Chromium with the network chatter (updates, first-run, background fetches) turned off. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}
