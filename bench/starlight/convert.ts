import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify as stringifyYaml } from 'yaml';
import { defaultLocale, isLocale, type Locale } from '../../src/site/locales.ts';
import { networkFacts } from '../../src/site/networks.ts';
import type { PageRecord } from '../../src/site/records.ts';
import { sections } from '../../src/site/sections.ts';
import type { Site } from '../../src/site/site.ts';
import { ui } from '../../src/site/ui.ts';
import { faucetsUrl } from '../../src/site/urls.ts';
import { boundedWriter } from '../corpus/writer.ts';

// The benchmark corpus in Starlight's docs layout (src/content/docs/): English at the root,
// other locales in lower-case folders (Starlight slugs are lower case), MDX components mapped
// to Starlight's <Aside>, <Tabs>, <TabItem>; <CodeGroup> becomes its titled fenced blocks,
// which Expressive Code renders as titled frames. Section indexes list their pages as
// Crucible's do, and stay out of Pagefind as Crucible's stay out of its search index.

/** Starlight locale key (URL folder) of a Crucible locale; English is Starlight's `root`. */
export function starlightDir(locale: Locale): string {
  return locale === defaultLocale ? '' : locale.toLowerCase();
}

function starlightPath(locale: Locale, rest: string): string {
  const dir = starlightDir(locale);
  return dir ? `${dir}/${rest}` : rest;
}

/** `/ja/blog/x` -> `/ja/blog/x/`, `/pt-BR/…` -> `/pt-br/…`; files such as /favicon.svg stay. */
function starlightUrl(url: string): string {
  const [path, hash = ''] = url.split('#') as [string, string?];
  const segments = path.split('/');
  if (segments[1] && isLocale(segments[1])) segments[1] = segments[1].toLowerCase();
  let out = segments.join('/');
  if (!out.endsWith('/') && !/\.[a-z0-9]+$/i.test(out)) out += '/';
  return hash ? `${out}#${hash}` : out;
}

const calloutType: Record<string, string> = { note: 'note', tip: 'tip', warning: 'caution', danger: 'danger' };
const componentImport = "import { Aside, Tabs, TabItem } from '@astrojs/starlight/components';";

function starlightBody(page: PageRecord): string {
  let body = page.body.replace(/\]\((\/[^)\s]*)\)/g, (_, url: string) => `](${starlightUrl(url)})`);
  if (page.format === 'mdx') {
    body = body
      .replace(/<Callout type="(\w+)"/g, (_, type: string) => `<Aside type="${calloutType[type] ?? 'note'}"`)
      .replace(/<\/Callout>/g, '</Aside>')
      .replace(/<Tab label=/g, '<TabItem label=')
      .replace(/<\/Tab>/g, '</TabItem>')
      .replace(/<\/?CodeGroup>\n/g, '');
    body = `${componentImport}\n\n${body}`;
  }
  return body;
}

/** The node URL Crucible's pages show in the benchmark (bench/build.ts builds for https://bench.example, no NODE_DOMAIN). */
const benchNodeUrl = { siteOrigin: 'https://bench.example', nodeDomain: null };

function rpcFacts(page: PageRecord, site: Site): string {
  const network = page.network ? site.network(page.network) : undefined;
  if (!network) return '';
  const labels = ui[page.locale].networkFacts;
  const rows = networkFacts(network, faucetsUrl(page.locale, network.id), benchNodeUrl).map(
    ({ key, value }) => `| ${labels[key]} | ${value === null ? labels.none : `\`${value}\``} |`,
  );
  return `## ${labels.heading}\n\n| | |\n| - | - |\n${rows.join('\n')}\n\n`;
}

function document(frontmatter: Record<string, unknown>, body: string): string {
  return `---\n${stringifyYaml(frontmatter, { lineWidth: 0 })}---\n${body}`;
}

/** Writes every page of `site` into `<projectDir>/src/content/docs/`, replacing what was there. */
export async function writeStarlightDocs(site: Site, projectDir: string): Promise<{ pages: number }> {
  const docsDir = join(projectDir, 'src/content/docs');
  await rm(docsDir, { recursive: true, force: true });
  const writer = boundedWriter();
  const write = (relativePath: string, text: string) => writer.write(join(docsDir, relativePath), text);
  let pages = 0;
  for (const page of site.pages) {
    const frontmatter = { title: page.title, description: page.description };
    if (page.section === null) {
      await write(starlightPath(page.locale, 'index.md'), document(frontmatter, starlightBody(page)));
    } else {
      const body = page.section === 'rpc' ? `${rpcFacts(page, site)}${starlightBody(page)}` : starlightBody(page);
      await write(starlightPath(page.locale, `${page.section}/${page.slug}.${page.format}`), document(frontmatter, body));
    }
    pages += 1;
  }
  const pageLocales = [...new Set(site.pages.map((p) => p.locale))];
  for (const locale of pageLocales) {
    for (const section of sections) {
      const list = site.pagesIn(locale, section);
      if (list.length === 0) continue;
      const items = list.map((p) => `- [${p.title}](${starlightUrl(p.url)}): ${p.description}`).join('\n');
      const frontmatter = { title: ui[locale].sections[section], description: `${ui[locale].sections[section]} · Crucible`, pagefind: false };
      await write(starlightPath(locale, `${section}/index.md`), document(frontmatter, `${items}\n`));
      pages += 1;
    }
  }
  await writer.done();
  return { pages };
}
