import type { FaucetChainOptions } from '../chain/faucet-chain.ts';
import { createFaucetChains } from '../chain/faucet-chains.ts';
import type { LocalDevnets } from '../chain/local-devnets.ts';
import { createMainnetReader } from '../chain/mainnet.ts';
import { loadFaucetNetworks, type FaucetNetwork } from '../chain/networks.ts';
import { faucetConfig } from '../config/config.ts';
import { readFaucetConfig, type FaucetConfig } from '../config/faucet.ts';
import { createRedisLock } from '../store/redis-lock.ts';
import { connectRedis, createRedisLimitStore, type RedisClient } from '../store/redis.ts';
import { openSqliteStore } from '../store/sqlite.ts';
import type { FaucetStore } from '../store/types.ts';
import { createDevelopmentVerifier, createTurnstileVerifier } from '../faucet/captcha.ts';
import { describeCause } from '../faucet/cause.ts';
import { hashIp } from '../faucet/ip-hash.ts';
import { createFaucet, type Faucet } from '../faucet/service.ts';

// Wires the faucet from its configuration: the one call the server makes at start.

export interface FaucetRuntime {
  faucet: Faucet;
  config: FaucetConfig;
  networks: FaucetNetwork[];
  /** The store the faucet uses (ledger reads for operators and tests). */
  store: FaucetStore;
  /** Stops local devnets and closes Redis and SQLite. */
  close(): Promise<void>;
}

export interface FaucetRuntimeOptions {
  /** Default: the process environment (src/config/config.ts). */
  env?: Record<string, string | undefined>;
  /** Default: read from content/networks/ (CRUCIBLE_CONTENT_DIR). */
  networks?: FaucetNetwork[];
  /** How often unsettled drips are reconciled with the chain (default FAUCET_RECONCILE_INTERVAL_SECONDS). */
  reconcileIntervalMs?: number;
  /** How old an unsettled drip must be to be reconciled (default FAUCET_SETTLE_AFTER_SECONDS). */
  settleAfterMs?: number;
  /** Local devnets shared with the node gateway (src/node/); default: the faucet's own. */
  devnets?: LocalDevnets;
  /** Sender settings (tests shorten the mempool watch). */
  chainOptions?: Pick<FaucetChainOptions, 'watchIntervalMs' | 'feeMaxAgeMs' | 'maxNonceRetries'>;
}

export async function startFaucetRuntime(options: FaucetRuntimeOptions = {}): Promise<FaucetRuntime> {
  const networks = options.networks ?? (await loadFaucetNetworks());
  const config = options.env ? readFaucetConfig(options.env, networks) : faucetConfig(networks);

  const sqlite = openSqliteStore(config.databasePath);
  let redis: RedisClient | null = null;
  let store: FaucetStore = sqlite;
  try {
    if (config.redisUrl) {
      redis = await connectRedis(config.redisUrl);
      // Limits and tokens shared through Redis; the ledger stays in this process's SQLite file.
      store = { ...sqlite, ...createRedisLimitStore(redis) };
    }
  } catch (error) {
    await sqlite.close();
    throw error;
  }
  const sharedRedis = redis;

  const logError = (message: string, error: unknown) =>
    console.error(JSON.stringify({ level: 'error', component: 'faucet', message, cause: describeCause(error) }));
  const chains = createFaucetChains({
    config,
    devnets: options.devnets,
    crossProcessLock: sharedRedis
      ? (networkId, faucetAddress) => createRedisLock(sharedRedis, `crucible:faucet:sender-lock:${networkId}:${faucetAddress.toLowerCase()}`)
      : undefined,
    chainOptions: {
      ...options.chainOptions,
      logError,
      onReplaced: (original, replacement) =>
        void store.replaceDrip(original, replacement).catch((error: unknown) => logError(`recording the replacement of ${original} failed`, error)),
    },
  });
  const captcha = config.captcha.kind === 'development' ? createDevelopmentVerifier() : createTurnstileVerifier({ ...config.captcha, tokens: store });
  const faucet = createFaucet({
    networks,
    captcha,
    store,
    chains,
    antiSybil: config.antiSybil && {
      reader: createMainnetReader(config.antiSybil.mainnetRpcUrl),
      minBalanceWei: config.antiSybil.minBalanceWei,
      minTxCount: config.antiSybil.minTxCount,
    },
    perIpLimit: config.perIpLimit,
    statusPollLimit: config.statusPollLimit,
    ipv6PrefixLength: config.ipv6PrefixLength,
    hashIp: (ip) => hashIp(ip, config.ipHashSalt),
    settleAfterMs: options.settleAfterMs ?? config.reconcile.settleAfterMs,
    logError,
  });
  // Settles what an earlier run (or an unknown broadcast) left, now and then periodically.
  const reconcile = () => void faucet.reconcile().catch((error: unknown) => logError('reconciling unsettled drips failed', error));
  reconcile();
  const reconciler = setInterval(reconcile, options.reconcileIntervalMs ?? config.reconcile.intervalMs).unref();

  return {
    faucet,
    config,
    networks,
    store,
    async close() {
      clearInterval(reconciler);
      await chains.close();
      await sharedRedis?.close();
      await sqlite.close();
    },
  };
}
