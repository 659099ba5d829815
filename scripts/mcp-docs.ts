// `npm run docs:mcp`: writes the guide to the MCP server in every locale
// (content/<locale>/overviews/mcp-server.md): an agent's configuration over stdio and over HTTP, and
// every tool, listed from the same registries the server makes its tools from (docs/mcp.md#tools).
// The files are committed content; a test renders them again and fails when they differ.
import { resolve } from 'node:path';
import { loadFaucetNetworks, speaksEvmRpc } from '../src/chain/networks.ts';
import { DEFAULT_ANSWER_BUDGET_CHARS } from '../src/config/mcp.ts';
import { mcpTools } from '../src/mcp/catalog.ts';
import type { McpTool } from '../src/mcp/tool.ts';
import { rpcCategories } from '../src/node/rpc/method.ts';
import { rpcRegistry } from '../src/node/rpc/registry.ts';
import { restProducts } from '../src/runtime/rest-products.ts';
import { faucetToolOperations } from '../src/runtime/site-api.ts';
import { type Locale, localeLang, locales } from '../src/site/locales.ts';
import { formatUi, ui } from '../src/site/ui.ts';
import { mcpGuideSlug } from '../src/site/urls.ts';
import { code, codeBlock, generatedPage, markdownTable, markdownText, writeGeneratedFiles } from './generated-markdown.ts';

/** A locale's page, relative to its content folder. */
export function mcpGuidePath(locale: Locale): string {
  return `${locale}/overviews/${mcpGuideSlug}.md`;
}

/** Where the guide's examples find a Crucible: the one `npm start` serves by default. */
const LOCAL_ORIGIN = 'http://127.0.0.1:4321';

/** Every tool the server makes, from the registries and the network table under `root`. */
export async function mcpGuideTools(root: string): Promise<McpTool[]> {
  const networks = await loadFaucetNetworks(root);
  return mcpTools({
    rpcMethods: rpcRegistry.methods,
    restProducts: Object.values(restProducts),
    siteOperations: faucetToolOperations(networks),
    networks: networks.filter(speaksEvmRpc).map((network) => network.id),
    locales,
  });
}

/** The tools in groups, each with its heading: the site's, the JSON-RPC reads by category, each REST product's, the faucet's. */
function toolGroups(tools: readonly McpTool[], locale: Locale): Array<{ heading: string; tools: McpTool[] }> {
  const strings = ui[locale].mcpDocs;
  const of = (kind: McpTool['source']['kind']) => tools.filter((tool) => tool.source.kind === kind);
  const rpc = of('rpc');
  const rest = of('rest');
  const tagOf = (tool: McpTool) => (tool.source.kind === 'rest' ? (tool.source.operation.tags[0] ?? tool.source.product.name) : '');
  return [
    { heading: strings.siteGroup, tools: of('site') },
    ...rpcCategories.map((category) => ({
      heading: formatUi(strings.jsonRpcGroup, { category: ui[locale].rpcDocs.categories[category] }),
      tools: rpc.filter((tool) => tool.source.kind === 'rpc' && tool.source.method.category === category),
    })),
    ...[...new Set(rest.map(tagOf))].map((tag) => ({
      heading: formatUi(strings.restGroup, { product: tag }),
      tools: rest.filter((tool) => tagOf(tool) === tag),
    })),
    { heading: strings.faucetGroup, tools: of('site-operation') },
  ].filter((group) => group.tools.length > 0);
}

/** The page of `locale`. */
export function renderMcpGuide(locale: Locale, tools: readonly McpTool[]): string {
  const strings = ui[locale].mcpDocs;
  const number = (value: number) => new Intl.NumberFormat(localeLang[locale]).format(value);
  const desktop = { mcpServers: { crucible: { command: 'npm', args: ['--prefix', '/path/to/crucible', 'run', '-s', 'mcp'], env: { MCP_KEY: 'demo' } } } };
  const http = { mcpServers: { crucible: { type: 'http', url: `${LOCAL_ORIGIN}/mcp`, headers: { Authorization: 'Bearer demo' } } } };
  const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'eth_blockNumber', arguments: { network: 'ethereum-sepolia' } } };
  const tables = toolGroups(tools, locale).flatMap((group) => [
    `### ${group.heading}`,
    markdownTable(
      [strings.toolColumn, 'CU', strings.summaryColumn],
      ['-', '-:', '-'],
      group.tools.map((tool) => [code(tool.name), number(tool.computeUnits), markdownText(tool.summary)]),
    ),
    ...(group.heading === strings.faucetGroup ? [strings.faucetNote] : []),
  ]);
  return generatedPage({ title: strings.title, description: strings.description, order: 12 }, [
    strings.intro,
    `## ${strings.stdioHeading}`,
    formatUi(strings.stdio, { command: code('npm run -s mcp'), file: code('claude_desktop_config.json') }),
    codeBlock('json', JSON.stringify(desktop, null, 2).split('\n')),
    formatUi(strings.stdioAfter, { start: code('npm start'), key: code('MCP_KEY'), env: code('env'), url: code('MCP_SERVER_URL') }),
    `## ${strings.httpHeading}`,
    formatUi(strings.http, { url: code(`${LOCAL_ORIGIN}/mcp`), header: code('Authorization: Bearer <key>') }),
    codeBlock('json', JSON.stringify(http, null, 2).split('\n')),
    strings.httpAfter,
    codeBlock('bash', [
      `curl -s ${LOCAL_ORIGIN}/mcp -H 'authorization: Bearer demo' -H 'content-type: application/json' \\`,
      `  -H 'accept: application/json, text/event-stream' -d '${JSON.stringify(call)}'`,
    ]),
    `## ${strings.answersHeading}`,
    formatUi(strings.answers, {
      budget: number(DEFAULT_ANSWER_BUDGET_CHARS),
      setting: code('MCP_ANSWER_BUDGET_CHARS'),
      truncated: code('truncated'),
      slice: code('slice'),
      cursor: code('cursor'),
    }),
    strings.answersShape,
    `## ${strings.toolsHeading}`,
    formatUi(strings.toolsIntro, { network: code('network'), list: code('list_networks') }),
    ...tables,
  ]);
}

/** Writes every locale's page under `root`'s content/; returns the files written, relative to `root`. */
export async function writeMcpGuides(root: string): Promise<string[]> {
  const tools = await mcpGuideTools(root);
  return writeGeneratedFiles(
    root,
    locales.map((locale) => ({ path: `content/${mcpGuidePath(locale)}`, text: renderMcpGuide(locale, tools) })),
  );
}

if (import.meta.main) {
  const written = await writeMcpGuides(resolve(import.meta.dirname, '..'));
  console.log(`Wrote the MCP server's guide from the registries:\n${written.map((file) => `  ${file}`).join('\n')}`);
}
