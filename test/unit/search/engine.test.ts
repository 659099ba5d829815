import { describe, expect, it } from 'vitest';
import type { SearchGroup } from '../../../src/api/schemas.ts';
import { createSearchEngine, hitsPerGroup, type SearchHitGroup } from '../../../src/search/engine.ts';

const english: SearchGroup[] = [
  {
    label: 'Blog Posts',
    items: [
      { title: 'Announcing the Crucible testnet faucet', url: '/blog/faucet-launch', description: 'Free Sepolia ETH for developers.' },
      { title: 'Indexing NFT transfers', url: '/blog/nft-transfers' },
    ],
  },
  {
    label: 'Guides',
    items: [
      { title: 'Getting started with the Node API', url: '/overviews/getting-started', description: 'Send your first JSON-RPC request.' },
      { title: 'Reading token balances', url: '/overviews/token-balances', description: 'Query ERC-20 balances for any wallet.' },
    ],
  },
  {
    label: 'Apps',
    items: [
      {
        title: 'Tokenswap',
        url: 'https://tokenswap.example/',
        description: 'Swap tokens.',
        icon: 'https://crucible.example/apps/tokenswap.svg',
        external: true,
      },
    ],
  },
];

const japanese: SearchGroup[] = [
  {
    label: 'ブログ記事',
    items: [
      { title: 'ブロックチェーン開発者のためのテストネット入門', url: '/ja/blog/testnet' },
      { title: 'NFT転送のインデックス作成', url: '/ja/blog/nft' },
    ],
  },
  { label: 'ガイド', items: [{ title: 'ノードAPIを始める', url: '/ja/overviews/node-api', description: '最初のJSON-RPCリクエストを送信します。' }] },
];

const titles = (groups: SearchHitGroup[]) => groups.map((g) => [g.label, g.hits.map((h) => h.item.title)]);
const marks = (groups: SearchHitGroup[]) => groups.flatMap((g) => g.hits.flatMap((h) => h.title.filter((p) => p.match).map((p) => p.text)));

describe('createSearchEngine', () => {
  const en = createSearchEngine(english);

  it('finds items by word prefix and keeps the group order of the index', () => {
    expect(titles(en.search('tok'))).toEqual([
      ['Guides', ['Reading token balances']],
      ['Apps', ['Tokenswap']],
    ]);
  });

  it('requires every query word, across title and description', () => {
    expect(titles(en.search('faucet sepolia'))).toEqual([['Blog Posts', ['Announcing the Crucible testnet faucet']]]);
    expect(en.search('faucet nft')).toEqual([]);
  });

  it('ranks title matches above description matches within a group', () => {
    const groups: SearchGroup[] = [
      {
        label: 'Guides',
        items: [
          { title: 'Webhooks', url: '/a', description: 'Receive events about wallets as they happen.' },
          { title: 'Wallet basics', url: '/b' },
        ],
      },
    ];
    expect(titles(createSearchEngine(groups).search('wallet'))).toEqual([['Guides', ['Wallet basics', 'Webhooks']]]);
  });

  it('returns highlighted parts of titles and descriptions', () => {
    const [group] = en.search('json');
    expect(group?.hits[0]?.title.some((p) => p.match)).toBe(false);
    expect(group?.hits[0]?.description).toEqual([
      { text: 'Send your first ', match: false },
      { text: 'JSON', match: true },
      { text: '-RPC request.', match: false },
    ]);
  });

  it('keeps item fields, so apps stay external with their icons', () => {
    const [apps] = en.search('swap');
    expect(apps?.hits[0]?.item).toEqual(english[2]!.items[0]);
  });

  it('answers a blank or punctuation-only query with nothing', () => {
    expect(en.search('')).toEqual([]);
    expect(en.search('  -- ')).toEqual([]);
  });

  it('caps the hits of each group', () => {
    const many: SearchGroup[] = [{ label: 'Guides', items: Array.from({ length: hitsPerGroup + 5 }, (_, i) => ({ title: `Guide ${i}`, url: `/g/${i}` })) }];
    expect(createSearchEngine(many).search('guide')[0]?.hits).toHaveLength(hitsPerGroup);
  });

  it('finds Japanese titles from Japanese queries, including word-internal substrings', () => {
    const ja = createSearchEngine(japanese);
    expect(titles(ja.search('開発者'))).toEqual([['ブログ記事', ['ブロックチェーン開発者のためのテストネット入門']]]);
    expect(marks(ja.search('開発者'))).toEqual(['開発者']);
    expect(titles(ja.search('チェーン'))).toEqual([['ブログ記事', ['ブロックチェーン開発者のためのテストネット入門']]]);
    expect(titles(ja.search('ノード'))).toEqual([['ガイド', ['ノードAPIを始める']]]);
    expect(titles(ja.search('api'))).toEqual([['ガイド', ['ノードAPIを始める']]]);
    expect(ja.search('開発ガイド')).toEqual([]);
  });

  it('finds a single CJK character at the end of a run', () => {
    const ja = createSearchEngine(japanese);
    expect(titles(ja.search('門'))).toEqual([['ブログ記事', ['ブロックチェーン開発者のためのテストネット入門']]]);
  });

  it('finds a single CJK character anywhere in a run, and a query word at the start of words only', () => {
    const ja = createSearchEngine(japanese);
    expect(titles(ja.search('発'))).toEqual([['ブログ記事', ['ブロックチェーン開発者のためのテストネット入門']]]);
    expect(titles(ja.search('転'))).toEqual([['ブログ記事', ['NFT転送のインデックス作成']]]);
    expect(en.search('oken')).toEqual([]);
    expect(titles(en.search('tokens'))).toEqual([['Apps', ['Tokenswap']]]);
  });

  it('matches a word prefix against every word it begins, in any entry', () => {
    const groups: SearchGroup[] = [
      {
        label: 'Guides',
        items: [
          { title: 'Gas estimation', url: '/a' },
          { title: 'Gasless transactions', url: '/b' },
          { title: 'Price feeds', url: '/c', description: 'Gas prices and token prices.' },
          { title: 'Staking', url: '/d' },
        ],
      },
    ];
    const engine = createSearchEngine(groups);
    expect(titles(engine.search('gas'))).toEqual([['Guides', ['Gas estimation', 'Gasless transactions', 'Price feeds']]]);
    expect(titles(engine.search('gas pri'))).toEqual([['Guides', ['Price feeds']]]);
  });

  it('finds Korean and Chinese titles', () => {
    const ko = createSearchEngine([{ label: '가이드', items: [{ title: '블록체인 개발자를 위한 가이드', url: '/ko/x' }] }]);
    expect(titles(ko.search('개발자'))).toEqual([['가이드', ['블록체인 개발자를 위한 가이드']]]);
    expect(titles(ko.search('체인'))).toEqual([['가이드', ['블록체인 개발자를 위한 가이드']]]);
    const zh = createSearchEngine([{ label: '指南', items: [{ title: '区块链开发者指南', url: '/zh-Hans/x' }] }]);
    expect(titles(zh.search('开发者'))).toEqual([['指南', ['区块链开发者指南']]]);
    expect(zh.search('开者')).toEqual([]);
  });
});
