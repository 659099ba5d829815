import { describe, expect, it } from 'vitest';
import { homeUrl, htmlFileOf, llmsFullUrl, llmsUrl, pageUrl, sectionLlmsUrl, sectionUrl, twinUrl } from '../../../src/site/urls.ts';

describe('site URLs', () => {
  it('leaves English unprefixed and prefixes other locales', () => {
    expect(homeUrl('en')).toBe('/');
    expect(homeUrl('zh-Hant')).toBe('/zh-Hant/');
    expect(sectionUrl('pt-BR', 'case-studies')).toBe('/pt-BR/case-studies/');
    expect(pageUrl('en', 'rpc', 'base-sepolia')).toBe('/rpc/base-sepolia');
    expect(sectionLlmsUrl('ja', 'blog')).toBe('/ja/blog/llms.txt');
    expect(llmsUrl('en')).toBe('/llms.txt');
    expect(llmsFullUrl('en')).toBe('/llms-full.txt');
    expect(llmsFullUrl('ja')).toBe('/ja/llms-full.txt');
  });

  it('maps HTML URLs to their twins and built files', () => {
    expect(twinUrl('/')).toBe('/index.md');
    expect(twinUrl('/ja/')).toBe('/ja/index.md');
    expect(twinUrl('/blog/x')).toBe('/blog/x.md');
    expect(htmlFileOf('/')).toBe('index.html');
    expect(htmlFileOf('/ja/blog/')).toBe('ja/blog/index.html');
    expect(htmlFileOf('/ja/blog/x')).toBe('ja/blog/x.html');
  });
});
