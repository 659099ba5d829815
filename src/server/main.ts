import { fileURLToPath } from 'node:url';
import { clientIp } from '../api/client-ip.ts';
import { loadSiteApi } from '../runtime/site-api.ts';
import type { BuildEnvironment } from '../config/build-environment.ts';
import { createLocalDevnets } from '../chain/local-devnets.ts';
import { loadFaucetNetworks, speaksEvmRpc } from '../chain/networks.ts';
import { buildConfig, databaseConfig, faucetConfig, platformConfig, serverConfig, webhooksConfig } from '../config/config.ts';
import { openDatabase } from '../db/open.ts';
import { loadServerTransferIndexer } from '../runtime/transfer-indexer.ts';
import { registerIndexerMetrics } from '../indexer/metrics.ts';
import { loadNftServices } from '../runtime/nft-services.ts';
import { nftApisOf } from '../nfts/api/handlers.ts';
import { loadNodeRuntime } from '../runtime/node-access.ts';
import { nodeUrlOf } from '../node/node-url.ts';
import { loadPriceServices } from '../runtime/price-services.ts';
import { createRestDoor, mountProduct } from '../rest/door.ts';
import { restProducts } from '../runtime/rest-products.ts';
import { loadDashboard } from '../runtime/dashboard-services.ts';
import { attachNodeWebSockets } from '../node/websocket/attach.ts';
import { ConfigError } from '../config/config-error.ts';
import { refuseLocalModeOnNetwork, type ServerConfig } from '../config/server.ts';
import { createServerLogger } from './log.ts';
import { headerValue } from './node-adapter.ts';
import { createAccountTokens } from '../accounts/auth-tokens.ts';
import { loadServerDeliveryWorker } from '../runtime/webhook-delivery.ts';
import { createWebhookStore } from '../webhooks/store.ts';
import { createSiteServer, listen } from './server.ts';
import { openStaticSite } from './static-site.ts';
import { loadSurfaceRules } from './surface-rules.ts';

// Entry point of the production server: `node src/server/main.ts` (npm start runs it after
// building when needed). Configuration comes from the environment and `.env` (see .env.example).

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

