import { describe, expect, it } from 'vitest';
import { WebhookInputError } from '../../../src/webhooks/errors.ts';
import { changeFilterEntries, filterEntries } from '../../../src/webhooks/nft-filter-entries.ts';
import { filterMatcher, parseFilters, parseWebhookUrl, type WebhookFilters } from '../../../src/webhooks/webhook.ts';

describe('webhook URLs', () => {
  it('keeps https URLs, and http ones in local mode only', () => {
    expect(parseWebhookUrl('https://Hooks.Example.com/a?b=1', { local: false })).toBe('https://hooks.example.com/a?b=1');
    expect(parseWebhookUrl('http://127.0.0.1:8080/hook', { local: true })).toBe('http://127.0.0.1:8080/hook');
    expect(() => parseWebhookUrl('http://hooks.example.com/', { local: false })).toThrow('url must be an https URL.');
  });

  it('refuses non-public hosts outside local mode, IPv4-mapped and bracketed forms included', () => {
    for (const url of [
      'https://127.0.0.1/',
      'https://[::ffff:10.0.0.1]/',
      'https://[fe80::1]/',
      'https://100.64.0.1/',
      'https://LOCALHOST/',
      'https://a.localhost/',
    ]) {
      expect(() => parseWebhookUrl(url, { local: false }), url).toThrow(WebhookInputError);
    }
    expect(parseWebhookUrl('https://1.1.1.1/', { local: false })).toBe('https://1.1.1.1/');
  });

  it('refuses credentials, fragments, other schemes and overlong URLs', () => {
    for (const url of ['https://u:p@example.com/', 'https://example.com/#x', 'ws://example.com/', `https://example.com/${'a'.repeat(2100)}`, '/relative']) {
      expect(() => parseWebhookUrl(url, { local: true }), url).toThrow(WebhookInputError);
    }
  });
});

describe('webhook filters', () => {
  it('normalizes addresses to lowercase and token ids to decimal, without repeats', () => {
    expect(
      parseFilters('NFT_ACTIVITY', {
        contractAddresses: ['0xABCDEF0000000000000000000000000000000001', '0xabcdef0000000000000000000000000000000001'],
        tokenIds: ['0x10', '16', '007'],
      }),
    ).toEqual({ contractAddresses: ['0xabcdef0000000000000000000000000000000001'], tokenIds: ['16', '7'], tokens: [] });
    expect(parseFilters('NFT_METADATA_UPDATE', undefined)).toEqual({ contractAddresses: [], tokenIds: [], tokens: [] });
    expect(
      parseFilters('NFT_METADATA_UPDATE', {
        tokens: [
          { contractAddress: '0xABCDEF0000000000000000000000000000000001', tokenId: '0x10' },
          { contractAddress: '0xabcdef0000000000000000000000000000000001', tokenId: '16' },
        ],
      }),
    ).toEqual({ contractAddresses: [], tokenIds: [], tokens: [{ contractAddress: '0xabcdef0000000000000000000000000000000001', tokenId: '16' }] });
  });

  it('refuses bad addresses, bad or oversized token ids, token ids for metadata webhooks and long lists', () => {
    const bad: Array<Parameters<typeof parseFilters>> = [
      ['NFT_ACTIVITY', { contractAddresses: ['0x12'] }],
      ['NFT_ACTIVITY', { tokenIds: ['1.5'] }],
      ['NFT_ACTIVITY', { tokenIds: [(2n ** 256n).toString()] }],
      ['NFT_METADATA_UPDATE', { tokenIds: ['1'] }],
      ['NFT_ACTIVITY', { tokenIds: Array.from({ length: 1001 }, (_, index) => String(index)) }],
      ['NFT_ACTIVITY', { tokens: [{ contractAddress: '0x12', tokenId: '1' }] }],
      ['ADDRESS_ACTIVITY', { contractAddresses: ['0xabcdef0000000000000000000000000000000001'] }],
      ['MINED_TRANSACTION', { tokens: [{ contractAddress: '0xabcdef0000000000000000000000000000000001', tokenId: '1' }] }],
    ];
    for (const [type, filters] of bad) expect(() => parseFilters(type, filters)).toThrow(WebhookInputError);
  });

  it('matches by contract and token id; an empty list matches everything', () => {
    const matches = filterMatcher({ contractAddresses: ['0xabcdef0000000000000000000000000000000001'], tokenIds: ['7'], tokens: [] });
    expect(matches('0xABCDEF0000000000000000000000000000000001', '7')).toBe(true);
    expect(matches('0xabcdef0000000000000000000000000000000001', '8')).toBe(false);
    expect(matches('0xabcdef0000000000000000000000000000000002', '7')).toBe(false);
    expect(matches('0xabcdef0000000000000000000000000000000001', null)).toBe(false);
    expect(filterMatcher({ contractAddresses: [], tokenIds: [], tokens: [] })('0x0000000000000000000000000000000000000009', null)).toBe(true);
  });

  it('matches an exact token besides what the lists select, and nothing else when the lists are empty', () => {
    const matches = filterMatcher({ contractAddresses: [A], tokenIds: [], tokens: [{ contractAddress: B, tokenId: '5' }] });
    expect(matches(A, '1')).toBe(true);
    expect(matches(B, '5')).toBe(true);
    expect(matches(B, '6')).toBe(false);
    const only = filterMatcher({ contractAddresses: [], tokenIds: [], tokens: [{ contractAddress: B, tokenId: '5' }] });
    expect([only(B, '5'), only(B, '6'), only(A, '5')]).toEqual([true, false, false]);
  });
});

