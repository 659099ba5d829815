import { describe, expect, it } from 'vitest';
import { compileSurfaceRules, patternToRegExp } from '../../../src/http/surface-rules.ts';

describe('patternToRegExp', () => {
  it.each([
    ['/api/search/*', '/api/search/en', true],
    ['/api/search/*', '/api/search/zh-Hans', true],
    ['/api/search/*', '/api/search/en/x', false],
    ['/**/*.md', '/index.md', true],
    ['/**/*.md', '/ja/blog/x.md', true],
    ['/**/*.md', '/ja/blog/x.mdx', false],
    ['/**/*.txt', '/llms.txt', true],
    ['/_astro/**', '/_astro/a/b.js', true],
    ['/_astro/**', '/_astro', true],
    ['/_astro/**', '/_astroid/x', false],
    ['/a.b', '/aXb', false],
  ])('%s vs %s -> %s', (pattern, path, expected) => expect(patternToRegExp(pattern).test(path)).toBe(expected));
});

describe('compileSurfaceRules', () => {
  const csp = "default-src 'self'";
  const rules = compileSurfaceRules({
    version: 2,
    site: 'https://crucible.dev',
    twins: { '/index.md': '/', '/blog/x.md': '/blog/x' },
    types: [
      { pattern: '/api/search/*', contentType: 'application/json; charset=utf-8' },
      { pattern: '/**/*', contentType: 'text/plain' },
    ],
    headers: [
      { pattern: '/_astro/**', headers: { 'cache-control': 'immutable' } },
      { pattern: '/**', headers: { 'cache-control': 'revalidate', 'x-content-type-options': 'nosniff' } },
    ],
    pageHeaders: { sets: [{ 'content-security-policy': csp }], pages: { '/': 0, '/blog/x': 0, '/blog/': 0 } },
    notFound: { html: '404.html', markdown: '404.md', headers: { 'cache-control': 'not-found' } },
    redirects: {
      spellings: { status: 308, headers: { 'cache-control': 'permanent' } },
      markdownTwin: { status: 307, headers: { 'cache-control': 'private', vary: 'Accept' } },
    },
  });

  it('types paths by first match', () => {
    expect(rules.typeOf('/api/search/ja')).toBe('application/json; charset=utf-8');
    expect(rules.typeOf('/x')).toBe('text/plain');
  });

  it('maps pages to their twins', () => {
    expect(rules.twinOf('/blog/x')).toBe('/blog/x.md');
    expect(rules.twinOf('/')).toBe('/index.md');
    expect(rules.twinOf('/blog/')).toBeUndefined();
  });

  it('takes each header from the first rule that names it, after the Links and the page headers', () => {
    expect(rules.headersOf('/_astro/a.js')).toEqual({ 'cache-control': 'immutable', 'x-content-type-options': 'nosniff' });
    expect(rules.headersOf('/blog/x.md')).toEqual({
      link: '<https://crucible.dev/blog/x>; rel="canonical"',
      'cache-control': 'revalidate',
      'x-content-type-options': 'nosniff',
    });
    expect(rules.headersOf('/blog/x')).toEqual({
      link: '</blog/x.md>; rel="alternate"; type="text/markdown"',
      'content-security-policy': csp,
      'cache-control': 'revalidate',
      'x-content-type-options': 'nosniff',
    });
    expect(rules.headersOf('/blog/')).toEqual({ 'content-security-policy': csp, 'cache-control': 'revalidate', 'x-content-type-options': 'nosniff' });
  });
});
