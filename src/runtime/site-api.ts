import type { LocalDevnets } from '../chain/local-devnets.ts';
import { loadFaucetNetworks } from '../chain/networks.ts';
import { startFaucetRuntime } from './faucet.ts';
import { faucetHandlers } from '../faucet/api/handlers.ts';
import { buildOpenApiDocument } from '../api/openapi.ts';
import type { ApiOperation, DescribedOperation } from '../api/operation.ts';
import { faucetComponentSchemas, faucetOperations, type FaucetHandlers } from '../faucet/api/operations.ts';
import { indexerStatusOperation, type IndexerStatusSource } from '../indexer/status-operation.ts';
import { ipOperation } from '../api/operations/ip.ts';
import { openApiOperations } from '../api/operations/openapi.ts';
import { searchOperation } from '../api/operations/search.ts';
import { surfaceOperations } from '../api/operations/surface.ts';
import { webhookComponentSchemas, webhookOperations, type WebhookApi } from '../webhooks/api/operations.ts';
import { notifyComponentSchemas, notifyOperations } from '../webhooks/api/notify-operations.ts';
import type { NetworkNames } from '../site/network-names.ts';
import { describedOperations } from '../rest/openapi.ts';
import { restProducts } from './rest-products.ts';
import type { DashboardApi } from '../dashboard/api.ts';
import { dashboardComponentSchemas, dashboardEndpoints, dashboardTag } from '../dashboard/operations.ts';
import { createRouter, type BodyLimits, type Router } from '../api/router.ts';
import { API_BODY_LIMIT_DEFAULTS } from '../config/server.ts';
import { DEFAULT_JSON_MAX_DEPTH } from '../http/json-depth.ts';
import { Address, ClientIp, ErrorBody, faucetIdSchema, Locale, SearchGroup, SearchIndex, SearchItem, TransactionHash } from '../api/schemas.ts';

// The whole website API in one place: the operation registry, its router and its OpenAPI
// document. The production server (src/server/) and `astro dev` (integrations/api-dev.ts)
// both mount what loadSiteApi() returns; the build prerenders siteOpenApiDocument(), which also
// describes the keyed REST products mounted on the site (prices, portfolio: src/rest/, served by its door).

export interface SiteApiOptions {
  /** Absolute site origin: `servers[0].url` and every `documentation_url`. */
  origin: string;
  /** The faucet networks: their ids are the faucetId enum and `supportedChains`, in this order. */
  networks: ReadonlyArray<{ id: string }>;
  faucet: FaucetHandlers;
  /** The transfer index's progress; without it GET /api/indexer/status is not served here (404). */
  indexerStatus?: IndexerStatusSource;
  /** Account tokens and webhooks, and the names of networks; without them /api/webhooks and /api/notify are not served here (404). */
  webhooks?: SiteWebhooks;
  /** Accounts, apps and tokens under /api/dashboard/ (docs/dashboard.md#endpoints), whose sessions the webhook API accepts too; without it those paths answer 404. */
  dashboard?: DashboardApi;
  /** Request bodies' nesting limit and per-client-IP bucket (the production server's); absent: the router's defaults. */
  bodies?: BodyLimits;
  /** Releases what the services behind the handlers hold. */
  close?: () => Promise<void>;
}

/** The webhook API's services, and the networks' names, which the SDK's notify API answers with. */
export type SiteWebhooks = WebhookApi & { names: NetworkNames };

export interface SiteApi {
  router: Router;
  /** Releases what the services hold (chains, stores). */
  close(): Promise<void>;
}

