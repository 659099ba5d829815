import { pageRecordFromSource, type AppRecord, type NetworkRecord } from '../../src/site/records.ts';
import { createSite, type Site } from '../../src/site/site.ts';

export const siteUrl = 'https://crucible.example';

/** A small in-memory site for generator tests. */
export function smallSite(extraPages: Array<[string, Record<string, unknown>, string?]> = []): Site {
  const sources: Array<[string, Record<string, unknown>, string?]> = [
    ['en/index.md', { title: 'Crucible home', description: 'The homepage.' }, 'Welcome.'],
    ['ja/index.md', { title: 'ホーム', description: 'ホームページ。' }, 'ようこそ。'],
    ['en/blog/first-post.md', { title: 'First post', description: 'The first post.', date: '2026-02-01' }, 'Hello [guide](/overviews/start).'],
    ['en/overviews/start.mdx', { title: 'Start [here]', description: 'Start here.', order: 1 }, '<Callout>\n\nRead me.\n\n</Callout>\n'],
    ['ja/overviews/start.mdx', { title: 'はじめに', description: 'ここから。', order: 1 }, '本文。'],
    ['en/rpc/base-sepolia.md', { title: 'Base Sepolia RPC', description: 'RPC for Base Sepolia.', network: 'base-sepolia' }, 'Use it.'],
    ...extraPages,
  ];
  const pages = sources.map(([relativePath, data, body]) => pageRecordFromSource({ relativePath, data, body: body ?? '' })!);
  const apps: AppRecord[] = [
    {
      slug: 'zeta',
      sourcePath: 'content/apps/zeta.yaml',
      name: 'Zeta',
      description: 'A wallet.',
      url: 'https://zeta.example',
      icon: '/apps/zeta.svg',
      category: 'wallet',
    },
  ];
  const networks: NetworkRecord[] = [
    {
      id: 'base-sepolia',
      sourcePath: 'content/networks/base-sepolia.yaml',
      name: 'Base Sepolia',
      chainId: 84532,
      vm: 'evm',
      nativeCurrency: { symbol: 'ETH', decimals: 18 },
      explorer: 'https://sepolia.basescan.org',
      mainnet: { name: 'Base', chainId: 8453 },
      drip: '0.1',
      maxBalance: '1',
      rateWindowHours: 24,
      maxDripGas: 100_000,
      finalityBlocks: 64,
      deprecated: false,
      suggestForDeprecated: false,
    },
  ];
  return createSite({ pages, apps, networks });
}
