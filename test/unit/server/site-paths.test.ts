import { describe, expect, it } from 'vitest';
import { pageRedirectTarget, sitePathOf } from '../../../src/server/static-site.ts';

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
});
