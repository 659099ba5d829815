import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatEther, getAddress, type Address } from 'viem';
import { describe, expect, it } from 'vitest';
import { rpcReferencePath } from '../../../scripts/rpc-docs.ts';
import { exampleEndpoint, exampleKey, exampleNetwork, renderWorldDocs, worldDocsPath } from '../../../scripts/world-docs.ts';
import { isDemoKey } from '../../../src/apps/demo.ts';
import { DEMO_WALLET } from '../../../src/chain/world/actors.ts';
import { FEED_CHECK_SECONDS, FEED_HEARTBEAT_SECONDS } from '../../../src/chain/world/feed-heartbeat.ts';
import { MULTICALL3_ADDRESS, WORLD_CONTRACTS } from '../../../src/chain/world/manifest.ts';
import { WORLD_MARKETPLACE, worldMarket } from '../../../src/chain/world/market.ts';
import { worldFloors, worldListings } from '../../../src/chain/world/market-state.ts';
import { WORLD_FEEDS, WORLD_POOLS } from '../../../src/chain/world/price-layer.ts';
import { rpcRegistry } from '../../../src/node/rpc/registry.ts';
import { loadNetworks, splitFrontmatter } from '../../../src/site/read-content.ts';
import { locales } from '../../../src/site/locales.ts';
import { renderPageBody } from '../../../src/site/markdown.ts';
import { pageFrontmatter } from '../../../src/site/schema.ts';
import { ui } from '../../../src/site/ui.ts';
import { projectRoot } from '../../support/build.ts';

// The local world's guide is generated from its manifest and demo wallet
// and committed as content, one page per locale.

const english = renderWorldDocs('en');

/** The body of the page's fenced block in `language`. */
function fenced(page: string, language: string): string {
  const block = new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\\n\`\`\``).exec(page)?.[1];
  if (block === undefined) throw new Error(`no ${language} block`);
  return block;
}

