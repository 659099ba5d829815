// `npm run docs:rpc`: writes the JSON-RPC method reference of every locale (content/<locale>/rpc/methods.md)
// from the method registry (src/node/rpc/) and the locale's UI strings (docs/json-rpc.md#method-registry: the RPC docs come
// from the registry). The files are committed content, so each gets its HTML page, twin, llms.txt
// line and sitemap entry like any page; a test renders them again and fails when they differ.
import { join, resolve } from 'node:path';
import { rpcMethodReference, type RpcReference } from '../src/node/rpc/reference.ts';
import { type Locale, locales } from '../src/site/locales.ts';
import { rpcMethodAnchor } from '../src/site/networks.ts';
import { formatUi, ui, type UiStrings } from '../src/site/ui.ts';
import { rpcReferenceSlug } from '../src/site/urls.ts';
import { code, generatedPage, markdownTable, markdownText, writeGeneratedFiles } from './generated-markdown.ts';

type MethodReference = RpcReference['categories'][number]['methods'][number];
type Strings = UiStrings['rpcDocs'];

/** Where the references are written: every locale of the site, and English for the fixture site's RPC page to link to. */
export const rpcReferenceTargets: ReadonlyArray<{ contentDir: string; locales: readonly Locale[] }> = [
  { contentDir: 'content', locales },
  { contentDir: 'test/fixtures/site/content', locales: ['en'] },
];

/** A locale's reference, relative to its content folder. */
export function rpcReferencePath(locale: Locale): string {
  return `${locale}/rpc/${rpcReferenceSlug}.md`;
}

/** The `{node_url}/v2/<API_KEY>` pattern the intro names; each RPC page shows the network's own. */
const endpointPattern = code('{node_url}/v2/<API_KEY>');

function paramsTable(method: MethodReference, strings: Strings): string {
  if (!method.params.length) return strings.noParams;
  const rows = method.params.map((param) => {
    const optional = param.required
      ? ''
      : ` (${param.default === undefined ? strings.optional : formatUi(strings.optionalDefault, { value: code(JSON.stringify(param.default)) })})`;
    return [`${code(param.name)}${optional}`, markdownText(param.type), markdownText(param.description)];
  });
  return markdownTable([strings.parameter, strings.type, strings.summary], ['-', '-', '-'], rows);
}

function methodFacts(method: MethodReference, strings: Strings): string {
  const cost = [
    formatUi(strings.cost, { cu: method.computeUnits }),
    ...(method.notificationComputeUnits === undefined ? [] : [formatUi(strings.notificationCost, { cu: method.notificationComputeUnits })]),
  ].join(', ');
  const items = [
    `**${strings.result}**: ${code(method.result.name)} (${markdownText(method.result.type)}): ${markdownText(method.result.description)}`,
    `**${strings.computeUnits}**: ${cost}`,
    `**${strings.cache}**: ${strings.cachePolicies[method.cache]}`,
    `**${strings.transport}**: ${strings.transports[method.transport]}`,
    ...(method.aliases.length ? [`**${strings.aliases}**: ${method.aliases.map(code).join(', ')}`] : []),
    ...(method.answeredLocally ? [strings.answeredLocally] : []),
  ];
  return items.map((item) => `- ${item}`).join('\n');
}

function methodSection(method: MethodReference, strings: Strings): string {
  return [
    `### ${markdownText(method.name)}`,
    markdownText(method.summary),
    markdownText(method.description),
    paramsTable(method, strings),
    methodFacts(method, strings),
  ].join('\n\n');
}

function categorySection(category: RpcReference['categories'][number], strings: Strings): string {
  const index = markdownTable(
    [strings.method, 'CU', strings.summary],
    ['-', '-:', '-'],
    category.methods.map((method) => [`[${code(method.name)}](#${rpcMethodAnchor(method.name)})`, String(method.computeUnits), markdownText(method.summary)]),
  );
  return [`## ${strings.categories[category.name]}`, index, ...category.methods.map((method) => methodSection(method, strings))].join('\n\n');
}

function blockedSection(reference: RpcReference, strings: Strings): string {
  const rows = reference.blocked.map((family) => [code(family.match === 'prefix' ? `${family.pattern}*` : family.pattern), markdownText(family.reason)]);
  return [`## ${strings.blockedHeading}`, strings.blockedIntro, markdownTable([strings.blockedMethods, strings.blockedReason], ['-', '-'], rows)].join('\n\n');
}

function limitsSection(reference: RpcReference, strings: Strings): string {
  const { limits } = reference;
  const items = [
    formatUi(strings.limitBody, { size: `${+(limits.maxBodyBytes / 2 ** 20).toFixed(2)} MiB` }),
    formatUi(strings.limitBatch, { count: limits.maxBatch }),
    formatUi(strings.limitLogsRange, { count: limits.maxLogsBlockRange }),
    formatUi(strings.limitTraceRange, { count: limits.maxTraceFilterBlockRange }),
    formatUi(strings.limitLogsFilter, { addresses: limits.maxLogsFilterAddresses, topics: limits.maxLogsFilterTopics }),
    formatUi(strings.limitSubscriptions, { count: limits.maxSubscriptionsPerConnection }),
  ];
  return [`## ${strings.limitsHeading}`, items.map((item) => `- ${markdownText(item)}`).join('\n')].join('\n\n');
}

/** The reference page of `locale`: frontmatter, intro, each category's methods, the refused families and the limits. */
export function renderRpcReference(locale: Locale, reference: RpcReference = rpcMethodReference()): string {
  const strings = ui[locale].rpcDocs;
  // First in the RPC section: the page about every network.
  return generatedPage({ title: strings.title, description: strings.description, order: 0 }, [
    formatUi(strings.intro, { endpoint: endpointPattern }),
    formatUi(strings.openRpc, { url: code('{node_url}/openrpc.json') }),
    ...reference.categories.map((category) => categorySection(category, strings)),
    blockedSection(reference, strings),
    limitsSection(reference, strings),
  ]);
}

/** Writes every target's references under `root`; returns the files written, relative to it. */
export function writeRpcReferences(root: string): Promise<string[]> {
  const files = rpcReferenceTargets.flatMap((target) =>
    target.locales.map((locale) => ({ path: join(target.contentDir, rpcReferencePath(locale)), text: renderRpcReference(locale) })),
  );
  return writeGeneratedFiles(root, files);
}

if (import.meta.main) {
  const written = await writeRpcReferences(resolve(import.meta.dirname, '..'));
  console.log(`Wrote the JSON-RPC method reference from the registry:\n${written.map((file) => `  ${file}`).join('\n')}`);
}
