import { describe, expect, it } from 'vitest';
import { WebhookInputError } from '../../../src/webhooks/errors.ts';
import { matchesFilters, parseFilters, parseWebhookUrl } from '../../../src/webhooks/webhook.ts';

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
    ).toEqual({ contractAddresses: ['0xabcdef0000000000000000000000000000000001'], tokenIds: ['16', '7'] });
    expect(parseFilters('NFT_METADATA_UPDATE', undefined)).toEqual({ contractAddresses: [], tokenIds: [] });
  });

  it('refuses bad addresses, bad or oversized token ids, token ids for metadata webhooks and long lists', () => {
    const bad: Array<Parameters<typeof parseFilters>> = [
      ['NFT_ACTIVITY', { contractAddresses: ['0x12'] }],
      ['NFT_ACTIVITY', { tokenIds: ['1.5'] }],
      ['NFT_ACTIVITY', { tokenIds: [(2n ** 256n).toString()] }],
      ['NFT_METADATA_UPDATE', { tokenIds: ['1'] }],
      ['NFT_ACTIVITY', { tokenIds: Array.from({ length: 1001 }, (_, index) => String(index)) }],
    ];
    for (const [type, filters] of bad) expect(() => parseFilters(type, filters)).toThrow(WebhookInputError);
  });

  it('matches by contract and token id; an empty list matches everything', () => {
    const filters = { contractAddresses: ['0xabcdef0000000000000000000000000000000001'], tokenIds: ['7'] };
    expect(matchesFilters(filters, '0xABCDEF0000000000000000000000000000000001', '7')).toBe(true);
    expect(matchesFilters(filters, '0xabcdef0000000000000000000000000000000001', '8')).toBe(false);
    expect(matchesFilters(filters, '0xabcdef0000000000000000000000000000000002', '7')).toBe(false);
    expect(matchesFilters(filters, '0xabcdef0000000000000000000000000000000001', null)).toBe(false);
    expect(matchesFilters({ contractAddresses: [], tokenIds: [] }, '0x0000000000000000000000000000000000000009', null)).toBe(true);
  });
});
