import { describe, expect, it } from 'vitest';
import { ContentError, pageRecordFromSource, type PageRecord } from '../../../src/site/records.ts';
import { smallSite } from '../../support/small-site.ts';
import { createSite } from '../../../src/site/site.ts';

const page = (relativePath: string, data: Record<string, unknown> = {}): PageRecord =>
  pageRecordFromSource({ relativePath, data: { title: relativePath, description: 'Some page.', ...data }, body: '' })!;

const network = smallSite().network('base-sepolia')!;

describe('createSite', () => {
  it('orders dated sections newest first and others by order, then title', () => {
    const site = createSite({
      pages: [
        page('en/blog/old.md', { date: '2026-01-01' }),
        page('en/blog/new.md', { date: '2026-05-01' }),
        page('en/overviews/b.md', { order: 2 }),
        page('en/overviews/a.md', { order: 1 }),
        page('en/overviews/c.md'),
      ],
      apps: [],
      networks: [],
    });
    expect(site.pagesIn('en', 'blog').map((p) => p.slug)).toEqual(['new', 'old']);
    expect(site.pagesIn('en', 'overviews').map((p) => p.slug)).toEqual(['a', 'b', 'c']);
    expect(site.pagesIn('ja', 'blog')).toEqual([]);
  });

  it('groups translations by section and slug, in locale order', () => {
    const site = createSite({ pages: [page('ja/support/keys.md'), page('en/support/keys.md'), page('en/support/other.md')], apps: [], networks: [] });
    const en = site.pagesIn('en', 'support').find((p) => p.slug === 'keys')!;
    expect([...site.translationsOf(en).keys()]).toEqual(['en', 'ja']);
  });

  it('requires RPC pages to name a network that exists', () => {
    expect(() => createSite({ pages: [page('en/rpc/base-sepolia.md')], apps: [], networks: [network] })).toThrow(ContentError);
    expect(() => createSite({ pages: [page('en/rpc/x.md', { network: 'nowhere' })], apps: [], networks: [network] })).toThrow(/no network "nowhere"/);
    const site = createSite({ pages: [page('en/rpc/base-sepolia.md', { network: 'base-sepolia' })], apps: [], networks: [network] });
    expect(site.network('base-sepolia')?.chainId).toBe(84532);
  });

  it('takes the method reference as the one RPC page without a network', () => {
    const site = createSite({ pages: [page('ja/rpc/methods.md')], apps: [], networks: [] });
    expect(site.pagesIn('ja', 'rpc').map((p) => p.url)).toEqual(['/ja/rpc/methods']);
  });
});
