import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mcpGuidePath, mcpGuideTools, renderMcpGuide } from '../../../scripts/mcp-docs.ts';
import { restProducts } from '../../../src/runtime/rest-products.ts';
import { rpcRegistry } from '../../../src/node/rpc/registry.ts';
import { splitFrontmatter } from '../../../src/site/read-content.ts';
import { locales } from '../../../src/site/locales.ts';
import { renderPageBody } from '../../../src/site/markdown.ts';
import { pageFrontmatter } from '../../../src/site/schema.ts';
import { projectRoot } from '../../support/build.ts';

// The MCP server's guide lists every tool from the registries the server makes them from
// (docs/mcp.md#tools), and is committed as content in every locale.

const tools = await mcpGuideTools(projectRoot);
const english = renderMcpGuide('en', tools);
const rows = (page: string) => page.split('\n').filter((line) => /^\| `[^`]+` \| [\d.,\s]+ \| /.test(line));

describe('renderMcpGuide', () => {
  it('writes valid frontmatter in the locale’s words, among the guides', () => {
    expect(pageFrontmatter.parse(splitFrontmatter(english).data)).toMatchObject({ title: 'Connecting agents over MCP', order: 12 });
    expect(pageFrontmatter.parse(splitFrontmatter(renderMcpGuide('ja', tools)).data)).toMatchObject({ title: 'MCP でエージェントを接続する' });
  });

  it('lists every read method of the registry and every REST operation as a tool, once, and no write', () => {
    const listed = rows(english).map((row) => /^\| `([^`]+)`/.exec(row)![1]);
    expect(listed.length).toBe(new Set(listed).size);
    const reads = rpcRegistry.methods.filter((method) => method.idempotent && method.transport === 'any' && !method.filterAffinity);
    for (const method of reads) expect(listed).toContain(method.name.replace('.', '_'));
    for (const product of Object.values(restProducts)) for (const operation of product.operations) expect(listed).toContain(operation.operationId);
    for (const name of ['search_docs', 'read_page', 'list_networks', 'sendFaucetDrip']) expect(listed).toContain(name);
    for (const name of ['eth_sendRawTransaction', 'eth_subscribe', 'eth_newFilter']) expect(listed).not.toContain(name);
    expect(english).toContain('| `eth_getBalance` | 19 | Returns the balance of an account in wei. |');
    expect(english).toContain('### JSON-RPC: Tracing');
    expect(renderMcpGuide('es', tools)).toContain('### JSON-RPC: Trazas');
  });

  it('shows the stdio and HTTP configurations, and renders as a page', async () => {
    expect(english).toContain('"args": [\n        "--prefix",\n        "/path/to/crucible",\n        "run",\n        "-s",\n        "mcp"\n      ]');
    expect(english).toContain('"url": "http://127.0.0.1:4321/mcp"');
    const body = await renderPageBody(join(projectRoot, 'content', mcpGuidePath('en')));
    expect(body.html).toContain('<table>');
    expect(body.headings.map((heading) => heading.slug)).toContain('tools');
  });
});

describe('the committed guides', () => {
  it('are what the registries render, in every locale', async () => {
    for (const locale of locales) {
      const file = join('content', mcpGuidePath(locale));
      const committed = await readFile(join(projectRoot, file), 'utf8').catch(() => '');
      expect(committed, `${file} differs from the registries: run npm run docs:mcp`).toBe(renderMcpGuide(locale, tools));
    }
  });
});
