// @ts-check
// The layers of the code (src/runtime/README.md), checked by `npm run lint:deps`
// (scripts/check-dependencies.ts, which also reads .astro components). Paths are relative to the
// project root. Type-only imports count: a type is a dependency too.

// The folders of src/ by what they are, named here once; the rules below read these lists, and
// src/runtime/README.md says why each is where it is.

/**
 * Products: what the platform offers, each a core over the ports it declares and the kernels. No
 * product imports another (not even a type): the composition root, src/runtime/, joins them with
 * its adapters (src/runtime/adapters/).
 */
const products = ['faucet', 'node', 'indexer', 'tokens', 'nfts', 'webhooks', 'prices', 'dashboard', 'simulation', 'mcp', 'portfolio'];

/**
 * Shared kernels: what any product may import, each importing no product. The method registry
 * (node/rpc/) is one although it sits in the gateway's folder: every product's JSON-RPC methods,
 * their params included, are entries of it. In src/api/ every module is the API kernel
 * (operations, router, OpenAPI builder, shared schemas, the site's own operations); the products'
 * operations live in the products and the site API is assembled in the runtime.
 */
const kernels = [
  'config',
  'db',
  'http',
  'log',
  'errors',
  'limits',
  'net',
  'store',
  'admission',
  'rest',
  'api',
  'apps',
  'accounts',
  'chain',
  'site',
  'transfers',
  'token-list',
  'node/rpc',
];

/**
 * Edges: they assemble the products (the runtime), serve them (the server) or present them (the
 * Astro pages, layouts and components), so they may import any product. Pages document the
 * products from their registries and schemas, and run at build time or in the browser: they never
 * import the runtime or the server, which start services.
 */
const edges = ['runtime', 'server', 'pages', 'components', 'layouts'];

/**
 * The content model's modules that the pages' UI strings and network pages read (src/site/ui.ts,
 * src/site/networks.ts): they name what products register (RPC method categories, price source
 * kinds, webhook types), so they may read those registries, and no product imports them.
 */
const siteDocsModules = '^src/site/(ui|networks)\\.ts$';
const registriesPagesDocument = ['^src/node/rpc/', '^src/prices/observation\\.ts$', '^src/webhooks/schemas\\.ts$'];

