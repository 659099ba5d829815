import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPageBody } from '../../../src/site/markdown.ts';

let dir: string;
const page = async (name: string, body: string) => {
  const path = join(dir, name);
  await writeFile(path, `---\ntitle: A page\ndescription: For the renderer.\n---\n${body}`);
  return path;
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'crucible-markdown-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('renderPageBody', () => {
  it('renders Markdown with heading ids, Shiki in both themes, fence titles and smart quotes', async () => {
    const body = await renderPageBody(await page('a.md', '## Set up the node\'s key\n\n```ts title="key.ts"\nconst key = 1;\n```\n'));
    expect(body.Content).toBeUndefined();
    expect(body.html).toContain('<h2 id="set-up-the-nodes-key">Set up the node’s key</h2>');
    expect(body.html).toMatch(/<pre class="astro-code astro-code-themes github-light-default github-dark-default"[^>]*data-title="key\.ts"/);
    expect(body.headings).toEqual([{ depth: 2, slug: 'set-up-the-nodes-key', text: 'Set up the node’s key' }]);
  });

  it('compiles MDX into a component for Astro’s JSX renderer, with its headings and its own exports', async () => {
    const body = await renderPageBody(await page('b.mdx', "export const chain = 'sepolia';\n\n## On {chain}\n\n<Callout>Hi</Callout>\n"));
    expect(body.html).toBeUndefined();
    expect(typeof body.Content).toBe('function');
    expect((body.Content as unknown as Record<symbol, unknown>)[Symbol.for('astro:renderer')]).toBe('astro:jsx');
    expect(body.headings).toEqual([{ depth: 2, slug: 'on-chain', text: 'On chain' }]);
  });

  it('gives MDX its frontmatter, as @astrojs/mdx does', async () => {
    const body = await renderPageBody(await page('f.mdx', 'Read {frontmatter.title}.\n'));
    expect(JSON.stringify(body.Content!({ components: {} }))).toContain('"children":["Read ","A page","."]');
  });

  it('refuses an MDX import, naming the file', async () => {
    const path = await page('c.mdx', "import Chart from './chart.astro';\n\n<Chart />\n");
    await expect(renderPageBody(path)).rejects.toThrow(`${path}: imports are not supported in MDX pages (import Chart from './chart.astro';)`);
  });

  it('refuses relative images in Markdown and MDX, and keeps site-root images', async () => {
    for (const name of ['d.md', 'd.mdx']) {
      const path = await page(name, '![chart](./chart.png)\n');
      await expect(renderPageBody(path)).rejects.toThrow(`${path}: relative image paths (./chart.png) are not supported`);
    }
    const body = await renderPageBody(await page('e.md', '![chart](/favicon.svg)\n'));
    expect(body.html).toContain('<img src="/favicon.svg" alt="chart"');
  });
});
