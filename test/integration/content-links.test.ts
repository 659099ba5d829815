import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locales } from '../../src/site/locales.ts';
import { buildFixtureWith, type BuildResult } from '../support/build.ts';

// Internal links in content are checked when the real build is done, against what it wrote:
// pages in any locale, twins, files, and the ids a fragment lands on. Each page's body starts
// on line 6, after five lines of frontmatter.

const post = (title: string, body: string) => `---\ntitle: ${title}\ndescription: A page of links.\ndate: 2026-06-01\n---\n${body}`;
const guide = (title: string, body: string) => `---\ntitle: ${title}\ndescription: A guide of links.\norder: 7\n---\n${body}`;

const scratches: string[] = [];
async function build(files: Record<string, string>): Promise<BuildResult> {
  const result = await buildFixtureWith(files);
  scratches.push(result.dir);
  return result;
}

afterAll(async () => {
  for (const dir of scratches) await rm(dir, { recursive: true, force: true });
});

/** The fixture with pages whose links all lead somewhere. */
let linked: BuildResult;
beforeAll(async () => {
  linked = await build({
    'en/blog/linking-well.md': post(
      'Linking well',
      [
        'A [guide](/overviews/components), [its section](/overviews/components#call-the-node), [the Japanese post](/ja/blog/hello-agents),',
        '[its twin](/blog/hello-agents.md), [a sibling](hello-agents), [a faucet](/faucets/fixture-testnet), [faucets in Japanese](/ja/faucets/),',
        '[llms.txt](/llms.txt), [the icon](/favicon.svg), [search data](/api/search/en), [below](#further-down), [translations](/authors/translations),',
        '[elsewhere](https://example.com/nowhere), [mail](mailto:authors@example.com), [home](/?ref=links).',
        '',
        '<p>Raw HTML: <a href="/support/faucet-errors">support</a></p>',
        '',
        '## Further down',
        '',
        'A footnote.[^1]',
        '',
        '[^1]: Its anchors are made by the renderer.',
        '',
      ].join('\n'),
    ),
    'en/overviews/linking-in-mdx.mdx': guide(
      'Linking in MDX',
      '<Callout type="tip">\n\n<a href="/blog/linking-well#further-down">A link in a component</a>\n\n</Callout>\n',
    ),
  });
});

describe('internal links in content', () => {
  it('build when every link leads somewhere', () => {
    expect(linked.code, linked.output).toBe(0);
  });

  it('fail the build naming the file, the line and the link: a missing page, anchor, twin or page in another locale', async () => {
    const result = await build({
      'en/blog/broken-links.md': post(
        'Broken links',
        [
          'See [a missing post](/blog/no-such-post) and [a missing heading](/overviews/components#no-such-heading).',
          '',
          '<p>Raw HTML: <a href="/ja/blog/no-such-post">ja</a></p>',
          '',
          '[a twin of nothing](/blog/no-such-post.md), [a section without its slash](/blog), [nothing here](#nowhere)',
          '',
          '[a page only in English](/ko/blog/hello-agents), [fine](/blog/hello-agents) and [wrongly cased](/Blog/Hello-Agents).',
          '',
        ].join('\n'),
      ),
      'en/overviews/broken-in-mdx.mdx': guide('Broken in MDX', '<Callout type="tip">\n\n<a href="../support/no-such-page">relative</a>\n\n</Callout>\n'),
    });
    expect(result.code, result.output).not.toBe(0);
    const file = 'en/blog/broken-links.md';
    const expected = [
      `${file}: line 6: link "/blog/no-such-post": no page or file at /blog/no-such-post`,
      `${file}: line 6: link "/overviews/components#no-such-heading": no heading or anchor "no-such-heading" on /overviews/components`,
      `${file}: line 8: link "/ja/blog/no-such-post": no page or file at /ja/blog/no-such-post`,
      `${file}: line 10: link "/blog/no-such-post.md": no page or file at /blog/no-such-post.md`,
      `${file}: line 10: link "/blog": no page or file at /blog (the page is /blog/)`,
      `${file}: line 10: link "#nowhere": no heading or anchor "nowhere" on /blog/broken-links`,
      `${file}: line 12: link "/ko/blog/hello-agents": no page or file at /ko/blog/hello-agents`,
      // Looked up as the server looks it up, whatever the file system's case rules.
      `${file}: line 12: link "/Blog/Hello-Agents": no page or file at /Blog/Hello-Agents`,
      'en/overviews/broken-in-mdx.mdx: line 8: link "../support/no-such-page": no page or file at /support/no-such-page',
    ];
    for (const line of expected) expect(result.output).toContain(line);
    expect(result.output).toContain(`Broken links in content (${expected.length}):`);
  });
});

describe('the translation status page', () => {
  it('is built for authors, and says why outdated pages are unknown when the content has no git history', async () => {
    expect(linked.code, linked.output).toBe(0);
    const html = await readFile(join(linked.outDir, 'authors/translations.html'), 'utf8');
    for (const locale of locales) expect(html).toContain(`(${locale})</th>`);
    expect(html).toContain('Unknown for this build: the content folder is not in a git checkout.');
  });
});
