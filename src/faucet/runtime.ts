import { createFaucetChains } from '../chain/faucet-chains.ts';
import { createMainnetReader } from '../chain/mainnet.ts';
import { loadFaucetNetworks, type FaucetNetwork } from '../chain/networks.ts';
import { readFaucetConfig, type FaucetConfig } from '../config/faucet.ts';
import { createRedisLock } from '../store/redis-lock.ts';
import { connectRedis, createRedisLimitStore, type RedisClient } from '../store/redis.ts';
import { openSqliteStore } from '../store/sqlite.ts';
import type { FaucetStore } from '../store/types.ts';
import { createDevelopmentVerifier, createTurnstileVerifier } from './captcha.ts';
import { hashIp } from './ip-hash.ts';
import { createFaucet, type Faucet } from './service.ts';

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
  /** Default: process.env. */
  env?: Record<string, string | undefined>;
  /** Default: read from content/networks/ (CRUCIBLE_CONTENT_DIR). */
  networks?: FaucetNetwork[];
}

export async function startFaucetRuntime(options: FaucetRuntimeOptions = {}): Promise<FaucetRuntime> {
  const networks = options.networks ?? (await loadFaucetNetworks());
  const config = readFaucetConfig(options.env ?? process.env, networks);

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

  const chains = createFaucetChains({
    config,
    crossProcessLock: sharedRedis
      ? (networkId, faucetAddress) => createRedisLock(sharedRedis, `crucible:faucet:sender-lock:${networkId}:${faucetAddress.toLowerCase()}`)
      : undefined,
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
    hashIp: (ip) => hashIp(ip, config.ipHashSalt),
  });

  return {
    faucet,
    config,
    networks,
    store,
    async close() {
      await chains.close();
      await sharedRedis?.close();
      await sqlite.close();
    },
  };
}
