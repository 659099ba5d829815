import { createAccountStore } from '../accounts/store.ts';
import { createSessionStore } from '../accounts/sessions.ts';
import { createAttemptLimits } from '../accounts/attempt-limits.ts';
import { loadAppKeySecret } from '../apps/key-secret.ts';
import { createAppStore } from '../apps/store.ts';
import { dashboardConfig, databaseConfig, nodeConfig } from '../config/config.ts';
import type { Database } from '../db/open.ts';
import { createMemoryRateLimiter } from '../limits/memory-rate-limiter.ts';
import { createRedisRateLimiter } from '../limits/redis-rate-limiter.ts';
import { loadNetworkNames, loadNetworks } from '../site/read-content.ts';
import { nodeUrlOf } from '../site/urls.ts';
import { connectRedis } from '../store/redis.ts';
import { createAccountTokens } from '../accounts/auth-tokens.ts';
import type { DashboardApi } from '../dashboard/api.ts';

// The dashboard as the server runs it (docs/dashboard.md#endpoints): accounts, sessions and the apps over the
// process's database, sign-in and sign-up limits in memory or in Redis (REDIS_URL, shared by every
// process), the caps and password hashing of DASHBOARD_* (src/config/dashboard.ts), and the
// networks with their `{node_url}` from the same configuration as the gateway's.

export interface DashboardServices {
  api: DashboardApi;
  close(): Promise<void>;
}

export async function loadDashboard(options: {
  root: string;
  /** The site's origin. */
  origin: string;
  database: Database;
  /** Local mode: cookies without Secure (the site is served over http). */
  local: boolean;
  redisUrl: string | null;
  ipv6PrefixLength: number;
  /** The gateway's: forgets the keys it remembers (see DashboardApi.keysChanged). */
  keysChanged?: () => void;
  /** Server processes sharing the sign-in limits: without Redis each enforces its share; default 1. */
  processes?: number;
}): Promise<DashboardServices> {
  const records = await loadNetworks(options.root);
  const { nodeDomain } = nodeConfig(records);
  const networks = records.map((network) => ({
    id: network.id,
    name: network.name,
    nodeUrl: nodeUrlOf(network.id, { siteOrigin: options.origin, nodeDomain }),
  }));
  const apps = createAppStore(options.database, {
    keySecret: await loadAppKeySecret(databaseConfig()),
    networks: networks.map((network) => network.id),
    networkIdOf: (await loadNetworkNames(options.root)).idOf,
  });
  const config = dashboardConfig();
  const redis = options.redisUrl ? await connectRedis(options.redisUrl) : null;
  const { db } = options.database;
  return {
    api: {
      accounts: createAccountStore(db, { hashing: { concurrency: config.scryptConcurrency, queue: config.scryptQueue } }),
      sessions: createSessionStore(db),
      attemptLimits: createAttemptLimits(redis ? createRedisRateLimiter(redis) : createMemoryRateLimiter({ processes: options.processes }), {
        signInsPerEmailAndIp: config.signInsPerEmailAndIp,
        signInsPerIp: config.signInsPerIp,
        signUpsPerIp: config.signUpsPerIp,
        ipv6PrefixLength: options.ipv6PrefixLength,
      }),
      apps,
      maxAppsPerAccount: config.appsPerAccount,
      tokens: createAccountTokens(db),
      db,
      networks,
      siteOrigin: options.origin,
      secureCookies: !options.local,
      ...(options.keysChanged && { keysChanged: options.keysChanged }),
    },
    async close() {
      await redis?.quit();
    },
  };
}
