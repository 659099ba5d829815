import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { astroModuleCode, checkDependencies } from '../../../scripts/check-dependencies.ts';

// The layer rules of .dependency-cruiser.mjs, run on small trees: each rule fails on a tree
// that breaks it, and a tree that keeps them passes.

const rules = join(import.meta.dirname, '../../../.dependency-cruiser.mjs');
let root: string | undefined;

afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

async function check(files: Record<string, string>) {
  root = await mkdtemp(join(tmpdir(), 'crucible-layers-test-'));
  for (const [path, source] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), source);
  }
  return checkDependencies(root, rules);
}

const layers = {
  'src/site/urls.ts': 'export const home = "/";\n',
  'src/api/schemas.ts': 'export type SearchItem = { title: string };\nexport const schemas = {};\n',
  'src/server/main.ts': 'import { schemas } from "../api/schemas.ts";\nexport const server = schemas;\n',
  'integrations/surface.ts': 'import { home } from "../src/site/urls.ts";\nexport const surface = home;\n',
  'test/helper.ts': 'import { server } from "../src/server/main.ts";\nexport const helper = server;\n',
};

describe('the layer rules', () => {
  it('pass a tree that keeps them, components and type-only imports included', async () => {
    const result = await check({
      ...layers,
      'src/search/data.ts': 'import type { SearchItem } from "../api/schemas.ts";\nexport const items: SearchItem[] = [];\n',
      'src/layouts/Base.astro': '---\nimport Header from "../components/Header.astro";\nimport { home } from "../site/urls.ts";\n---\n<Header href={home} />\n',
      'src/components/Header.astro': '---\nimport { home } from "../site/urls.ts";\n---\n<a href={home}>Home</a>\n',
    });
    expect(result.output).toContain('no dependency violations found');
    expect(result.exitCode).toBe(0);
  });

  it('pass products that meet only in kernels and in the runtime, and docs modules that read registries', async () => {
    const result = await check({
      ...layers,
      'src/chain/contract-reader.ts': 'export interface ContractReader { blockNumber(): Promise<bigint> }\n',
      'src/node/rpc/methods/token-params.ts': 'export const tokenParams = {};\n',
      'src/tokens/balances.ts':
        'import type { ContractReader } from "../chain/contract-reader.ts";\nimport { tokenParams } from "../node/rpc/methods/token-params.ts";\nexport const balances = (chain: ContractReader) => [chain, tokenParams];\n',
      'src/prices/sampler.ts': 'import type { ContractReader } from "../chain/contract-reader.ts";\nexport const sampler = (chain: ContractReader) => chain;\n',
      'src/prices/observation.ts': 'export type SourceKind = "pool" | "feed";\n',
      'src/site/ui.ts': 'import type { SourceKind } from "../prices/observation.ts";\nexport const kinds: SourceKind[] = [];\n',
      'src/runtime/server-runtime.ts':
        'import { balances } from "../tokens/balances.ts";\nimport { sampler } from "../prices/sampler.ts";\nexport const runtime = [balances, sampler];\n',
    });
    expect(result.output).toContain('no dependency violations found');
    expect(result.exitCode).toBe(0);
  });

  it.each([
    [
      'products-import-no-product',
      'src/nfts/api/handlers.ts → src/indexer/queries.ts',
      {
        'src/indexer/queries.ts': 'export interface IndexedBlock { number: number }\n',
        'src/nfts/api/handlers.ts': 'import type { IndexedBlock } from "../../indexer/queries.ts";\nexport type Valid = IndexedBlock;\n',
      },
    ],
    [
      'products-not-to-edges',
      'src/prices/sampler.ts → src/runtime/price-services.ts',
      {
        'src/runtime/price-services.ts': 'export const services = {};\n',
        'src/prices/sampler.ts': 'import { services } from "../runtime/price-services.ts";\nexport const sampler = services;\n',
      },
    ],
    [
      'products-not-to-site-docs',
      'src/tokens/list.ts → src/site/ui.ts',
      {
        'src/site/ui.ts': 'export const ui = {};\n',
        'src/tokens/list.ts': 'import { ui } from "../site/ui.ts";\nexport const list = ui;\n',
      },
    ],
    [
      'kernels-import-no-product',
      'src/chain/world.ts → src/nfts/uri.ts',
      {
        'src/nfts/uri.ts': 'export const uri = "";\n',
        'src/chain/world.ts': 'import { uri } from "../nfts/uri.ts";\nexport const world = uri;\n',
      },
    ],
    [
      'site-docs-read-registries-only',
      'src/site/ui.ts → src/prices/sampler.ts',
      {
        'src/prices/sampler.ts': 'export const sampler = {};\n',
        'src/site/ui.ts': 'import { sampler } from "../prices/sampler.ts";\nexport const ui = sampler;\n',
      },
    ],
    [
      'pages-start-no-service',
      'src/components/Prices.astro → src/runtime/site-api.ts',
      {
        'src/runtime/site-api.ts': 'export const api = {};\n',
        'src/components/Prices.astro': '---\nimport { api } from "../runtime/site-api.ts";\n---\n<p>{String(api)}</p>\n',
      },
    ],
    [
      'src-not-to-integrations',
      'src/site/page.ts → integrations/surface.ts',
      { 'src/site/page.ts': 'import { surface } from "../../integrations/surface.ts";\nexport const page = surface;\n' },
    ],
    [
      'code-not-to-tests-or-benchmarks',
      'src/api/route.ts → test/helper.ts',
      { 'src/api/route.ts': 'import { helper } from "../../test/helper.ts";\nexport const route = helper;\n' },
    ],
    [
      'faucet-core-not-to-edges',
      'src/faucet/service.ts → src/server/main.ts',
      { 'src/faucet/service.ts': 'import { server } from "../server/main.ts";\nexport const faucet = server;\n' },
    ],
    [
      'config-imports-no-part',
      'src/config/server.ts → src/server/main.ts',
      { 'src/config/server.ts': 'import type { server } from "../server/main.ts";\nexport type Config = typeof server;\n' },
    ],
    [
      'adapters-not-to-callers',
      'src/chain/chains.ts → src/config/faucet.ts',
      {
        'src/config/faucet.ts': 'export type FaucetConfig = { mode: string };\n',
        'src/chain/chains.ts': 'import type { FaucetConfig } from "../config/faucet.ts";\nexport type Chains = FaucetConfig;\n',
      },
    ],
    [
      'content-model-imports-no-consumer',
      'src/site/page.ts → src/api/schemas.ts',
      { 'src/site/page.ts': 'import { schemas } from "../api/schemas.ts";\nexport const page = schemas;\n' },
    ],
    [
      'api-not-to-server',
      'src/api/route.ts → src/server/main.ts',
      { 'src/api/route.ts': 'import { server } from "../server/main.ts";\nexport const route = server;\n' },
    ],
    [
      'shared-vocabulary-imports-no-part',
      'src/http/media.ts → src/site/urls.ts',
      { 'src/http/media.ts': 'import { home } from "../site/urls.ts";\nexport const media = home;\n' },
    ],
    [
      'browser-search-takes-types-only',
      'src/search/data.ts → src/api/schemas.ts',
      { 'src/search/data.ts': 'import { schemas } from "../api/schemas.ts";\nexport const data = schemas;\n' },
    ],
    [
      'database-imports-no-part',
      'src/db/open.ts → src/api/schemas.ts',
      { 'src/db/open.ts': 'import { schemas } from "../api/schemas.ts";\nexport const open = schemas;\n' },
    ],
    [
      'apps-not-to-edges',
      'src/apps/store.ts → src/server/main.ts',
      { 'src/apps/store.ts': 'import { server } from "../server/main.ts";\nexport const store = server;\n' },
    ],
    [
      'limits-know-no-caller',
      'src/limits/quota.ts → src/site/urls.ts',
      { 'src/limits/quota.ts': 'import { home } from "../site/urls.ts";\nexport const quota = home;\n' },
    ],
    [
      'rpc-registry-is-pure',
      'src/node/rpc/registry.ts → src/site/urls.ts',
      { 'src/node/rpc/registry.ts': 'import { home } from "../../site/urls.ts";\nexport const registry = home;\n' },
    ],
    [
      'gateway-not-to-server-or-faucet',
      'src/node/gateway.ts → src/server/main.ts',
      { 'src/node/gateway.ts': 'import { server } from "../server/main.ts";\nexport const gateway = server;\n' },
    ],
    [
      'faucet-not-to-gateway',
      'src/faucet/service.ts → src/node/gateway.ts',
      {
        'src/node/gateway.ts': 'export const gateway = 1;\n',
        'src/faucet/service.ts': 'import { gateway } from "../node/gateway.ts";\nexport const faucet = gateway;\n',
      },
    ],
    [
      'outbound-http-through-net',
      'src/webhooks/post.ts → https',
      { 'src/webhooks/post.ts': 'import { request } from "node:https";\nexport const post = request;\n' },
    ],
    ['outbound-http-through-net', 'src/prices/http.ts → undici', { 'src/prices/http.ts': 'import { request } from "undici";\nexport const get = request;\n' }],
  ])('fail on %s', async (rule, edge, files) => {
    const result = await check({ ...layers, ...files });
    expect(result.output).toContain(`error ${rule}: ${edge}`);
    expect(result.exitCode).toBeGreaterThan(0);
  });

  it('fail on a cycle, type-only and through components', async () => {
    const result = await check({
      ...layers,
      'src/layouts/Base.astro': '---\nimport Header from "../components/Header.astro";\nexport interface Link { href: string }\n---\n<Header />\n',
      'src/components/Header.astro':
        '---\nimport type { Link } from "../layouts/Base.astro";\nconst home: Link = { href: "/" };\n---\n<a href={home.href}>Home</a>\n',
    });
    expect(result.output).toMatch(/error no-circular: src\/(components\/Header|layouts\/Base)\.astro/);
    expect(result.exitCode).toBeGreaterThan(0);
  });
});

describe('astroModuleCode', () => {
  it('keeps the frontmatter and bundled scripts, not inline ones or the markup', () => {
    const code = astroModuleCode(
      '---\nimport A from "./A.astro";\n---\n<A />\n<script>\nimport { b } from "./b.ts";\n</script>\n<script is:inline src="https://x.example/api.js"></script>\n',
    );
    expect(code).toContain('import A from "./A.astro";');
    expect(code).toContain('import { b } from "./b.ts";');
    expect(code).not.toContain('x.example');
    expect(code).not.toContain('<A />');
  });
});
