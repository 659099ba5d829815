import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Alchemy as AlchemySdk } from 'alchemy-sdk';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WORLD_ADDRESSES } from '../../../src/chain/world/manifest.ts';
import { launchChromium } from '../../support/browser.ts';
import { writeFixtureDist, type FixtureDist } from '../../support/fixture-dist.ts';
import { startBuiltSite, type BuiltSite } from '../../support/site.ts';

// alchemy-sdk in a web page, as a front end ships it: the SDK's own code, bundled for the browser,
// runs in real Chromium on a page of another origin and calls the production server's JSON-RPC and
// NFT endpoints with the demo key. Its requests carry the SDK's own headers
// (Alchemy-Ethers-Sdk-Version, Alchemy-Ethers-Sdk-Method), so the browser asks first (a CORS
// preflight): the keyed products' CORS headers must allow them (src/admission/cors.ts).

const NETWORK = 'ethereum-sepolia';

let fixture: FixtureDist;
let site: BuiltSite;
let page: Server;
let pageOrigin: string;
let browser: Browser;

/** alchemy-sdk as a browser bundle: window.Alchemy. */
async function sdkBundle(): Promise<string> {
  const bundled = await build({
    stdin: { contents: "import { Alchemy } from 'alchemy-sdk'; window.Alchemy = Alchemy;", resolveDir: process.cwd() },
    bundle: true,
    platform: 'browser',
    format: 'iife',
    define: { global: 'globalThis' },
    write: false,
    logLevel: 'silent',
  });
  return bundled.outputFiles[0]!.text;
}

beforeAll(async () => {
  fixture = await writeFixtureDist();
  // NFT data needs the transfer index of the network (local mode indexes ethereum-sepolia).
  site = await startBuiltSite({ distDir: fixture.distDir, env: { INDEXER_IN_SERVER: 'on', REQUEST_LOG: 'on' } });
  await vi.waitFor(
    async () => {
      const answer = await fetch(`${site.origin}/node/${NETWORK}/nft/v3/demo/getContractMetadata?contractAddress=${WORLD_ADDRESSES.relics}`);
      expect(answer.status).toBe(200);
    },
    { timeout: 120_000, interval: 500 },
  );
  const script = await sdkBundle();
  // The page's origin: another port, so every call to the site is cross-origin.
  page = createServer((request, response) => {
    if (request.url === '/sdk.js') response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>dapp</title><script src="/sdk.js"></script>');
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  pageOrigin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => page?.close(resolve));
  await site?.stop();
  if (fixture) await rm(fixture.root, { recursive: true, force: true });
});

describe('alchemy-sdk 3.6.5 in a browser page of another origin', () => {
  it('calls JSON-RPC and the NFT endpoints with its own headers, through the preflight', async () => {
    const tab = await browser.newPage();
    // What the SDK sends, as the page's fetches carried it.
    const sdkHeaders: string[] = [];
    tab.on('request', (request) => {
      if (request.url().startsWith(site.origin) && request.method() !== 'OPTIONS') sdkHeaders.push(request.headers()['alchemy-ethers-sdk-method'] ?? '');
    });
    try {
      await tab.goto(pageOrigin);
      const answers = await tab.evaluate(
        async ({ nodeUrl, relics }) => {
          const Alchemy = (window as unknown as { Alchemy: typeof AlchemySdk }).Alchemy;
          const core = new Alchemy({ url: `${nodeUrl}/v2/demo`, maxRetries: 0 });
          const nft = new Alchemy({ url: `${nodeUrl}/nft/v3/demo`, maxRetries: 0 });
          const blockNumber = await core.core.getBlockNumber();
          const contract = await nft.nft.getContractMetadata(relics);
          return { blockNumber, name: contract.name };
        },
        { nodeUrl: `${site.origin}/node/${NETWORK}`, relics: WORLD_ADDRESSES.relics },
      );
      expect(answers.blockNumber).toBeGreaterThanOrEqual(0);
      expect(answers.name).toBe('Crucible Relics');
      // The browser did ask first (the SDK's headers are not CORS-safelisted), for both products: the server logged each preflight.
      const preflights = () =>
        site
          .logLines()
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as { msg: string; method?: string; path?: string; status?: number })
          .filter((line) => line.msg === 'request' && line.method === 'OPTIONS');
      await expect
        .poll(preflights)
        .toEqual(
          expect.arrayContaining([
            expect.objectContaining({ path: `/node/${NETWORK}/v2/<key>`, status: 204 }),
            expect.objectContaining({ path: `/node/${NETWORK}/nft/v3/<key>/getContractMetadata`, status: 204 }),
          ]),
        );
      expect(sdkHeaders).toContain('getContractMetadata');
    } finally {
      await tab.close();
    }
  });
});