describe('renderWorldDocs', () => {
  it('writes valid frontmatter in the locale’s words, after the guides written by hand', () => {
    expect(pageFrontmatter.parse(splitFrontmatter(english).data)).toMatchObject({ title: 'The local world: contracts and demo wallet', order: 9 });
    for (const locale of locales) {
      expect(pageFrontmatter.parse(splitFrontmatter(renderWorldDocs(locale)).data)).toMatchObject({ title: ui[locale].worldDocs.title });
    }
  });

  it('gives every contract of the manifest a row: its id, kind, checksummed address and purpose', () => {
    expect(english).toContain(
      '| Contract | Kind | Address | What it is for |\n| - | - | - | - |\n| `multicall3` | Multicall | `0xcA11bde05977b3631167028862bE2a173976CA11` |',
    );
    for (const contract of WORLD_CONTRACTS) {
      expect(english).toContain(`| \`${contract.id}\` | ${ui.en.worldDocs.kinds[contract.kind]} | \`${getAddress(contract.address)}\` | `);
    }
    expect(english).toContain('| `punks` | NFT from before ERC-721 |');
    expect(english).toContain('| An ERC-20 whose name() and symbol() return bytes32, as MKR does. |');
    expect(renderWorldDocs('ja')).toContain('| `punks` | ERC-721 以前の NFT |');
  });

  it('writes every address checksummed', () => {
    const addresses = [...english.matchAll(/0x[0-9a-fA-F]{40}/g)].map(([address]) => address);
    expect(addresses.length).toBeGreaterThan(WORLD_CONTRACTS.length);
    for (const address of addresses) expect(address).toBe(getAddress(address));
  });

  it('says where the world lives: every devnet of npm start, state under .data/, Multicall3 at its canonical address', () => {
    expect(english).toContain('Every local devnet that `npm start` runs');
    expect(english).toContain('across restarts under `.data/`');
    expect(english).toContain(`canonical address, \`${MULTICALL3_ADDRESS}\``);
  });

  it('names the demo wallet and what it holds', () => {
    expect(english).toContain(`## Demo wallet\n\nThe demo wallet, \`${DEMO_WALLET}\`, holds some of every token of the world.`);
  });

  it('calls a local devnet of npm start with the demo key, at the origin it serves by default', async () => {
    expect(exampleEndpoint()).toBe('http://127.0.0.1:4321/node/ethereum-sepolia/v2/demo');
    expect(isDemoKey(exampleKey)).toBe(true);
    const network = (await loadNetworks(projectRoot)).find((record) => record.id === exampleNetwork);
    expect(network?.vm).toBe('evm');
  });

  it('gives a curl whose JSON-RPC body asks a registry method for the demo wallet’s balances', () => {
    const curl = fenced(english, 'sh');
    expect(curl).toMatch(/^curl -s http:\/\/127\.0\.0\.1:4321\/node\/ethereum-sepolia\/v2\/demo \\\n/);
    const body = JSON.parse(/-d '(.+)'$/.exec(curl)?.[1] ?? 'null');
    expect(body).toEqual({ jsonrpc: '2.0', id: 1, method: 'crucible_getTokenBalances', params: [DEMO_WALLET] });
    expect(rpcRegistry.methods.map((method) => method.name)).toContain(body.method);
  });

  it('gives an alchemy-sdk example with its url setting on the same endpoint', () => {
    const sdk = fenced(english, 'ts');
    expect(sdk).toContain("import { Alchemy } from 'alchemy-sdk';");
    expect(sdk).toContain("new Alchemy({ url: 'http://127.0.0.1:4321/node/ethereum-sepolia/v2/demo' })");
    expect(sdk).toContain(`alchemy.core.getTokenBalances('${DEMO_WALLET}')`);
  });

  it('links the method’s entry in the locale’s reference, at an anchor that exists', async () => {
    for (const locale of ['en', 'ja'] as const) {
      const link = /\[`crucible_getTokenBalances`\]\(([^)#]+)#([^)]+)\)/.exec(renderWorldDocs(locale));
      expect(link?.[1]).toBe(locale === 'en' ? '/rpc/methods' : `/${locale}/rpc/methods`);
      const { headings } = await renderPageBody(join(projectRoot, 'content', rpcReferencePath(locale)));
      expect(headings.map((heading) => heading.slug)).toContain(link?.[2]);
    }
  });

  it('lists the price layer: every pool with its tokens in pair order, every feed with its description and decimals', () => {
    expect(english).toContain('## Prices: pools and feeds');
    for (const pool of WORLD_POOLS)
      expect(english).toContain(`| \`${pool.id}\` | \`${getAddress(pool.address)}\` | \`${pool.token0}\` / \`${pool.token1}\` | `);
    for (const feed of WORLD_FEEDS) {
      expect(english).toContain(`| \`${feed.id}\` | \`${getAddress(feed.address)}\` | ${feed.description} | ${feed.decimals} | `);
    }
    expect(english).toContain(
      `every ${FEED_CHECK_SECONDS / 60} minutes while it runs, each feed whose latest round is older than ${FEED_HEARTBEAT_SECONDS / 60} minutes`,
    );
  });

  it('writes the price layer’s section in the locale’s words, the swap’s amount as the command sells it', () => {
    const command = /^npm run world -- swap .* --amount (\d+)$/m.exec(english)?.[1];
    expect(command).toBe('1000');
    expect(english).toContain('this sells 1,000 FORGE into `forge-cusd` on the `ethereum-sepolia` devnet');
    const japanese = renderWorldDocs('ja');
    expect(japanese).toContain('## 価格：プールとフィード');
    expect(japanese).toContain('`forge-cusd` に 1,000 FORGE を売ります');
    expect(japanese).toContain('| プール | アドレス | token0 / token1 | 用途 |');
    for (const locale of locales.filter((locale) => locale !== 'en')) {
      const page = renderWorldDocs(locale);
      expect(page).toContain(`## ${ui[locale].worldDocs.prices.heading}`);
      expect(page).not.toContain('A feed answers what it was deployed with');
    }
  });

  it('follows the facts it is given, escaping their text as Markdown', () => {
    const wallet: Address = '0x00000000000000000000000000000000000000aa';
    const page = renderWorldDocs('es', {
      contracts: [{ id: 'forge', kind: 'erc20', address: '0x000000000000000000000000000000000000beef', purpose: 'A token | with *markup*' }],
      demoWallet: wallet,
    });
    expect(page).toContain('| `forge` | ERC-20 | `0x000000000000000000000000000000000000bEEF` | A token \\| with \\*markup\\* |');
    expect(page).toContain(`\`${getAddress(wallet)}\``);
    expect(page).not.toContain('`multicall3`');
    expect(page).not.toContain('CrucibleMarketplace');
  });

  it('lists the marketplace: its address, every listing with the state the history leaves it in, every sale, and the floors', () => {
    expect(english).toContain(`## Marketplace\n\nEvery devnet also carries a marketplace, \`CrucibleMarketplace\` at \`${WORLD_MARKETPLACE.address}\``);
    const rows = (heading: string) => english.split(heading)[1]!.split('\n\n')[0]!.split('\n').slice(2);
    const listings = worldListings();
    const listingRows = rows('| Listing | Seller | Token | Quantity | Unit price | State |');
    expect(listingRows).toHaveLength(listings.length);
    listings.forEach((listing, i) => {
      expect(listingRows[i]).toMatch(new RegExp(`^\\| #${listing.id} \\| .* \\| \`${listing.collection}\` ${listing.tokenId} \\| ${listing.quantity} \\| `));
      expect(listingRows[i]).toContain(ui.en.worldDocs.market.states[listing.state]);
    });
    expect(rows('| Listing | Buyer | Token | Quantity | Price | Fee | Royalty |')).toHaveLength(worldMarket().sales.length);
    const { relics, materials } = worldFloors();
    expect(english).toContain(
      `is thus ${formatEther(relics!.unitPrice)} ETH (#${relics!.id}) for the relics and ${formatEther(materials!.unitPrice)} ETH (#${materials!.id})`,
    );
    expect(renderWorldDocs('ja')).toContain(`| ${ui.ja.worldDocs.market.states.unfillable} |`);
  });
});

describe('the committed pages', () => {
  it('are what npm run docs:world writes from the manifest now, in every locale', async () => {
    for (const locale of locales) {
      const file = join('content', worldDocsPath(locale));
      const committed = await readFile(join(projectRoot, file), 'utf8').catch(() => '');
      expect(committed, `${file} differs from the world's manifest: run npm run docs:world`).toBe(renderWorldDocs(locale));
    }
  });

  it('render as pages, and the token balances guide links to the English one', async () => {
    for (const locale of locales) {
      const { html } = await renderPageBody(join(projectRoot, 'content', worldDocsPath(locale)));
      expect(html).toContain(`<code>${DEMO_WALLET}</code>`);
    }
    const guide = await readFile(join(projectRoot, 'content/en/overviews/reading-token-balances.md'), 'utf8');
    expect(guide).toContain('](/overviews/local-world)');
  });

  it("the README's token example asks for the demo wallet's balances", async () => {
    const readme = await readFile(join(projectRoot, 'README.md'), 'utf8');
    expect(readme).toMatch(new RegExp(`"method":"crucible_getTokenBalances","params":\\["${DEMO_WALLET}"\\]`));
  });
});
