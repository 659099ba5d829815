import { stringify as stringifyYaml } from 'yaml';
import { buildConfig } from '../../src/config/config.ts';
import { networkFacts, rpcMethodListing } from '../../src/site/networks.ts';
import type { PageRecord } from '../../src/site/records.ts';
import type { Site } from '../../src/site/site.ts';
import { formatUi, ui } from '../../src/site/ui.ts';
import { absoluteUrl, faucetsUrl, rpcReferenceUrl } from '../../src/site/urls.ts';
import { toPortableMarkdown } from './portable-markdown.ts';

/** The `.md` twin of a page (spec 2.7): YAML frontmatter, `# title`, then the portable body. */
export function renderTwin(page: PageRecord, site: Site, siteUrl: string, nodeDomain: string | null = buildNodeDomain()): string {
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
  const network = page.network ? site.network(page.network) : undefined;
  const facts = network ? `${networkFactsTable(page, network, siteUrl, nodeDomain)}\n${rpcMethodsTable(page, siteUrl)}\n` : '';
  return `---\n${stringifyYaml(frontmatter, { lineWidth: 0 })}---\n\n# ${page.title}\n\n${facts}${body}`;
}

// NODE_DOMAIN as the build has it (platform §1), read once per thread: twins are rendered in worker threads too.
let configuredNodeDomain: { value: string | null } | undefined;
function buildNodeDomain(): string | null {
  configuredNodeDomain ??= { value: buildConfig().nodeDomain };
  return configuredNodeDomain.value;
}

function networkFactsTable(page: PageRecord, network: NonNullable<ReturnType<Site['network']>>, siteUrl: string, nodeDomain: string | null): string {
  const labels = ui[page.locale].networkFacts;
  const rows = networkFacts(network, faucetsUrl(page.locale, network.id), { siteOrigin: siteUrl, nodeDomain }).map(({ key, value, href }) => {
    const text = key === 'faucet' && value ? absoluteUrl(siteUrl, value) : value;
    const cell = text === null ? labels.none : href ? `[${escapeCell(text)}](${absoluteUrl(siteUrl, href)})` : `\`${text}\``;
    return `| ${labels[key]} | ${cell} |`;
  });
  const deprecated = network.deprecated ? `\n> **${labels.deprecated}**\n` : '';
  return `## ${labels.heading}\n\n| | |\n| - | - |\n${rows.join('\n')}\n${deprecated}`;
}

/** The methods every network serves, each linked to its entry in the locale's method reference (platform §3). */
function rpcMethodsTable(page: PageRecord, siteUrl: string): string {
  const strings = ui[page.locale].rpcDocs;
  const reference = absoluteUrl(siteUrl, rpcReferenceUrl(page.locale));
  const rows = rpcMethodListing().map(({ category, methods }) => {
    const listed = methods.map((method) => `[\`${method.name}\`](${reference}#${method.anchor}) ${formatUi(strings.cost, { cu: method.computeUnits })}`);
    return `| ${strings.categories[category]} | ${listed.join(', ')} |`;
  });
  const intro = formatUi(strings.networkIntro, { reference: `[${strings.title}](${reference})` });
  return `## ${strings.networkHeading}\n\n${intro}\n\n| ${strings.category} | ${strings.method} |\n| - | - |\n${rows.join('\n')}\n`;
}

function escapeCell(value: string): string {
  return value.replace(/\|/g, '\\|');
}

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}
