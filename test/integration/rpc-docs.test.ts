import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { glob } from 'tinyglobby';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpcRegistry } from '../../src/node/rpc/registry.ts';
import { rpcMethodListing } from '../../src/site/networks.ts';
import { buildSite, projectRoot } from '../support/build.ts';

// The RPC docs come from the method registry and the configured node URL (docs/hosts-and-paths.md#node-url, docs/json-rpc.md#method-registry): the
// fixture site built twice, without NODE_DOMAIN (the path form) and with one (the domain form).

const siteUrl = 'https://fixture.example';
const nodeDomain = 'node.example.net';
const fixtureContent = join(projectRoot, 'test/fixtures/site/content');
const methods = rpcMethodListing().flatMap((category) => category.methods);

let scratch: string;
/** dist/ of each build. */
const dists = { path: '', domain: '' };

/** The fixture built with NODE_DOMAIN set to `value` ('' is unset, whatever .env says). */
async function buildWithNodeDomain(name: keyof typeof dists, value: string): Promise<void> {
  const before = process.env.NODE_DOMAIN;
  process.env.NODE_DOMAIN = value; // the build inherits this process's environment
  try {
    const result = await buildSite({ contentDir: fixtureContent, outDir: join(scratch, name, 'dist'), cacheDir: join(scratch, name, 'cache'), siteUrl });
    if (result.code !== 0) throw new Error(`fixture build (NODE_DOMAIN=${value}) failed:\n${result.output}`);
    dists[name] = result.outDir;
  } finally {
    if (before === undefined) delete process.env.NODE_DOMAIN;
    else process.env.NODE_DOMAIN = before;
  }
}

const read = (name: keyof typeof dists, path: string) => readFile(join(dists[name], path), 'utf8');

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'crucible-rpc-docs-'));
  await buildWithNodeDomain('path', '');
  await buildWithNodeDomain('domain', nodeDomain);
});

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('an RPC page', () => {
  it('shows {node_url}/v2/<API_KEY> from the configuration, in HTML and in its twin', async () => {
    const endpoints = { path: `${siteUrl}/node/fixture-testnet/v2/<API_KEY>`, domain: `https://fixture-testnet.${nodeDomain}/v2/<API_KEY>` };
    for (const name of ['path', 'domain'] as const) {
      const escaped = endpoints[name].replace('<', '&lt;').replace('>', '&gt;');
      expect(await read(name, 'rpc/fixture-testnet.html')).toContain(`>${escaped}</code>`);
      expect(await read(name, 'faucets/fixture-testnet.html')).toContain(`>${escaped}</code>`);
      expect(await read(name, 'rpc/fixture-testnet.md')).toContain(`| Endpoint | \`${endpoints[name]}\` |`);
    }
  });

  it('lists every registry method with its compute units, linked to its entry in the reference', async () => {
    const html = await read('path', 'rpc/fixture-testnet.html');
    const twin = await read('path', 'rpc/fixture-testnet.md');
    expect(methods.map((method) => method.name).sort()).toEqual(rpcRegistry.methods.map((method) => method.name).sort());
    for (const method of methods) {
      const name = method.name.replace('.', '\\.');
      // The English page writes costs as English numbers: 1,200 CU.
      const cost = `${method.computeUnits.toLocaleString('en-US')} CU`;
      expect(html).toMatch(new RegExp(`<a href="/rpc/methods#${method.anchor}"[^>]*><code[^>]*>${name}</code></a> <span class="cu"[^>]*>${cost}</span>`));
      expect(twin).toContain(`[\`${method.name}\`](${siteUrl}/rpc/methods#${method.anchor}) ${cost}`);
    }
    const ids = new Set([...(await read('path', 'rpc/methods.html')).matchAll(/\bid="([^"]+)"/g)].map((match) => match[1]));
    for (const method of methods) expect(ids, method.name).toContain(method.anchor);
  });
});

describe('the method reference', () => {
  it('is a page of the RPC section with its twin and its llms.txt line', async () => {
    const html = await read('path', 'rpc/methods.html');
    const twin = await read('path', 'rpc/methods.md');
    for (const method of rpcRegistry.methods) {
      expect(html).toContain(`>${method.name}</h3>`);
      expect(twin).toContain(`### ${method.name}\n`);
    }
    expect(twin).toMatch(/\| `eth_sendTransaction` +\| signs with a key held by the node +\|/);
    expect(twin).toContain(
      '- One eth_getLogs call or eth_newFilter filter spans at most 10,000 blocks, block tags counted from the chain’s head; split longer ranges.',
    );
    expect(await read('path', 'llms.txt')).toContain(`- [JSON-RPC method reference](${siteUrl}/rpc/methods.md)`);
  });
});

describe('hosts', () => {
  it('records NODE_DOMAIN in the rules manifest, so npm start rebuilds when it changes', async () => {
    expect(JSON.parse(await read('path', '_surface.json')).environment).toMatchObject({ nodeDomain: null });
    expect(JSON.parse(await read('domain', '_surface.json')).environment).toMatchObject({ nodeDomain });
  });

  it('are never hard-coded: no built file names the old node host, nor does any RPC page’s source', async () => {
    for (const name of ['path', 'domain'] as const) {
      for (const file of await glob('**/*.{html,md,txt,json,xml}', { cwd: dists[name] }))
        expect(await read(name, file), file).not.toContain('node.crucible.dev');
    }
    for (const file of await glob('*/rpc/*.{md,mdx}', { cwd: join(projectRoot, 'content') })) {
      expect(await readFile(join(projectRoot, 'content', file), 'utf8'), file).not.toMatch(/\.node\.crucible\.dev|https:\/\/[a-z0-9-]+\.node\./);
    }
  });
});
