import { describe, expect, it } from 'vitest';
import { renderLlmsTxt, renderSectionLlmsTxt } from '../../../integrations/surface/llms.ts';
import { siteUrl, smallSite } from '../../support/small-site.ts';

describe('llms.txt', () => {
  it('follows the llms.txt format: title, summary, sections of linked .md URLs with descriptions', () => {
    const text = renderLlmsTxt(smallSite(), 'en', { siteUrl, inlineLimit: 100 });
    const lines = text.split('\n');
    expect(lines[0]).toBe('# Crucible');
    expect(lines[2]).toMatch(/^> \S/);
    expect(text).toContain('## Blog Posts\n\n- [First post](https://crucible.example/blog/first-post.md): The first post.');
    expect(text).toContain('## Guides\n\n- [Start \\[here\\]](https://crucible.example/overviews/start.md): Start here.');
    expect(text).toContain('## RPC\n\n- [Base Sepolia RPC](https://crucible.example/rpc/base-sepolia.md)');
    expect(text).toContain('- [日本語](https://crucible.example/ja/llms.txt)');
    expect(text).not.toContain('## Support'); // no pages, no heading
  });

  it('lists only the locale’s own pages, with localized headings', () => {
    const text = renderLlmsTxt(smallSite(), 'ja', { siteUrl, inlineLimit: 100 });
    expect(text).toContain('- [はじめに](https://crucible.example/ja/overviews/start.md): ここから。');
    expect(text).not.toContain('first-post');
    expect(text).toContain('https://crucible.example/ja/llms-full.txt');
  });

  it('moves long sections into their own file and links it', () => {
    const extra = Array.from(
      { length: 3 },
      (_, i) => [`en/blog/post-${i}.md`, { title: `Post ${i}`, description: 'More.', date: '2026-03-01' }] as [string, Record<string, unknown>],
    );
    const site = smallSite(extra);
    const main = renderLlmsTxt(site, 'en', { siteUrl, inlineLimit: 2 });
    expect(main).toContain('(https://crucible.example/blog/llms.txt)');
    expect(main).not.toContain('post-0.md');
    const section = renderSectionLlmsTxt(site, 'en', 'blog', { siteUrl, inlineLimit: 2 });
    for (const slug of ['first-post', 'post-0', 'post-1', 'post-2']) expect(section).toContain(`https://crucible.example/blog/${slug}.md`);
  });
});