const anyOf = (/** @type {string[]} */ folders) => `^src/(${folders.join('|')})/`;

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'products-import-no-product',
      comment:
        'A product imports no other product, not even a type: it declares the port it needs (src/tokens/token-index.ts) or takes what several share from a kernel (src/chain/, src/transfers/), and the composition root (src/runtime/) joins them. The lists are at the top of .dependency-cruiser.mjs.',
      severity: 'error',
      from: { path: anyOf(products), pathNot: anyOf(kernels) },
      to: { path: anyOf(products), pathNot: ['^src/$1/', anyOf(kernels)] },
    },
    {
      name: 'products-not-to-edges',
      comment: 'Products are assembled by the runtime and served by the server; they import neither, nor a page.',
      severity: 'error',
      from: { path: anyOf(products), pathNot: anyOf(kernels) },
      to: { path: anyOf(edges) },
    },
    {
      name: 'products-not-to-site-docs',
      comment:
        "The site's UI strings and network pages read products' registries for the pages; a product that imported them would reach another product through them.",
      severity: 'error',
      from: { path: anyOf(products) },
      to: { path: siteDocsModules },
    },
    {
      name: 'kernels-import-no-product',
      comment:
        "Shared kernels are below every product: they import no product, nor the runtime, the server or a page, so a product that imports a kernel reaches no other product through it. The one exception: the site's UI strings and network pages (src/site/ui.ts, networks.ts) read the registries the pages document.",
      severity: 'error',
      from: { path: anyOf(kernels), pathNot: siteDocsModules },
      to: { path: [anyOf(products), anyOf(edges)], pathNot: anyOf(kernels) },
    },
    {
      name: 'site-docs-read-registries-only',
      comment: "The site's UI strings and network pages read products' registries (RPC methods, price source kinds, webhook types), nothing else of a product.",
      severity: 'error',
      from: { path: siteDocsModules },
      to: { path: [anyOf(products), anyOf(edges)], pathNot: registriesPagesDocument },
    },
    {
      name: 'pages-start-no-service',
      comment:
        'Astro pages, layouts and components are rendered at build time or run in the browser: they read registries and schemas, never the runtime or the server, which start services.',
      severity: 'error',
      from: { path: '^src/(pages|components|layouts)/' },
      to: { path: '^src/(runtime|server)/' },
    },
    {
      name: 'no-circular',
      comment: 'No module reaches itself through its imports: move what both ends share to where it belongs.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'src-not-to-integrations',
      comment: 'Data flows one way: the Astro integration builds from src/, and src/ never imports it.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^integrations/' },
    },
    {
      name: 'code-not-to-tests-or-benchmarks',
      comment: 'Tests and benchmarks use the code; the code never uses them.',
      severity: 'error',
      from: { path: ['^(src|integrations|scripts)/', '^astro\\.config\\.mjs$'] },
      to: { path: '^(bench|test)/' },
    },
    {
      name: 'config-imports-no-part',
      comment:
        'Every part takes its configuration from src/config/, so config imports none of them; only the published anvil keys, which local mode defaults to and production refuses.',
      severity: 'error',
      from: { path: '^src/config/' },
      to: { path: '^src/', pathNot: ['^src/config/', '^src/chain/dev-accounts\\.ts$'] },
    },
    {
      name: 'shared-vocabulary-imports-no-part',
      comment: 'src/http/ (media types, the rules manifest) and src/log/ are shared by the build, the API and the server, and import none of them.',
      severity: 'error',
      from: { path: '^src/(http|log)/' },
      to: { path: '^src/', pathNot: '^src/$1/' },
    },
    {
      name: 'content-model-imports-no-consumer',
      comment: 'The content model (src/site/) feeds pages, the surface, the API, the faucet and the server; it imports none of them.',
      severity: 'error',
      from: { path: '^src/site/' },
      to: { path: '^src/(api|server|faucet|chain|store|search|components|layouts|pages)/' },
    },
    {
      name: 'faucet-core-not-to-edges',
      comment:
        "The faucet's decision chain is a core: its HTTP side (src/faucet/api/) adapts it to the API kernel and the server serves it, never the reverse.",
      severity: 'error',
      from: { path: '^src/faucet/', pathNot: '^src/faucet/api/' },
      to: { path: '^src/(api|rest|server|runtime)/' },
    },
    {
      name: 'adapters-not-to-callers',
      comment: 'Chain and store adapters are handed their settings; they import neither the faucet, the API, the server nor the config.',
      severity: 'error',
      from: { path: '^src/(chain|store)/' },
      to: { path: '^src/(faucet|api|server|config)/' },
    },
    {
      name: 'api-not-to-server',
      comment: 'API handlers are Request -> Response functions: the Node server and astro dev mount them.',
      severity: 'error',
      from: { path: '^src/api/' },
      to: { path: '^src/server/' },
    },
    {
      name: 'browser-search-takes-types-only',
      comment: 'src/search/ runs in the browser: from the rest of src/ it takes types only (the search JSON schema).',
      severity: 'error',
      from: { path: '^src/search/' },
      to: { path: '^src/', pathNot: '^src/search/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'database-imports-no-part',
      comment: 'src/db/ is the query layer every data product stands on: it takes its location from src/config/ and imports no part that uses it.',
      severity: 'error',
      from: { path: '^src/db/' },
      to: { path: '^src/', pathNot: ['^src/db/', '^src/config/', '^src/log/'] },
    },
    {
      name: 'apps-not-to-edges',
      comment: 'Apps, keys and usage (src/apps/) are a core over the database: the gateway, the CLI and the dashboard use them, never the reverse.',
      severity: 'error',
      from: { path: '^src/apps/' },
      to: { path: '^src/(node|api|server|faucet|chain|store|limits)/' },
    },
    {
      name: 'limits-know-no-caller',
      comment: 'Limits (src/limits/) know nothing of JSON-RPC or prices: only the Redis client type from src/store/.',
      severity: 'error',
      from: { path: '^src/limits/' },
      to: { path: '^src/', pathNot: ['^src/limits/', '^src/store/redis\\.ts$'] },
    },
    {
      name: 'rpc-registry-is-pure',
      comment:
        "The method registry (src/node/rpc/) is pure data and functions, a kernel every product's JSON-RPC methods are entries of, their params schemas included (methods/token-params.ts): it imports nothing else of src/ but the error model it answers from.",
      severity: 'error',
      from: { path: '^src/node/rpc/' },
      to: { path: '^src/', pathNot: ['^src/node/rpc/', '^src/errors/(codes|crucible-error|json-rpc)\\.ts$'] },
    },
    {
      name: 'error-model-imports-no-part',
      comment:
        'The one error model (src/errors/) is below everything that says no: it imports no part but the HTTP vocabulary and the response type its answers are written as.',
      severity: 'error',
      from: { path: '^src/errors/' },
      to: { path: '^src/', pathNot: ['^src/errors/', '^src/http/', '^src/api/buffered-response\\.ts$'] },
    },
    {
      name: 'admission-knows-no-product',
      comment:
        'Admission (src/admission/) is the one step every keyed call passes: keys, apps, limits, metering. It knows no transport and no product: neither the JSON-RPC gateway, the REST door, the API nor a data product.',
      severity: 'error',
      from: { path: '^src/admission/' },
      to: { path: '^src/', pathNot: ['^src/admission/', '^src/errors/', '^src/limits/', '^src/http/', '^src/apps/domains\\.ts$', '^src/config/node\\.ts$'] },
    },
    {
      name: 'gateway-is-json-rpc-only',
      comment: 'The JSON-RPC gateway (src/node/) serves no REST product: those are entries of the keyed REST door (src/rest/), which it does not import.',
      severity: 'error',
      from: { path: '^src/node/' },
      to: { path: '^src/rest/' },
    },
    {
      name: 'rest-door-not-to-gateway',
      comment: 'The keyed REST door (src/rest/) and the JSON-RPC gateway are siblings over one admission; neither imports the other.',
      severity: 'error',
      from: { path: '^src/rest/' },
      to: { path: '^src/node/' },
    },
    {
      name: 'products-not-to-gateway',
      comment: "A data product's REST operations are entries of the keyed REST door (src/rest/); no product imports the JSON-RPC gateway.",
      severity: 'error',
      from: { path: '^src/(nfts|prices|tokens|webhooks|indexer|dashboard)/' },
      to: { path: '^src/node/gateway\\.ts$' },
    },
    {
      name: 'products-admitted-through-the-door',
      comment:
        'REST products reach admission (keys, limits, metering) only through the door, which admits, charges and meters every call from their entries: a product never admits or charges a call itself.',
      severity: 'error',
      from: { path: '^src/(nfts|prices|tokens|webhooks|indexer)/' },
      to: { path: '^src/admission/' },
    },
    {
      name: 'gateway-not-to-server-or-faucet',
      comment: 'The node gateway is Request -> Response: the server mounts it; it shares only the chain world with the faucet.',
      severity: 'error',
      from: { path: '^src/node/' },
      to: { path: '^src/(server|faucet)/' },
    },
    {
      name: 'faucet-not-to-gateway',
      comment: 'The faucet and the gateway are siblings over the same devnets; neither imports the other.',
      severity: 'error',
      from: { path: '^src/faucet/' },
      to: { path: '^src/(node|apps|limits)/' },
    },
    {
      name: 'outbound-http-through-net',
      comment:
        'Outbound HTTP goes through src/net/ (one deadline, one size cap, the address guard): no other module imports an HTTP client. node:http and node:net also serve servers and address checks; test/unit/scripts/outbound-http.test.ts reads the sources for their client parts and for calls of fetch.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/net/' },
      to: { path: '^(https|http2|tls|undici)$|(^|/)node_modules/undici/' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    preserveSymlinks: true,
  },
};
