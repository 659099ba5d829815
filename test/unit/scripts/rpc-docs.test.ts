import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderRpcReference, rpcReferencePath, rpcReferenceTargets } from '../../../scripts/rpc-docs.ts';
import { createRpcRegistry, rpcRegistry } from '../../../src/node/rpc/registry.ts';
import { rpcMethodReference } from '../../../src/node/rpc/reference.ts';
import { splitFrontmatter } from '../../../src/site/read-content.ts';
import { locales } from '../../../src/site/locales.ts';
import { renderPageBody } from '../../../src/site/markdown.ts';
import { rpcMethodListing } from '../../../src/site/networks.ts';
import { pageFrontmatter } from '../../../src/site/schema.ts';
import { projectRoot } from '../../support/build.ts';

// The method reference is generated from the registry (docs/json-rpc.md#method-registry) and committed as content.

const english = renderRpcReference('en');

describe('renderRpcReference', () => {
  it('writes valid frontmatter in the locale’s words, first in the RPC section', () => {
    expect(pageFrontmatter.parse(splitFrontmatter(english).data)).toMatchObject({ title: 'JSON-RPC method reference', order: 0 });
    expect(pageFrontmatter.parse(splitFrontmatter(renderRpcReference('ja')).data)).toMatchObject({ title: 'JSON-RPC メソッドリファレンス' });
  });

  it('gives every registry method a heading, its compute units, params and result', () => {
    for (const method of rpcRegistry.methods) {
      expect(english).toContain(`\n### ${method.name}\n`);
      expect(english).toContain(`**Compute units**: ${method.computeUnits.toLocaleString('en-US')} CU`);
    }
    expect(english).toContain('| `blockTag` (optional, default `"latest"`) | block tag, number, hash or EIP-1898 object |');
    expect(english).toContain('- **Result**: `balance` (hex quantity): ');
    expect(english).toContain('- **Compute units**: 10 CU, 10 CU per notification');
    expect(english).toContain('- **Transport**: WebSocket only');
    expect(english).toContain('- **Cache**: kept once the block is final');
  });

  it('lists each category’s methods linked to their entries, and the refused families with their reasons', () => {
    expect(english).toContain(
      '## Logs and filters\n\n| Method | CU | Description |\n| - | -: | - |\n| [`eth_getLogs`](#eth_getlogs) | 75 | Returns the logs that match a filter. |',
    );
    expect(english).toContain('| `eth_sendTransaction` | signs with a key held by the node |');
    expect(english).toContain('| `debug_*` | debugs inside the node, but for the read-only traces listed under Tracing |');
  });

  it('states the limits: batch 100, body 2 MiB, log filters and trace_filter 10,000 blocks, 1,000 addresses and topics, 100 subscriptions per WebSocket', () => {
    expect(english).toContain('- A request body holds at most 2 MiB.\n- A batch holds at most 100 requests.\n');
    expect(english).toContain(
      '- One eth_getLogs call or eth_newFilter filter spans at most 10,000 blocks, block tags counted from the chain’s head; split longer ranges.\n' +
        '- One trace_filter call names its fromBlock and spans at most 10,000 blocks, block tags counted from the chain’s head; split longer ranges.\n' +
        '- A log filter names at most 1,000 addresses, and each of its topic positions lists at most 1,000 topics.\n',
    );
    expect(english).toContain('- One WebSocket connection holds at most 100 subscriptions.\n');
    expect(renderRpcReference('es')).toContain('como máximo 10.000 bloques');
  });

  it('names the endpoint pattern, not a host', () => {
    expect(english).toContain('`{node_url}/v2/<API_KEY>`');
    expect(english).not.toMatch(/https?:\/\//);
  });

  it('follows the registry it is given', () => {
    const only = rpcRegistry.methods.filter((method) => method.name === 'eth_chainId');
    const page = renderRpcReference('en', rpcMethodReference(createRpcRegistry(only)));
    expect(page).toContain('### eth_chainId');
    expect(page).not.toContain('eth_getLogs`');
  });

  it('puts each method’s heading at the anchor RPC pages link to', async () => {
    const { headings } = await renderPageBody(join(projectRoot, 'content', rpcReferencePath('en')));
    const ids = new Set(headings.map((heading) => heading.slug));
    for (const { methods } of rpcMethodListing()) for (const method of methods) expect(ids, method.name).toContain(method.anchor);
  });
});

describe('the committed references', () => {
  it('are what npm run docs:rpc writes from the registry now, in every locale', async () => {
    expect(rpcReferenceTargets[0]?.locales).toEqual(locales);
    for (const target of rpcReferenceTargets) {
      for (const locale of target.locales) {
        const file = join(target.contentDir, rpcReferencePath(locale));
        const committed = await readFile(join(projectRoot, file), 'utf8').catch(() => '');
        expect(committed, `${file} differs from the registry: run npm run docs:rpc`).toBe(renderRpcReference(locale));
      }
    }
  });
});
