import { createAccountTokens } from '../accounts/auth-tokens.ts';
import type { Router } from '../api/router.ts';
import { createLocalDevnets } from '../chain/local-devnets.ts';
import { loadFaucetNetworks, speaksEvmRpc } from '../chain/networks.ts';
import { databaseConfig, faucetConfig, platformConfig, webhooksConfig } from '../config/config.ts';
import type { ServerConfig } from '../config/server.ts';
import type { SurfaceRules } from '../http/surface-rules.ts';
import type { McpEndpoint } from '../mcp/http.ts';
import { openDatabase } from '../db/open.ts';
import { registerIndexerMetrics } from '../indexer/metrics.ts';
import { nftApisOf } from '../nfts/api/handlers.ts';
import type { MediaRoute } from '../nfts/media/media-route.ts';
import type { NodeGateway } from '../node/gateway.ts';
import { nodeUrlOf } from '../node/node-url.ts';
import type { NodeWebSocketOptions } from '../node/websocket/attach.ts';
import { createRestDoor, mountProduct, type RestDoor } from '../rest/door.ts';
import { createWebhookStore } from '../webhooks/store.ts';
import { loadNetworkNames } from '../site/read-content.ts';
import type { NetworkIdOf } from '../site/network-names.ts';
import { loadDashboard } from './dashboard-services.ts';
import { loadNftMarketApis } from './nft-market.ts';
import { loadNftServices } from './nft-services.ts';
import { loadMcpServer } from './mcp-server.ts';
import { loadNodeRuntime } from './node-access.ts';
import { loadPriceServices } from './price-services.ts';
import { portfolioApi } from './portfolio-services.ts';
import { restProducts } from './rest-products.ts';
import { createReadiness, type Readiness } from './readiness.ts';
import { loadSiteApi } from './site-api.ts';
import { answerIndexReady, devnetsFromSupervisor, indexReadyFromSupervisor, type ProcessRole } from './supervision.ts';
import { loadServerTransferIndexer, serverIndexerStatus } from './transfer-indexer.ts';
import { loadServerDeliveryWorker } from './webhook-delivery.ts';
import { transactionWebhooks } from './transaction-webhooks.ts';

// Everything `npm start` serves besides the static site, built in one place, top to bottom
// (src/runtime/README.md): the devnets and the database every part shares, the transfer indexer,
// NFT webhooks, the NFT products, the JSON-RPC gateway, prices, the dashboard, the site API, the
// keyed REST door and the MCP server; then the workers that run inside the server start. src/server/main.ts
// serves what this returns.

export interface ServerRuntimeOptions {
  /** The project's root: content/ is read from it. */
  root: string;
  /** The site's origin, as the built site's manifest names it. */
  origin: string;
  server: ServerConfig;
  /** The built site's rules manifest: the MCP server lists and reads its `.md` twins. */
  surface: SurfaceRules;
  /**
   * Which parts this process starts (docs/operating-at-scale.md): `all` (one process: it serves and
   * runs the workers each *_IN_SERVER leaves in it), `server` (serves only: the supervisor runs the
   * workers in a process of their own and the devnets itself), `workers` (runs those workers; what it
   * builds to serve is never listened on). Default `all`.
   */
  role?: 'all' | ProcessRole;
  /** The server's log: renamed settings at start-up, and failures of background work. */
  log: { info(message: string, fields: Record<string, unknown>): void; error(message: string, fields: Record<string, unknown>): void };
}

export interface ServerRuntime {
  /** The site API: `/api/…` and `/openapi.json`. */
  router: Router;
  /** The JSON-RPC gateway at `{node_url}`. */
  node: { gateway: NodeGateway; nodeDomain: string | null; networkIdOf: NetworkIdOf };
  /** The REST products behind an app key: the rest of `{node_url}`, `/prices/` and `/data/`. */
  rest: RestDoor;
  /** The stored NFT images at `/nft-media/…`. */
  media: MediaRoute;
  /** The MCP server at `<site origin>/mcp` (Streamable HTTP). */
  mcp: McpEndpoint;
  /** The gateway over WebSocket, but for what the server knows: the client's address and its log. */
  webSockets: Omit<NodeWebSocketOptions, 'clientIp' | 'logger'>;
  /** GET /readyz: the database, Redis and each network's upstreams in use. */
  readiness(): Promise<Readiness>;
  /** Stops the workers and releases every store, the database and the devnets last. */
  close(): Promise<void>;
}