export async function startSiteServer(config: ServerConfig): Promise<RunningServer> {
  const logger = createServerLogger({ requests: config.requestLog });
  const rules = await loadSurfaceRules(config.distDir);
  refuseOtherBuild(rules.environment, buildConfig());
  const site = await openStaticSite(config.distDir, rules);
  // Local mode: one devnet per network, shared by the faucet and the node gateway, so a drip is
  // visible through the node API.
  // Each devnet carries the local world, kept across restarts beside the database.
  const platform = platformConfig();
  const local = platform.mode === 'local';
  refuseLocalModeOnNetwork(config, { local });
  const faucetNetworks = await loadFaucetNetworks(projectRoot);
  const faucet = faucetConfig(faucetNetworks);
  const devnets = local
    ? createLocalDevnets({ blockTimeSeconds: faucet.anvilBlockTimeSeconds, stateDir: faucet.devnetStateDir, siteOrigin: rules.site })
    : null;
  // One database for the gateway and the indexer (SQLite wants one connection per process).
  const database = await openDatabase(databaseConfig());
  const indexer = await loadServerTransferIndexer({ root: projectRoot, devnets, database });
  // NFT webhooks (platform §6): their API over the same database, and the delivery worker unless WEBHOOKS_IN_SERVER=off.
  // The networks that speak the EVM's JSON-RPC: webhooks and NFT data are theirs.
  const webhookNetworks = faucetNetworks.filter(speaksEvmRpc).map((network) => network.id);
  const webhookStore = createWebhookStore(database.db, { networks: webhookNetworks, urlRules: { local }, maxPerOwner: webhooksConfig({ local }).perAccount });
  const webhooks = { tokens: createAccountTokens(database.db), store: webhookStore };
  const delivery = await loadServerDeliveryWorker({ local, database });
  // NFT metadata, media and contract facts (platform §5), read through the gateway's upstreams.
  const nfts = await loadNftServices({ root: projectRoot, origin: rules.site, database, indexedNetworks: indexer?.networks ?? [], local });
  const node = await loadNodeRuntime({
    root: projectRoot,
    origin: rules.site,
    devnets,
    redisUrl: faucet.redisUrl,
    ipv6PrefixLength: faucet.ipv6PrefixLength,
    jsonMaxDepth: config.jsonMaxDepth,
    database,
  });
  for (const warning of [...platform.warnings, ...node.configWarnings]) logger.info('setting renamed', { warning });
  nfts.start(node.pools);
  // Token prices (platform §7): the sampler over the same pools, the endpoints under the same keys.
  const prices = await loadPriceServices({
    root: projectRoot,
    origin: rules.site,
    database,
    local,
    onError: (error) => logger.error('price sampling failed', { error: error instanceof Error ? error.message : String(error) }),
  });
  // The developer dashboard (platform §8): accounts and sessions over the same database and apps.
  const dashboard = await loadDashboard({
    root: projectRoot,
    origin: rules.site,
    database,
    local,
    redisUrl: faucet.redisUrl,
    ipv6PrefixLength: faucet.ipv6PrefixLength,
    keysChanged: node.forgetKeys,
  });
  // Nothing is read or parsed for a client before it pays (README, "Server limits").
  const bodies = {
    jsonMaxDepth: config.jsonMaxDepth,
    perClient: { limiter: node.rateLimiter, ...config.apiBodyLimit, ipv6PrefixLength: faucet.ipv6PrefixLength },
  };
  const api = await loadSiteApi({
    root: projectRoot,
    origin: rules.site,
    devnets: devnets ?? undefined,
    indexerStatus: indexer ? () => indexer.status() : undefined,
    webhooks,
    dashboard: dashboard.api,
    bodies,
  });
  // The REST products behind an app key, admitted as JSON-RPC is: NFTs under each EVM network's {node_url}, prices on the site.
  const rest = createRestDoor({
    admission: node.admission,
    siteOrigin: rules.site,
    networks: node.gateway.networks,
    nodeUrlOf: (network) => nodeUrlOf(network, { siteOrigin: rules.site, nodeDomain: node.nodeDomain }),
    products: [
      mountProduct(restProducts.nft, nftApisOf(webhookNetworks, { db: database.db, ...nfts.sources })),
      mountProduct(restProducts.prices, () => prices.api),
    ],
    bodies,
  });
  prices.start(node.pools, 'server');
  if (indexer) {
    registerIndexerMetrics(node.metrics.registry, indexer);
    indexer.start();
  }
  delivery?.start();
  const server = createSiteServer({
    site,
    router: api.router,
    node: { gateway: node.gateway, nodeDomain: node.nodeDomain },
    rest,
    media: nfts.media,
    origin: rules.site,
    trustProxy: config.trustProxy,
    logger,
  });
  const websockets = attachNodeWebSockets(server, {
    gateway: node.gateway,
    nodeDomain: node.nodeDomain,
    clientIp: (req) => clientIp({ socketAddress: req.socket.remoteAddress, header: (name) => headerValue(req, name) }, config.trustProxy),
    ipv6PrefixLength: faucet.ipv6PrefixLength,
    ...node.webSocket,
    limits: config.jsonMaxDepth === undefined ? undefined : { maxJsonDepth: config.jsonMaxDepth },
    onKeysForgotten: node.onKeysForgotten,
    logger,
  });
  const url = await listen(server, config.port, config.host);
  logger.info('listening', { url, distDir: config.distDir, trustProxy: config.trustProxy.mode });
  return {
    url,
    async close() {
      // Open WebSockets would keep server.close from resolving.
      await websockets.close();
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeIdleConnections();
      await closed;
      await Promise.all([api.close(), prices.close(), node.close(), indexer?.close(), delivery?.close(), nfts.close(), dashboard.close()]);
      await database.close();
      await devnets?.stop();
    },
  };
}

/**
 * Pages carry what they were built with: the faucet pages' Turnstile widget (whose tokens this
 * server checks) and the node URLs the RPC and faucet pages show. A build for another site key,
 * action or NODE_DOMAIN would refuse every visitor or send them elsewhere, so the server does not
 * start on one.
 */
function refuseOtherBuild(built: Record<string, string | null> | null, now: BuildEnvironment): void {
  if (!built) return;
  for (const [field, variable] of [
    ['turnstileSiteKey', 'TURNSTILE_SITE_KEY'],
    ['turnstileAction', 'TURNSTILE_ACTION'],
    ['nodeDomain', 'NODE_DOMAIN'],
  ] as const) {
    if ((built[field] ?? null) !== now[field]) {
      throw new ConfigError(
        `${variable} is ${JSON.stringify(now[field])}, but the pages in the built site were built with ${JSON.stringify(built[field] ?? null)}: rebuild the site (npm run build) with the same value.`,
      );
    }
  }
}

/** Starts the server and stops it cleanly on SIGINT/SIGTERM; exits with a message if it cannot start. */
export async function serveUntilStopped(readConfig: () => ServerConfig): Promise<RunningServer> {
  try {
    const running = await startSiteServer(readConfig());
    let stopping = false;
    const stop = () => {
      // A second signal while stopping: leave now (anvil children are killed on exit).
      if (stopping) process.exit(1);
      stopping = true;
      // Give in-flight requests a moment, then leave even if a client holds a connection.
      setTimeout(() => process.exit(0), 3_000).unref();
      void running.close().then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(`Crucible server did not stop cleanly: ${error instanceof Error ? error.message : String(error)}`);
          process.exit(1);
        },
      );
    };
    // `on`, not `once`: src/chain/anvil.ts re-raises the signal (and so ends the process before
    // the faucet's stores are closed) when it finds no other listener left.
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, stop);
    return running;
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : `Crucible server failed to start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

if (import.meta.main) await serveUntilStopped(serverConfig);
