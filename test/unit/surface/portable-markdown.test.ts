import { describe, expect, it } from 'vitest';
import { absolutize, toPortableMarkdown } from '../../../integrations/surface/portable-markdown.ts';

const base = 'https://crucible.example/overviews/keys';
const mdx = (body: string) => toPortableMarkdown(body, { format: 'mdx', baseUrl: base });

describe('toPortableMarkdown', () => {
  it('removes MDX imports, exports and expressions', () => {
    const out = mdx("import X from './x.astro';\nexport const meta = { a: 1 };\n\nValue {meta.a} here.\n");
    expect(out).not.toMatch(/import|export|\{|\}/);
    expect(out).toContain('Value');
  });

  it('turns a Callout into a blockquote led by its title or type', () => {
    expect(mdx('<Callout type="warning" title="Keep it secret">\n\nYour **key** is private.\n\n</Callout>\n')).toBe(
      '> **Keep it secret:** Your **key** is private.\n',
    );
    expect(mdx('<Callout type="tip">\n\n- one\n- two\n\n</Callout>\n')).toBe('> **Tip:**\n>\n> - one\n> - two\n');
  });

  it('turns Tabs into headed sections one level below the current heading', () => {
    const out = mdx(
      '## Install\n\n<Tabs>\n<Tab label="npm">\n\n```bash\nnpm i viem\n```\n\n</Tab>\n<Tab label="pnpm">\n\n```bash\npnpm add viem\n```\n\n</Tab>\n</Tabs>\n',
    );
    expect(out).toBe('## Install\n\n### npm\n\n```bash\nnpm i viem\n```\n\n### pnpm\n\n```bash\npnpm add viem\n```\n');
  });

  it('turns a CodeGroup into consecutive fenced blocks, keeping titles', () => {
    const out = mdx('<CodeGroup>\n\n```bash title="curl"\ncurl https://x\n```\n\n```ts title="viem"\nconst a = 1\n```\n\n</CodeGroup>\n');
    expect(out).toBe('```bash title="curl"\ncurl https://x\n```\n\n```ts title="viem"\nconst a = 1\n```\n');
  });

  it('keeps the content of unknown components and never their tags', () => {
    const out = mdx('<Badge color="red">beta</Badge> feature\n\n<Figure>\n\nA caption.\n\n</Figure>\n');
    expect(out).not.toMatch(/<|>/);
    expect(out).toContain('beta feature');
    expect(out).toContain('A caption.');
  });

  it('nests: a callout inside a tab', () => {
    const out = mdx('<Tabs>\n<Tab label="A">\n\n<Callout>\n\nInside.\n\n</Callout>\n\n</Tab>\n</Tabs>\n');
    expect(out).toBe('## A\n\n> **Note:** Inside.\n');
  });

  it('drops raw HTML from markdown and makes links and images absolute', () => {
    const out = toPortableMarkdown(
      '<div class="x">raw</div>\n\nSee [keys](/support/api-keys), [next](./next), [top](#top), [mail](mailto:a@b.c) and ![logo](/logo.svg).\n\n[ref]: ../blog/post\n',
      { format: 'md', baseUrl: base },
    );
    expect(out).not.toContain('<div');
    expect(out).toContain('[keys](https://crucible.example/support/api-keys)');
    expect(out).toContain('[next](https://crucible.example/overviews/next)');
    expect(out).toContain('[top](https://crucible.example/overviews/keys#top)');
    expect(out).toContain('[mail](mailto:a@b.c)');
    expect(out).toContain('![logo](https://crucible.example/logo.svg)');
    expect(out).toContain('[ref]: https://crucible.example/blog/post');
  });

  it('keeps GFM tables', () => {
    expect(toPortableMarkdown('| a | b |\n|---|---|\n| 1 | 2 |\n', { format: 'md', baseUrl: base })).toBe('| a | b |\n| - | - |\n| 1 | 2 |\n');
  });
});

describe('absolutize', () => {
  it('leaves absolute and protocol-relative URLs alone', () => {
    expect(absolutize('https://x.dev/a', base)).toBe('https://x.dev/a');
    expect(absolutize('//cdn.x/a.js', base)).toBe('//cdn.x/a.js');
    expect(absolutize('/a', base)).toBe('https://crucible.example/a');
  });
});
