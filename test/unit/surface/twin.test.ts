import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { renderTwin } from '../../../integrations/surface/twin.ts';
import { rpcTwinSections } from '../../../integrations/surface/twin-rpc-sections.ts';
import type { PageRecord } from '../../../src/site/records.ts';
import type { Site } from '../../../src/site/site.ts';
import { rpcRegistry } from '../../../src/node/rpc/registry.ts';
import { siteUrl, smallSite } from '../../support/small-site.ts';

/** A page's twin, RPC sections made for the site as the build makes them (no NODE_DOMAIN unless given). */
const twinOf = (page: PageRecord, site: Site, nodeDomain: string | null = null) => renderTwin(page, siteUrl, rpcTwinSections(site, siteUrl, nodeDomain));

function split(twin: string) {
  const match = /^---\n([\s\S]*?)\n---\n\n([\s\S]*)$/.exec(twin);
  if (!match) throw new Error('no frontmatter');
  return { frontmatter: parse(match[1]!), body: match[2]! };
}

describe('renderTwin', () => {
  it('has YAML frontmatter with title and description, then an H1 and the body (docs/website.md#markdown-twins)', () => {
    const site = smallSite();
    const page = site.pagesIn('en', 'blog')[0]!;
    const { frontmatter, body } = split(twinOf(page, site));
    expect(frontmatter).toMatchObject({
      title: 'First post',
      description: 'The first post.',
      url: 'https://crucible.example/blog/first-post',
      date: '2026-02-01',
    });
    expect(body).toBe('# First post\n\nHello [guide](https://crucible.example/overviews/start).\n');
  });

  it('renders MDX components as plain markdown', () => {
    const site = smallSite();
    const page = site.pagesIn('en', 'overviews')[0]!;
    expect(split(twinOf(page, site)).body).toBe('# Start [here]\n\n> **Note:** Read me.\n');
  });

  it('gives RPC pages their network facts from the networks data', () => {
    const site = smallSite();
    const page = site.pagesIn('en', 'rpc')[0]!;
    const { body } = split(twinOf(page, site));
    expect(body).toContain('| Chain ID | `84532` |');
    expect(body).toContain('| Block explorer | [https://sepolia.basescan.org](https://sepolia.basescan.org/) |');
    expect(body).toContain('| Endpoint | `https://crucible.example/node/base-sepolia/v2/<API_KEY>` |');
    expect(body).toContain('| Mainnet | `Base (8453)` |');
    expect(body).toContain('| Faucet | [https://crucible.example/faucets/base-sepolia](https://crucible.example/faucets/base-sepolia) |');
  });

  it('shows the endpoint on the configured node domain (docs/hosts-and-paths.md#node-url)', () => {
    const site = smallSite();
    const { body } = split(twinOf(site.pagesIn('en', 'rpc')[0]!, site, 'node.example.com'));
    expect(body).toContain('| Endpoint | `https://base-sepolia.node.example.com/v2/<API_KEY>` |');
  });

  it('lists every registry method after the facts, linked to the locale’s method reference', () => {
    const site = smallSite([
      ['ja/rpc/base-sepolia.md', { title: 'Base Sepolia RPC', description: 'Base Sepolia の RPC。', network: 'base-sepolia' }, '本文。'],
    ]);
    const twin = (locale: 'en' | 'ja') => split(twinOf(site.pagesIn(locale, 'rpc')[0]!, site)).body;
    const body = twin('en');
    expect(body.indexOf('## Supported methods')).toBeGreaterThan(body.indexOf('| Faucet |'));
    expect(body.indexOf('## Supported methods')).toBeLessThan(body.indexOf('Use it.'));
    expect(body).toContain('Parameters, results and limits: [JSON-RPC method reference](https://crucible.example/rpc/methods).');
    for (const method of rpcRegistry.methods) expect(body).toContain(`[\`${method.name}\`](https://crucible.example/rpc/methods#`);
    expect(body).toContain('| Logs and filters | [`eth_getLogs`](https://crucible.example/rpc/methods#eth_getlogs) 75 CU, ');
    expect(twin('ja')).toContain('| ログとフィルター | [`eth_getLogs`](https://crucible.example/ja/rpc/methods#eth_getlogs) 75 CU, ');
  });

  it('quotes frontmatter values YAML would misread', () => {
    const site = smallSite([['en/support/colons.md', { title: 'Keys: how & why', description: '#1 question: "what"?' }]]);
    const page = site.pagesIn('en', 'support')[0]!;
    expect(split(twinOf(page, site)).frontmatter).toMatchObject({ title: 'Keys: how & why', description: '#1 question: "what"?' });
  });
});
