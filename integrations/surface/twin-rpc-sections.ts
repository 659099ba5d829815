import { locales } from '../../src/site/locales.ts';
import { networkFacts, rpcMethodListing } from '../../src/site/networks.ts';
import type { NetworkRecord } from '../../src/site/records.ts';
import type { Site } from '../../src/site/site.ts';
import { formatUi, ui } from '../../src/site/ui.ts';
import { absoluteUrl, faucetsUrl, rpcReferenceUrl } from '../../src/site/urls.ts';
import type { RpcTwinSections } from './twin.ts';

// What an RPC page's twin shows before its body, besides the page itself: its network's facts
// (docs/hosts-and-paths.md#node-url: the endpoint on the configured node host) and the methods every network serves,
// linked to the locale's method reference (docs/json-rpc.md#method-registry). Made once per locale and network here,
// on the build's main thread, from the UI strings and the method registry, which twin worker
// threads then need not load.

/** The section of every network's RPC page in every locale. */
export function rpcTwinSections(site: Pick<Site, 'networks'>, siteUrl: string, nodeDomain: string | null): RpcTwinSections {
  const sections: RpcTwinSections = {};
  for (const locale of locales) {
    const methods = rpcMethodsTable(locale, siteUrl);
    for (const network of site.networks) sections[`${locale}/${network.id}`] = `${networkFactsTable(locale, network, siteUrl, nodeDomain)}\n${methods}\n`;
  }
  return sections;
}

function networkFactsTable(locale: (typeof locales)[number], network: NetworkRecord, siteUrl: string, nodeDomain: string | null): string {
  const labels = ui[locale].networkFacts;
  const rows = networkFacts(network, faucetsUrl(locale, network.id), { siteOrigin: siteUrl, nodeDomain }).map(({ key, value, href }) => {
    const text = key === 'faucet' && value ? absoluteUrl(siteUrl, value) : value;
    const cell = text === null ? labels.none : href ? `[${escapeCell(text)}](${absoluteUrl(siteUrl, href)})` : `\`${text}\``;
    return `| ${labels[key]} | ${cell} |`;
  });
  const deprecated = network.deprecated ? `\n> **${labels.deprecated}**\n` : '';
  return `## ${labels.heading}\n\n| | |\n| - | - |\n${rows.join('\n')}\n${deprecated}`;
}

/** The methods every network serves, each linked to its entry in the locale's method reference (docs/json-rpc.md#method-registry). */
function rpcMethodsTable(locale: (typeof locales)[number], siteUrl: string): string {
  const strings = ui[locale].rpcDocs;
  const reference = absoluteUrl(siteUrl, rpcReferenceUrl(locale));
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
