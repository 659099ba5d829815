import { describe, expect, it } from 'vitest';
import { isSafeUrl, parseSearchIndex, SearchIndexError } from '../../../src/search/data.ts';

describe('isSafeUrl', () => {
  it('accepts site-relative paths and http(s) URLs', () => {
    expect(isSafeUrl('/blog/x')).toBe(true);
    expect(isSafeUrl('https://app.example/')).toBe(true);
    expect(isSafeUrl('http://localhost:4321/apps/a.svg')).toBe(true);
  });

  it('refuses script URLs, protocol-relative URLs and junk', () => {
    expect(isSafeUrl('javascript:alert(1)')).toBe(false);
    expect(isSafeUrl(' JavaScript:alert(1)')).toBe(false);
    expect(isSafeUrl('data:text/html,<script>alert(1)</script>')).toBe(false);
    expect(isSafeUrl('//evil.example/')).toBe(false);
    expect(isSafeUrl('/\\evil.example/')).toBe(false);
    expect(isSafeUrl('not a url')).toBe(false);
  });
});

describe('parseSearchIndex', () => {
  it('keeps groups and item fields (docs/website.md#search-index)', () => {
    const json = [
      { label: 'Guides', items: [{ title: 'A', url: '/a', description: 'About A' }] },
      { label: 'Apps', items: [{ title: 'B', url: 'https://b.example/', icon: 'https://site.example/b.svg', external: true }] },
    ];
    expect(parseSearchIndex(json)).toEqual(json);
  });

  it('drops items whose URL could run script and icons that could', () => {
    const parsed = parseSearchIndex([
      {
        label: 'Apps',
        items: [
          { title: 'Bad', url: 'javascript:alert(1)' },
          { title: 'Good', url: 'https://good.example/', icon: 'javascript:alert(1)', external: true },
        ],
      },
    ]);
    expect(parsed).toEqual([{ label: 'Apps', items: [{ title: 'Good', url: 'https://good.example/', external: true }] }]);
  });

  it('refuses a body that is not an array of groups', () => {
    expect(() => parseSearchIndex({ groups: [] })).toThrow(SearchIndexError);
    expect(() => parseSearchIndex([{ label: 'x' }])).toThrow(SearchIndexError);
    expect(() => parseSearchIndex([{ label: 'x', items: [{ url: '/a' }] }])).toThrow(SearchIndexError);
  });
});
