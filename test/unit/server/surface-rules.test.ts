import { describe, expect, it } from 'vitest';
import { compileSurfaceRules, patternToRegExp } from '../../../src/server/surface-rules.ts';

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
  const rules = compileSurfaceRules({
    version: 1,
    site: 'https://crucible.dev',
    twins: { '/index.md': '/', '/blog/x.md': '/blog/x' },
    types: [
      { pattern: '/api/search/*', contentType: 'application/json; charset=utf-8' },
      { pattern: '/**/*', contentType: 'text/plain' },
    ],
    notFound: { html: '404.html', markdown: '404.md' },
  });

  it('types paths by first match', () => {
    expect(rules.typeOf('/api/search/ja')).toBe('application/json; charset=utf-8');
    expect(rules.typeOf('/x')).toBe('text/plain');
  });

  it('maps twins both ways with canonical links on the site origin', () => {
    expect(rules.twinOf('/blog/x')).toBe('/blog/x.md');
    expect(rules.twinOf('/')).toBe('/index.md');
    expect(rules.twinOf('/blog/')).toBeUndefined();
    expect(rules.canonicalLinkOf('/blog/x.md')).toBe('<https://crucible.dev/blog/x>; rel="canonical"');
  });
});
