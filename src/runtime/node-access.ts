import { isDemoKey } from '../apps/demo.ts';
import { loadAppKeySecret } from '../apps/key-secret.ts';
import { createAppStore } from '../apps/store.ts';
import { createUsageMeter } from '../apps/usage-meter.ts';
import type { LocalDevnets } from '../chain/local-devnets.ts';
import { databaseConfig, nodeConfig } from '../config/config.ts';
import { openDatabase, type Database } from '../db/open.ts';
import { createTokenMetadataReader, type TokenMetadataReader } from '../tokens/metadata.ts';
import { loadTokenList, type TokenList } from '../token-list/token-list.ts';
import { createMemoryQuotaCounter } from '../limits/memory-quota.ts';
import { createMemoryRateLimiter } from '../limits/memory-rate-limiter.ts';
import { monthResetAt } from '../limits/month.ts';
import { createRedisQuotaCounter } from '../limits/redis-quota.ts';
import type { RateLimiter } from '../limits/rate-limiter.ts';
import { createRedisRateLimiter } from '../limits/redis-rate-limiter.ts';
import { loadNetworkNames, loadNetworks } from '../site/read-content.ts';
import { connectRedis } from '../store/redis.ts';
import type { WebSocketSettings } from '../config/node.ts';
import { createKeyLookup } from '../admission/callers.ts';
import { CHEAPEST_PAID_COMPUTE_UNITS } from '../node/rpc/registry.ts';
import { serveMetrics } from '../node/metrics.ts';
import { startNodeRuntime, type NodeRuntime, type NodeRuntimeOptions } from './node-gateway.ts';
import { databaseTokenIndex } from './adapters/database-token-index.ts';
import { createMemoryWebSocketHolds, type WebSocketHolds } from '../node/websocket/holds.ts';
import { createRedisWebSocketHolds } from '../node/websocket/redis-holds.ts';

// The gateway as the server runs it, configured from the project's content and environment:
// the database (apps, usage), the limits (in memory, or in Redis with REDIS_URL so several
// processes share them) and the upstreams.

/** A token's name, symbol and decimals rarely change: each is read once an hour (docs/token-data.md#crucible_gettokenmetadata). */
const TOKEN_METADATA_CACHE = { ttlMs: 60 * 60 * 1000, max: 50_000 };

export interface LoadedNodeRuntime extends NodeRuntime {
  nodeDomain: string | null;
  /** What a key may hold over WebSocket, counted in this process or, with REDIS_URL, over every process. */
  webSocket: { settings: WebSocketSettings; holds: WebSocketHolds };
  /** Where the limits' buckets are (memory, or Redis with REDIS_URL): the API's per-client-IP body limit keeps its own there too. */
  rateLimiter: RateLimiter;
  /** Asks Redis for PONG (GET /readyz); null without REDIS_URL. */
  pingRedis: (() => Promise<void>) | null;
  /** Settings read under an old name (src/config/node.ts), for the start-up log. */
  configWarnings: readonly string[];
  /** What a message is charged before it is read (NODE_MIN_REQUEST_COMPUTE_UNITS, else the cheapest paid method's): the MCP server's messages pay it too. */
  leastCharge: number;
  /** The token list and the metadata cache the token methods read: the portfolio reads the same. */
  tokens: { metadata: TokenMetadataReader; list: TokenList };
  close(): Promise<void>;
}

export async function loadNodeRuntime(options: {
  root: string;
  origin: string;
  /** Local mode's devnets (shared with the faucet); null in production. */
  devnets: LocalDevnets | null;
  redisUrl: string | null;
  ipv6PrefixLength: number;
  /** How deeply a JSON-RPC body may nest (JSON_MAX_DEPTH); default the gateway's. */
  jsonMaxDepth?: number;
  /** The process's database (the transfer index is read from it), opened here when absent. */
  database?: Database;
  /** Settles when a network's index can answer (the server's indexer: a fresh devnet's first answer waits for it). */
  indexReady?: (network: string) => Promise<void>;
  /** Told of each transaction an app's key broadcast (the transaction webhooks' recorder). */
  onBroadcast?: NodeRuntimeOptions['onBroadcast'];
  /** Server processes sharing the limits: without Redis each enforces its share (src/limits/memory-rate-limiter.ts); default 1. */
  processes?: number;
}): Promise<LoadedNodeRuntime> {
  const networks = await loadNetworks(options.root);
  const config = nodeConfig(networks);
  const location = databaseConfig();
  const database = options.database ?? (await openDatabase(location));
  const opened: Array<() => Promise<unknown>> = options.database ? [] : [() => database.close()];
  // In reverse order, one at a time: the usage meter's last flush needs the database still open.
  const closeAll = async () => {
    for (const close of opened.reverse()) await close().catch(() => undefined);
  };
  try {
    const apps = createAppStore(database, {
      keySecret: await loadAppKeySecret(location),
      networks: networks.map((network) => network.id),
      networkIdOf: (await loadNetworkNames(options.root)).idOf,
    });
    const usage = createUsageMeter(database);
    opened.push(() => usage.close());
    // A process that first meets an app this month counts from what the database recorded.
    const seed = (key: string, month: string) => usage.monthComputeUnits(key.replace(/^app:/, ''), monthResetAt(month).getTime() - 1);
    const redis = options.redisUrl ? await connectRedis(options.redisUrl) : null;
    if (redis) opened.push(() => redis.quit());
    // Remembered for a second (src/admission/callers.ts); the dashboard makes this process forget them when a key changes.
    const keys = createKeyLookup({ findApp: (key) => apps.findByKey(key), isDemoKey });
    const rateLimiter = redis ? createRedisRateLimiter(redis) : createMemoryRateLimiter({ processes: options.processes });
    const tokens = {
      metadata: createTokenMetadataReader(TOKEN_METADATA_CACHE),
      list: await loadTokenList(options.root, { siteOrigin: options.origin }),
    };
    const runtime = startNodeRuntime({
      networks,
      config,
      devnets: options.devnets,
      keys,
      rateLimiter,
      quota: redis ? createRedisQuotaCounter(redis, seed) : createMemoryQuotaCounter(seed),
      usage,
      siteOrigin: options.origin,
      ipv6PrefixLength: options.ipv6PrefixLength,
      jsonMaxDepth: options.jsonMaxDepth,
      onBroadcast: options.onBroadcast,
      tokens: { indexOf: (network) => databaseTokenIndex(database.db, network, options.indexReady), ...tokens },
    });
    opened.push(async () => runtime.close());
    const holds = redis ? createRedisWebSocketHolds(redis) : createMemoryWebSocketHolds();
    opened.push(async () => holds.close());
    if (config.metrics) {
      const metricsServer = await serveMetrics(runtime.metrics, config.metrics);
      opened.push(() => new Promise((resolve) => metricsServer.close(resolve)));
    }
    return {
      ...runtime,
      nodeDomain: config.nodeDomain,
      webSocket: { settings: config.webSocket, holds },
      rateLimiter,
      pingRedis: redis ? async () => void (await redis.ping()) : null,
      configWarnings: config.warnings,
      leastCharge: config.minRequestComputeUnits ?? CHEAPEST_PAID_COMPUTE_UNITS,
      tokens,
      close: async () => void (await closeAll()),
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