const description = [
  'The public HTTP surface of the Crucible website: the testnet faucet, the per-locale search index, a client-IP echo, this document, markdown twins of every content page and the text indexes for crawlers.',
  '',
  'Any request under /api/ that matches no operation answers 404 with the Error body (`code` `not_found`), whatever its method; a known path with another method answers 405 `method_not_allowed` with an Allow header; a malformed request to an operation without a richer error shape answers 400 `bad_request`; an unexpected failure answers 500 `internal_error`. The faucet operations answer FaucetError instead (branch on `statusCode`).',
  '',
  `A JSON body nested more than ${DEFAULT_JSON_MAX_DEPTH} arrays and objects deep (by default) is refused before it is parsed, as a malformed request. Requests with a body, under /api/, /prices/ and /data/, are limited per client IP before the body is read, by default to ${API_BODY_LIMIT_DEFAULTS.requestsPerSecond} a second in bursts of ${API_BODY_LIMIT_DEFAULTS.burst}: past that they answer 429 \`rate_limited\` with the Error body and a Retry-After header, whatever the operation.`,
].join('\n');

const tags = [
  { name: 'Faucet', description: 'Testnet drips and their transaction status (docs/website.md#faucet-send, docs/website.md#faucet-status).' },
  { name: 'Search', description: 'Prerendered search indexes (docs/website.md#search-index).' },
  { name: 'Utility', description: 'Client IP echo (docs/website.md#client-ip).' },
  { name: 'Meta', description: 'This document (docs/website.md#openapi-document).' },
  { name: 'Indexer', description: 'Progress of the transfer index behind token balances, NFTs and webhooks (docs/token-data.md#transfer-indexer).' },
  {
    name: 'Webhooks',
    description: 'Webhooks of every type and their deliveries, with an account auth token in X-Crucible-Token (docs/webhooks.md#registration-api).',
  },
  {
    name: 'Notify',
    description:
      'The same webhooks as the incumbent SDK’s `notify` namespace manages them (`new Alchemy({ url: "<origin>/api/notify", authToken })`), with an account auth token in X-Alchemy-Token (docs/webhooks.md#notify-api).',
  },
  {
    name: 'Prices',
    description: 'Current and historical token prices under {prices_url}/prices/v1/{apiKey}/tokens/, with an app key (docs/prices.md#endpoints).',
  },
  {
    name: 'Portfolio',
    description:
      'Tokens, NFTs, NFT collections and transaction history of several wallets across several networks under /data/v1/{apiKey}/, with an app key, as alchemy-sdk calls them (docs/portfolio.md#endpoints).',
  },
  dashboardTag,
  { name: 'Pages', description: 'HTML pages that negotiate to their markdown twin (docs/website.md#content-negotiation).' },
  { name: 'Markdown twins', description: 'Every content page as markdown (docs/website.md#markdown-twins).' },
  { name: 'Text indexes', description: 'llms.txt, llms-full.txt and the sitemap (docs/website.md#text-indexes).' },
];

export function createSiteApi(options: SiteApiOptions): SiteApi {
  const { routed } = siteOperations(options.origin, options.networks, options.faucet, options.indexerStatus, options.webhooks, options.dashboard);
  return { router: createRouter(routed, { origin: options.origin, bodies: options.bodies }), close: options.close ?? (async () => {}) };
}

/** The OpenAPI document (docs/website.md#openapi-document) of the API over these networks, as the build writes it into dist/. */
export function siteOpenApiDocument(options: { origin: string; networks: ReadonlyArray<{ id: string }> }): Record<string, unknown> {
  const { described, faucetId } = siteOperations(options.origin, options.networks, describedOnly, describedStatus, describedWebhooks, null);
  const operations: DescribedOperation[] = [...described, ...surfaceOperations()];
  const faucetSchemas = faucetComponentSchemas(faucetId);
  const components = {
    FaucetId: faucetSchemas.FaucetId,
    Locale,
    Address,
    TransactionHash,
    FaucetSendRequest: faucetSchemas.FaucetSendRequest,
    FaucetSendSuccess: faucetSchemas.FaucetSendSuccess,
    FaucetErrorCode: faucetSchemas.FaucetErrorCode,
    FaucetError: faucetSchemas.FaucetError,
    FaucetTransactionStatus: faucetSchemas.FaucetTransactionStatus,
    Error: ErrorBody,
    SearchItem,
    SearchGroup,
    SearchIndex,
    ClientIp,
    ...webhookComponentSchemas,
    ...notifyComponentSchemas,
    ...dashboardComponentSchemas,
  };
  return buildOpenApiDocument({ origin: options.origin, components, operations, tags, description });
}