const A = '0xaaaa000000000000000000000000000000000001';
const B = '0xbbbb000000000000000000000000000000000002';

describe('NFT filters as the SDK lists and edits them', () => {
  const listed = (filters: WebhookFilters) => {
    const entries = filterEntries(filters);
    return Array.from({ length: entries.count }, (_, index) => entries.at(index));
  };

  it('lists whole contracts, every pair of contracts and ids, ids of any contract, then exact tokens', () => {
    expect(listed({ contractAddresses: [A, B], tokenIds: [], tokens: [] })).toEqual([
      { contractAddress: A, tokenId: null },
      { contractAddress: B, tokenId: null },
    ]);
    expect(listed({ contractAddresses: [A, B], tokenIds: ['1', '2'], tokens: [{ contractAddress: B, tokenId: '9' }] })).toEqual([
      { contractAddress: A, tokenId: '1' },
      { contractAddress: A, tokenId: '2' },
      { contractAddress: B, tokenId: '1' },
      { contractAddress: B, tokenId: '2' },
      { contractAddress: B, tokenId: '9' },
    ]);
    expect(listed({ contractAddresses: [], tokenIds: ['3'], tokens: [] })).toEqual([{ contractAddress: null, tokenId: '3' }]);
  });

  it('adds and removes entries, turning pairs into exact tokens first, and keeps what the filters matched', () => {
    const before: WebhookFilters = { contractAddresses: [A], tokenIds: ['1', '2'], tokens: [] };
    const after = changeFilterEntries(
      before,
      {
        add: [{ contractAddress: B.toUpperCase().replace('0X', '0x') }, { contractAddress: A, tokenId: '0x3' }],
        remove: [{ contractAddress: A, tokenId: '2' }],
      },
      'filters',
    );
    expect(after).toEqual({
      contractAddresses: [B],
      tokenIds: [],
      tokens: [
        { contractAddress: A, tokenId: '1' },
        { contractAddress: A, tokenId: '3' },
      ],
    });
    const matches = filterMatcher(after);
    expect([matches(A, '1'), matches(A, '2'), matches(A, '3'), matches(B, '77')]).toEqual([true, false, true, true]);
  });

  it('refuses to edit token ids of every contract, which entries cannot express', () => {
    expect(() => changeFilterEntries({ contractAddresses: [], tokenIds: ['1'], tokens: [] }, { add: [{ contractAddress: A }], remove: [] }, 'filters')).toThrow(
      /token ids of every contract/,
    );
  });
});
