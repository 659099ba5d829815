import { describe, expect, it } from 'vitest';
import { alternatesFor, canonicalPathOf, localeOfPath } from '../../../integrations/surface/sitemap.ts';

describe('sitemap alternates', () => {
  const built = new Set(['/', '/ja/', '/blog/', '/blog/a', '/ja/blog/a', '/pt-BR/blog/a', '/blog/only-en']);

  it('splits a path into locale and shared rest', () => {
    expect(localeOfPath('/ja/blog/a')).toEqual({ locale: 'ja', rest: '/blog/a' });
    expect(localeOfPath('/blog/a')).toEqual({ locale: 'en', rest: '/blog/a' });
    expect(localeOfPath('/ja/')).toEqual({ locale: 'ja', rest: '/' });
  });

  it('lists every translation plus x-default, from any of them', () => {
    const expected = [
      { lang: 'en', url: 'https://c.dev/blog/a' },
      { lang: 'ja', url: 'https://c.dev/ja/blog/a' },
      { lang: 'pt-BR', url: 'https://c.dev/pt-BR/blog/a' },
      { lang: 'x-default', url: 'https://c.dev/blog/a' },
    ];
    expect(alternatesFor('/blog/a', built, 'https://c.dev')).toEqual(expected);
    expect(alternatesFor('/ja/blog/a', built, 'https://c.dev')).toEqual(expected);
    expect(alternatesFor('/', built, 'https://c.dev')).toEqual([
      { lang: 'en', url: 'https://c.dev/' },
      { lang: 'ja', url: 'https://c.dev/ja/' },
      { lang: 'x-default', url: 'https://c.dev/' },
    ]);
  });

  it('gives untranslated pages no alternates', () => {
    expect(alternatesFor('/blog/only-en', built, 'https://c.dev')).toEqual([]);
  });

  it('restores the trailing slash of directory pages', () => {
    expect(canonicalPathOf('', true)).toBe('/');
    expect(canonicalPathOf('ja/blog', true)).toBe('/ja/blog/');
    expect(canonicalPathOf('ja/blog/a', false)).toBe('/ja/blog/a');
  });
});
