import { existsSync } from 'node:fs';
import { readFile, rm, writeFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { surfaceManifestFile, type SurfaceManifest } from '../../src/http/surface-manifest.ts';
import { loadSite } from '../../src/site/read-content.ts';
import { locales } from '../../src/site/locales.ts';
import { searchableSections, sections } from '../../src/site/sections.ts';
import type { Site } from '../../src/site/site.ts';
import {
  dashboardPages,
  dashboardUrl,
  faucetsUrl,
  htmlFileOf,
  nftGalleryUrl,
  sectionUrl,
  signedInDashboardPages,
  translationStatusUrl,
} from '../../src/site/urls.ts';
import { buildSite, copyFixtureContent, projectRoot } from '../support/build.ts';

// Builds the fixture site with the real Astro build, after an "author" adds one page,
// and checks every artifact of docs/website.md#search-index, docs/website.md#markdown-twins and docs/website.md#text-indexes against the content model.

const siteUrl = 'https://fixture.example';
const newPage = {
  path: 'en/blog/author-added-page.md',
  source:
    '---\ntitle: An author added this page\ndescription: One new markdown file, seen everywhere after one build.\ndate: 2026-06-01\n---\nNew **content**.\n\n## Try it\n\n```ts title="try.ts"\nconst answer = 42;\n```\n\n## Next\n\nMore.\n',
  url: '/blog/author-added-page',
};

let scratch: string;
let dist: string;
let site: Site;

const read = (path: string) => readFile(join(dist, path), 'utf8');
const fileForUrl = (path: string) => (/\.(md|txt|xml)$/.test(path) || path.startsWith('/api/') ? path.slice(1) : htmlFileOf(path));

beforeAll(async () => {
  const fixture = await copyFixtureContent();
  scratch = fixture.dir;
  await writeFile(join(fixture.content, newPage.path), newPage.source);
  const result = await buildSite({ contentDir: fixture.content, outDir: join(scratch, 'dist'), cacheDir: join(scratch, 'cache'), siteUrl });
  if (result.code !== 0) throw new Error(`fixture build failed:\n${result.output}`);
  dist = result.outDir;
  site = await loadSite(projectRoot, fixture.content);
});

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('fixture site build', () => {
  it('builds an HTML page with canonical, hreflang and markdown alternates for every page', async () => {
    expect(site.pages.length).toBeGreaterThan(10);
    for (const page of site.pages) {
      const html = await read(htmlFileOf(page.url));
      expect(html).toContain(`<link rel="canonical" href="${siteUrl}${page.url}">`);
      expect(html).toContain(`<link rel="alternate" type="text/markdown" href="${siteUrl}${page.twinUrl}">`);
      const translations = site.translationsOf(page);
      if (translations.size > 1) {
        for (const t of translations.values()) expect(html).toContain(`hreflang="${t.locale}" href="${siteUrl}${t.url}"`);
        expect(html).toContain('hreflang="x-default"');
      }
    }
  });

  it("titles every locale's home page by its frontmatter alone, and other pages after it with the site's name", async () => {
    const titleOf = async (url: string) => /<title>([^<]*)<\/title>/.exec(await read(htmlFileOf(url)))?.[1];
    for (const locale of locales) {
      const home = site.pages.find((page) => page.locale === locale && page.section === null);
      expect(await titleOf(home!.url), locale).toBe(home!.title);
    }
    const post = site.pages.find((page) => page.locale === 'ja' && page.section === 'blog')!;
    expect(await titleOf(post.url)).toBe(`${post.title} · Crucible`);
  });

  it('builds section indexes, a 404 page, and escapes titles', async () => {
    for (const locale of locales) {
      for (const section of sections) {
        if (site.pagesIn(locale, section).length) expect(existsSync(join(dist, htmlFileOf(sectionUrl(locale, section))))).toBe(true);
      }
    }
    expect(existsSync(join(dist, '404.html'))).toBe(true);
    const html = await read('blog/escaping-titles.html');
    // Inside quoted attribute values `<` is inert; anywhere else it must be escaped.
    expect(html.replace(/="[^"]*"/g, '=""')).not.toContain('<img src=x');
    expect(html).toMatch(/<h1[^>]*>Escaping &lt;img src=x onerror=alert\(1\)&gt; in titles<\/h1>/);
  });

  it('writes a twin for every page: frontmatter with title and description, an H1, the body (docs/website.md#markdown-twins)', async () => {
    for (const page of site.pages) {
      const twin = await read(page.twinUrl.slice(1));
      const match = /^---\n([\s\S]*?)\n---\n\n# (.*)\n/.exec(twin);
      expect(match, page.twinUrl).not.toBeNull();
      expect(parseYaml(match![1]!)).toMatchObject({ title: page.title, description: page.description });
      expect(match![2]).toBe(page.title);
    }
  });

  it('renders MDX components in twins as portable markdown', async () => {
    const twin = await read('overviews/components.md');
    const prose = twin.replace(/```[\s\S]*?```/g, '');
    expect(prose).not.toMatch(/<\/?[A-Za-z]|^import |^export |\{/m);
    expect(twin).toContain('### npm\n\n```bash\nnpm install viem\n```\n\n### pnpm');
    expect(twin).toContain('> **Keep keys secret:** Never commit an **API key**. Read [rate limits](https://fixture.example/support/faucet-errors).');
    expect(twin).toMatch(/```bash title="curl"\n[\s\S]*?```\n\n```ts title="viem"\n/);
    expect(await read('blog/hello-agents.md')).toContain('[support](https://fixture.example/support/faucet-errors)');
  });

  it('lists every page in the llms.txt family, and every llms link resolves to a built file', async () => {
    const llmsFiles: string[] = [];
    for (const locale of locales) {
      const prefix = locale === 'en' ? '' : `${locale}/`;
      if (existsSync(join(dist, `${prefix}llms.txt`))) llmsFiles.push(`${prefix}llms.txt`);
      for (const section of sections) if (existsSync(join(dist, `${prefix}${section}/llms.txt`))) llmsFiles.push(`${prefix}${section}/llms.txt`);
    }
    for (const locale of locales) expect(llmsFiles, locale).toContain(locale === 'en' ? 'llms.txt' : `${locale}/llms.txt`);
    const all = (await Promise.all(llmsFiles.map(read))).join('\n');
    for (const page of site.pages) expect(all).toContain(`](${siteUrl}${page.twinUrl}): ${page.description}`);
    const links = [...all.matchAll(/\]\((https:\/\/fixture\.example[^)]*)\)/g)].map((m) => new URL(m[1]!).pathname);
    expect(links.length).toBeGreaterThan(site.pages.length);
    for (const path of links) expect(existsSync(join(dist, fileForUrl(path))), path).toBe(true);
    expect(await read('llms.txt')).toMatch(/^# Crucible\n\n> /);
  });

  it('concatenates every page body into llms-full.txt, each after its title, URL and description', async () => {
    for (const locale of locales) {
      const full = await read(locale === 'en' ? 'llms-full.txt' : `${locale}/llms-full.txt`);
      for (const page of site.pages.filter((p) => p.locale === locale)) {
        // The twin carries title, url and description in its frontmatter, then the body.
        expect(full).toContain(await read(page.twinUrl.slice(1)));
      }
    }
  });

  it('writes a sitemap index whose sitemaps list every HTML page once, with hreflang and x-default', async () => {
    const parser = new XMLParser({ ignoreAttributes: false, isArray: (name) => ['sitemap', 'url', 'xhtml:link'].includes(name) });
    const indexXml = await read('sitemap.xml');
    expect(XMLValidator.validate(indexXml)).toBe(true);
    const index = parser.parse(indexXml);
    const locs: string[] = [];
    const alternates = new Map<string, Array<{ '@_hreflang': string; '@_href': string }>>();
    for (const entry of index.sitemapindex.sitemap) {
      const xml = await read(new URL(entry.loc).pathname.slice(1));
      expect(XMLValidator.validate(xml)).toBe(true);
      for (const url of parser.parse(xml).urlset.url) {
        locs.push(url.loc);
        alternates.set(url.loc, url['xhtml:link'] ?? []);
      }
    }
    const expected = new Set<string>([`${siteUrl}${translationStatusUrl}`]);
    for (const page of site.pages) expected.add(`${siteUrl}${page.url}`);
    for (const locale of locales) {
      for (const section of sections) if (site.pagesIn(locale, section).length) expected.add(`${siteUrl}${sectionUrl(locale, section)}`);
      expected.add(`${siteUrl}${faucetsUrl(locale)}`);
      expected.add(`${siteUrl}${nftGalleryUrl(locale)}`);
      // The dashboard's public pages; the signed-in ones are noindex shells.
      for (const page of dashboardPages) if (!signedInDashboardPages.includes(page)) expected.add(`${siteUrl}${dashboardUrl(locale, page)}`);
      for (const network of site.networks) expected.add(`${siteUrl}${faucetsUrl(locale, network.id)}`);
    }
    expect(locs.length).toBe(new Set(locs).size);
    expect(new Set(locs)).toEqual(expected);
    expect(locs.some((loc) => loc.endsWith('.md'))).toBe(false);
    const langs = alternates.get(`${siteUrl}/blog/hello-agents`)!.map((l) => `${l['@_hreflang']} ${l['@_href']}`);
    expect(langs).toEqual([`en ${siteUrl}/blog/hello-agents`, `ja ${siteUrl}/ja/blog/hello-agents`, `x-default ${siteUrl}/blog/hello-agents`]);
  });

  it('writes a search index for each of the seven locales (docs/website.md#search-index)', async () => {
    for (const locale of locales) {
      const groups = JSON.parse(await read(`api/search/${locale}`)) as Array<{ label: string; items: Array<Record<string, unknown>> }>;
      expect(groups.length).toBeGreaterThan(0);
      for (const group of groups) {
        expect(group.items.length).toBeGreaterThan(0);
        for (const item of group.items) {
          expect(typeof item.title).toBe('string');
          if (item.external) expect(item.url).toMatch(/^https:\/\//);
          else expect(item.url).toMatch(/^\//);
        }
      }
      const pageUrls = groups
        .flatMap((g) => g.items)
        .filter((i) => !i.external)
        .map((i) => i.url);
      const expected = searchableSections.flatMap((s) => site.pagesIn(locale, s)).map((p) => p.url);
      expect(pageUrls.sort()).toEqual(expected.sort());
      expect(groups.at(-1)!.items).toContainEqual({
        title: 'Fixture Swap',
        url: 'https://swap.fixture.example',
        description: 'A decentralized exchange used by the test fixture.',
        icon: `${siteUrl}/favicon.svg`,
        external: true,
      });
    }
    expect(existsSync(join(dist, 'api/search/fr'))).toBe(false);
  });

  it('writes the rules manifest: one entry per twin, the 404 bodies', async () => {
    const manifest = JSON.parse(await read(surfaceManifestFile)) as SurfaceManifest;
    expect(manifest.site).toBe(siteUrl);
    expect(Object.keys(manifest.twins).sort()).toEqual(site.pages.map((p) => p.twinUrl).sort());
    for (const [twin, html] of Object.entries(manifest.twins)) expect(site.pages.find((p) => p.twinUrl === twin)?.url).toBe(html);
    expect(await read(manifest.notFound.markdown)).toContain(`${siteUrl}/llms.txt`);
    expect(existsSync(join(dist, manifest.notFound.html))).toBe(true);
  });

  it('renders page bodies into their HTML pages: Markdown with Shiki and heading ids, MDX with its components', async () => {
    const markdown = await read(htmlFileOf(newPage.url));
    expect(markdown).toContain('<p>New <strong>content</strong>.</p>');
    expect(markdown).toContain('<h2 id="try-it">Try it</h2>');
    expect(markdown).toMatch(/<pre class="astro-code[^"]*"[^>]*data-title="try\.ts"/);
    // The table of contents comes from the renderer's headings.
    expect(markdown).toMatch(/<nav aria-labelledby="toc-heading"[\s\S]*<a href="#try-it"[^>]*>Try it<\/a>[\s\S]*<a href="#next"[^>]*>Next<\/a>/);
    const withImage = await read(htmlFileOf('/blog/hello-agents'));
    expect(withImage).toContain('<img src="/favicon.svg" alt="diagram"');
    expect(withImage).toMatch(/<table>[\s\S]*<code>\/llms\.txt<\/code>/);
    const mdx = await read(htmlFileOf('/overviews/components'));
    expect(mdx).toMatch(/<div class="tabs" data-tabs[^>]*><section class="tab" data-tab="npm">/);
    expect(mdx).toMatch(/<pre class="astro-code[^"]*"[^>]*data-title="viem"/);
    expect(mdx).toContain('The chain is sepolia.');
  });

  it('shows a newly added markdown file everywhere after one build', async () => {
    const url = `${siteUrl}${newPage.url}`;
    expect(await read(htmlFileOf(newPage.url))).toContain('An author added this page');
    expect(await read(`${newPage.url.slice(1)}.md`)).toContain('# An author added this page\n\nNew **content**.');
    expect(await read('llms.txt')).toContain(`- [An author added this page](${url}.md): One new markdown file, seen everywhere after one build.`);
    expect(await read('sitemap-0.xml')).toContain(`<loc>${url}</loc>`);
    const en = JSON.parse(await read('api/search/en')) as Array<{ items: Array<{ url: string }> }>;
    expect(en.flatMap((g) => g.items).map((i) => i.url)).toContain(newPage.url);
  });
});

describe('a rebuild after a build of other content', () => {
  it('still renders its MDX pages (Astro keeps one MDX module map per project)', async () => {
    const other = await copyFixtureContent();
    try {
      const otherBuild = await buildSite({ contentDir: other.content, outDir: join(other.dir, 'dist'), cacheDir: join(other.dir, 'cache') });
      expect(otherBuild.code, otherBuild.output).toBe(0);
      const rebuild = await buildSite({ contentDir: join(scratch, 'content'), outDir: dist, cacheDir: join(scratch, 'cache'), siteUrl });
      expect(rebuild.code, rebuild.output).toBe(0);
      expect(await read(htmlFileOf('/overviews/components'))).toMatch(/<div class="tabs" data-tabs[^>]*><section class="tab" data-tab="npm">/);
    } finally {
      await rm(other.dir, { recursive: true, force: true });
    }
  });
});

describe('a content error', () => {
  it('fails the build on a relative image in a Markdown page, naming the file', async () => {
    const fixture = await copyFixtureContent();
    try {
      await writeFile(
        join(fixture.content, 'en/blog/relative-image.md'),
        '---\ntitle: Relative\ndescription: Links an image next to it.\ndate: 2026-06-01\n---\n![chart](./chart.png)\n',
      );
      const result = await buildSite({ contentDir: fixture.content, outDir: join(fixture.dir, 'dist'), cacheDir: join(fixture.dir, 'cache') });
      expect(result.code).not.toBe(0);
      expect(result.output).toMatch(/en\/blog\/relative-image\.md: relative image paths \(\.\/chart\.png\) are not supported/);
    } finally {
      await rm(fixture.dir, { recursive: true, force: true });
    }
  });

  it('fails the build naming the file, the field and the reason', async () => {
    const fixture = await copyFixtureContent();
    try {
      await writeFile(join(fixture.content, 'en/blog/broken.md'), '---\ntitle: Broken\ndescription: Has a bad date.\ndate: someday\n---\nBody.\n');
      const result = await buildSite({ contentDir: fixture.content, outDir: join(fixture.dir, 'dist'), cacheDir: join(fixture.dir, 'cache') });
      expect(result.code).not.toBe(0);
      expect(result.output).toMatch(/en\/blog\/broken\.md: field "date": must be a date written as YYYY-MM-DD/);
      expect(await readdir(fixture.dir)).not.toContain('dist');
    } finally {
      await rm(fixture.dir, { recursive: true, force: true });
    }
  });
});