/**
 * The router's operations, and the document's (with the site's keyed REST operations in their
 * place); the faucet id schema is shared with the document's components, so it is one `$ref`.
 */
function siteOperations(
  origin: string,
  networks: ReadonlyArray<{ id: string }>,
  faucet: FaucetHandlers,
  indexerStatus?: IndexerStatusSource,
  webhooks?: SiteWebhooks,
  /** null: described only (the document); undefined: not served. */
  dashboard?: DashboardApi | null,
) {
  const faucetIds = networks.map((network) => network.id);
  const faucetId = faucetIdSchema(faucetIds);
  const indexer = indexerStatus ? [indexerStatusOperation(indexerStatus)] : [];
  const accounts = dashboard === undefined ? null : dashboardEndpoints(origin, dashboard);
  // A served dashboard's session is a credential of the webhook API too; the SDK's notify API takes tokens only.
  const hooks = webhooks
    ? [
        ...webhookOperations(origin, accounts && dashboard ? { ...webhooks, sessions: accounts.sessionOwner } : webhooks),
        ...notifyOperations(origin, { tokens: webhooks.tokens, store: webhooks.store, networks: webhooks.names }),
      ]
    : [];
  const before: ApiOperation[] = [...faucetOperations(faucetIds, faucetId, faucet), searchOperation(origin), ipOperation, ...indexer, ...hooks];
  const after: ApiOperation[] = [...(accounts?.operations ?? []), ...openApiOperations()];
  const keyed = Object.values(restProducts)
    .filter((product) => product.mount.at === 'site')
    .flatMap(describedOperations);
  return { routed: [...before, ...after], described: [...before, ...keyed, ...after], faucetId };
}

/** The faucet's operations as the MCP server's tools describe them (src/mcp/): the router's own answer them. */
export function faucetToolOperations(networks: ReadonlyArray<{ id: string }>): DescribedOperation[] {
  const ids = networks.map((network) => network.id);
  return faucetOperations(ids, faucetIdSchema(ids), describedOnly);
}

/** The document describes the faucet operations; only a running server answers them. */
const describedOnly: FaucetHandlers = {
  send: () => {
    throw new Error('the faucet is described, not served, here');
  },
  status: () => {
    throw new Error('the faucet is described, not served, here');
  },
};

const describedStatus: IndexerStatusSource = () => {
  throw new Error('the indexer status is described, not served, here');
};

/** The document describes the webhook operations; their handlers, which use these, never run for it. */
const describedWebhooks = {} as SiteWebhooks;

/**
 * The API with its services, configured from the project's content and environment: the faucet
 * runtime reads the environment once here (throws FaucetConfigError naming a bad variable).
 */
export async function loadSiteApi(options: {
  root: string;
  origin: string;
  devnets?: LocalDevnets;
  indexerStatus?: IndexerStatusSource;
  webhooks?: SiteWebhooks;
  dashboard?: DashboardApi;
  bodies?: BodyLimits;
}): Promise<SiteApi> {
  const networks = await loadFaucetNetworks(options.root);
  const faucet = await startFaucetRuntime({ networks, devnets: options.devnets });
  try {
    return createSiteApi({
      origin: options.origin,
      networks,
      faucet: faucetHandlers(faucet.faucet),
      indexerStatus: options.indexerStatus,
      webhooks: options.webhooks,
      dashboard: options.dashboard,
      bodies: options.bodies,
      close: () => faucet.close(),
    });
  } catch (error) {
    await faucet.close();
    throw error;
  }
}