export async function buildServerRuntime(options: ServerRuntimeOptions): Promise<ServerRuntime> {
  const { root, origin, server, surface, log } = options;
  const role = options.role ?? 'all';
  // Under the supervisor the devnets run once, in it; each server process enforces its share of the limits kept in memory.
  const supervised = role !== 'all';
  const processes = role === 'server' ? server.processes : 1;
  const platform = platformConfig();
  const local = platform.mode === 'local';
  const faucetNetworks = await loadFaucetNetworks(root);
  // Every name a network answers to: its id and the incumbent's names of its chain (docs/hosts-and-paths.md#network-names).
  const names = await loadNetworkNames(root);
  const faucet = faucetConfig(faucetNetworks);
  // The networks that speak the EVM's JSON-RPC: webhooks and NFT data are theirs.
  const evmNetworks = faucetNetworks.filter(speaksEvmRpc).map((network) => network.id);

  // Local mode: one devnet per network, shared by the faucet and the node gateway, so a drip is
  // visible through the node API. Each devnet carries the local world, kept across restarts beside the database.
  const devnets = !local
    ? null
    : supervised
      ? devnetsFromSupervisor()
      : createLocalDevnets({ blockTimeSeconds: faucet.anvilBlockTimeSeconds, stateDir: faucet.devnetStateDir, siteOrigin: origin });
  // One database for every part (SQLite wants one connection per process).
  const database = await openDatabase(databaseConfig());

  // The transfer index (docs/token-data.md#transfer-indexer), unless INDEXER_IN_SERVER=off or no network can be reached.
  // A server process under the supervisor leaves it to the workers' process.
  const indexer = role === 'server' ? null : await loadServerTransferIndexer({ root, devnets, database });
  // A devnet's index follows it from its first use: the first answers on it wait for the index to reach the head.
  const indexReady = indexer ? (network: string) => indexer.ready(network) : role === 'server' && local ? indexReadyFromSupervisor() : undefined;
  if (indexer && role === 'workers') answerIndexReady(indexReady!);

  // NFT webhooks (docs/webhooks.md): their API over the same database, and the delivery worker unless WEBHOOKS_IN_SERVER=off.
  const webhookStore = createWebhookStore(database.db, {
    networks: evmNetworks,
    networkIdOf: names.idOf,
    urlRules: { local },
    maxPerOwner: webhooksConfig({ local }).perAccount,
    maxAddresses: webhooksConfig({ local }).maxAddresses,
  });
  const webhooks = { tokens: createAccountTokens(database.db), store: webhookStore, names };
  const delivery = role === 'server' ? null : await loadServerDeliveryWorker({ local, database });
  // The gateway records which app broadcast which transaction; the watcher settles each, mined or dropped.
  const transactions = transactionWebhooks({ database, local, log });

  // NFT metadata, media and contract facts (docs/nft-data.md), read through the gateway's upstreams.
  const nfts = await loadNftServices({ root, origin, database, indexedNetworks: indexer?.networks ?? [], local });
  // Floors and sales from the marketplaces each network reads (docs/nft-data.md), in the same index.
  const markets = await loadNftMarketApis({ root, origin, database, networks: evmNetworks, local, indexReady });

  // The JSON-RPC gateway (docs/json-rpc.md): apps and keys, limits, upstream pools, the token methods.
  const node = await loadNodeRuntime({
    root,
    origin,
    devnets,
    redisUrl: faucet.redisUrl,
    ipv6PrefixLength: faucet.ipv6PrefixLength,
    jsonMaxDepth: server.jsonMaxDepth,
    database,
    indexReady,
    onBroadcast: transactions.onBroadcast,
    processes,
  });
  for (const warning of [...platform.warnings, ...node.configWarnings]) log.info('setting renamed', { warning });
  nfts.start(node.pools, { worker: role !== 'server' });

  // Token prices (docs/prices.md): the sampler over the same pools, the endpoints under the same keys.
  const prices = await loadPriceServices({
    root,
    origin,
    database,
    local,
    onError: (error) => log.error('price sampling failed', { error: error instanceof Error ? error.message : String(error) }),
  });

  // The developer dashboard (docs/dashboard.md): accounts and sessions over the same database and apps.
  const dashboard = await loadDashboard({
    root,
    origin,
    database,
    local,
    redisUrl: faucet.redisUrl,
    ipv6PrefixLength: faucet.ipv6PrefixLength,
    keysChanged: node.forgetKeys,
    processes,
  });

  // Nothing is read or parsed for a client before it pays (README, "Server limits").
  const bodies = {
    jsonMaxDepth: server.jsonMaxDepth,
    perClient: { limiter: node.rateLimiter, ...server.apiBodyLimit, ipv6PrefixLength: faucet.ipv6PrefixLength },
  };
  // The site API: the faucet, search, the client's IP, the indexer's status, webhooks, the dashboard, the documents.
  const api = await loadSiteApi({
    root,
    origin,
    devnets: devnets ?? undefined,
    indexerStatus: await serverIndexerStatus({ root, database, indexer }),
    webhooks,
    dashboard: dashboard.api,
    bodies,
  });
  const nftApis = nftApisOf(evmNetworks, { db: database.db, ...nfts.sources, indexReady, ipv6PrefixLength: faucet.ipv6PrefixLength });
  // Wallets across networks (docs/portfolio.md): the token, NFT and price products' reads, the index's history.
  const portfolio = portfolioApi({
    db: database.db,
    networks: faucetNetworks.filter(speaksEvmRpc),
    networkIdOf: names.idOf,
    pools: node.pools,
    tokens: node.tokens,
    localWorld: prices.api.localWorld,
    prices: prices.api,
    nfts: nftApis,
    nftContracts: nfts.sources.contracts,
    indexReady,
  });
  // The REST products behind an app key, admitted as JSON-RPC is: NFTs under each EVM network's {node_url}, prices and portfolios on the site.
  const rest = createRestDoor({
    admission: node.admission,
    siteOrigin: origin,
    networks: node.gateway.networks,
    nodeUrlOf: (network) => nodeUrlOf(network, { siteOrigin: origin, nodeDomain: node.nodeDomain }),
    products: [
      mountProduct(restProducts.nft, nftApis),
      mountProduct(restProducts.nftMarket, markets),
      mountProduct(restProducts.prices, () => prices.api),
      mountProduct(restProducts.portfolio, () => portfolio),
    ],
    bodies,
  });

  // The MCP server (docs/mcp.md): tools from the method registry, the REST products and the faucet's operations.
  const mcp = loadMcpServer({
    origin,
    distDir: server.distDir,
    surface,
    networks: faucetNetworks,
    node: { gateway: node.gateway, admission: node.admission, nodeDomain: node.nodeDomain, leastCharge: node.leastCharge },
    rest,
    siteApi: api.router,
    developmentCaptcha: faucet.captcha.kind === 'development',
    jsonMaxDepth: server.jsonMaxDepth,
    log,
  });

  // The workers that run inside the server (each *_IN_SERVER setting), over the gateway's pools.
  prices.start(node.pools, role === 'server' ? 'endpoints' : 'server');
  if (indexer) {
    registerIndexerMetrics(node.metrics.registry, indexer);
    indexer.start();
  }
  delivery?.start();
  transactions.start(node.pools);

  return {
    router: api.router,
    node: { gateway: node.gateway, nodeDomain: node.nodeDomain, networkIdOf: names.idOf },
    rest,
    media: nfts.media,
    mcp: mcp.endpoint,
    webSockets: {
      gateway: node.gateway,
      nodeDomain: node.nodeDomain,
      networkIdOf: names.idOf,
      ipv6PrefixLength: faucet.ipv6PrefixLength,
      ...node.webSocket,
      limits: server.jsonMaxDepth === undefined ? undefined : { maxJsonDepth: server.jsonMaxDepth },
      onKeysForgotten: node.onKeysForgotten,
    },
    readiness: createReadiness({ database, pingRedis: node.pingRedis, pools: node.pools, upstreamsInUse: node.upstreamsInUse }),
    async close() {
      await Promise.all([
        api.close(),
        prices.close(),
        node.close(),
        indexer?.close(),
        delivery?.close(),
        transactions.close(),
        nfts.close(),
        dashboard.close(),
      ]);
      await database.close();
      await devnets?.stop();
    },
  };
}
