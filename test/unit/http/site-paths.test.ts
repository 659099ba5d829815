import { describe, expect, it } from 'vitest';
import { encodePath, otherSpellingsOf, pageRedirectTarget, sitePathOf } from '../../../src/http/site-paths.ts';

describe('sitePathOf (build.format preserve)', () => {
  it.each([
    ['index.html', '/'],
    ['ja/index.html', '/ja/'],
    ['blog/index.html', '/blog/'],
    ['blog/x.html', '/blog/x'],
    ['blog/x.md', '/blog/x.md'],
    ['api/search/en', '/api/search/en'],
  ])('%s -> %s', (file, path) => expect(sitePathOf(file)).toBe(path));
});

describe('pageRedirectTarget', () => {
  const pages = new Set(['/', '/blog/', '/blog/x', '/ja/']);
  const isPage = (path: string) => pages.has(path);
  it.each([
    ['/blog', '/blog/'],
    ['/ja', '/ja/'],
    ['/blog/x/', '/blog/x'],
    ['/blog/x.html', '/blog/x'],
    ['/blog/index.html', '/blog/'],
    ['/index.html', '/'],
    ['/nope', undefined],
    ['/nope/', undefined],
  ])('%s -> %s', (path, expected) => expect(pageRedirectTarget(path, isPage)).toBe(expected));

  it('is undone by otherSpellingsOf: each spelling of a page redirects to it', () => {
    for (const page of pages) {
      const spellings = otherSpellingsOf(page);
      expect(spellings.length, page).toBeGreaterThan(0);
      for (const spelling of spellings) expect(pageRedirectTarget(spelling, isPage), spelling).toBe(page);
    }
  });
});

describe('encodePath', () => {
  it('percent-encodes each segment and keeps the slashes', () => {
    expect(encodePath('/press kit/ä')).toBe('/press%20kit/%C3%A4');
  });
});
