import { stringify as stringifyYaml } from 'yaml';
import type { PageRecord } from '../../src/site/records.ts';
import { absoluteUrl } from '../../src/site/urls.ts';
import { toPortableMarkdown } from './portable-markdown.ts';

/**
 * What RPC pages' twins show before their body, by `<locale>/<network id>` (twin-rpc-sections.ts): made once on the
 * build's main thread, so the threads that render twins load neither the UI strings nor the method registry.
 */
export type RpcTwinSections = Record<string, string>;

/** The `.md` twin of a page (docs/website.md#markdown-twins): YAML frontmatter, `# title`, then the portable body. */
export function renderTwin(page: PageRecord, siteUrl: string, rpcSections: RpcTwinSections): string {
  const frontmatter: Record<string, unknown> = {
    title: page.title,
    description: page.description,
    url: absoluteUrl(siteUrl, page.url),
    locale: page.locale,
  };
  if (page.section) frontmatter.section = page.section;
  if (page.date) frontmatter.date = isoDate(page.date);
  if (page.updated) frontmatter.updated = isoDate(page.updated);
  if (page.network) frontmatter.network = page.network;
  const body = toPortableMarkdown(page.body, { format: page.format, baseUrl: absoluteUrl(siteUrl, page.url) });
  const facts = page.network ? (rpcSections[`${page.locale}/${page.network}`] ?? '') : '';
  return `---\n${stringifyYaml(frontmatter, { lineWidth: 0 })}---\n\n# ${page.title}\n\n${facts}${body}`;
}

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}
