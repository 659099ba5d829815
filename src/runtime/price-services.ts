import { loadFaucetNetworks, speaksEvmRpc } from '../chain/networks.ts';
import { WORLD_PRICE_SOURCES } from '../chain/world/price-layer.ts';
import { buildConfig, databaseConfig, nodeConfig, platformConfig, pricesConfig } from '../config/config.ts';
import type { PricesConfig } from '../config/prices.ts';
import { openDatabase, type Database } from '../db/open.ts';
import { chainOverPool } from './adapters/contract-reader-over-pool.ts';
import { createUpstreamPool, type UpstreamPool } from '../node/upstreams/upstream-pool.ts';
import { loadTokenList } from '../token-list/token-list.ts';
import { loadNetworkNames } from '../site/read-content.ts';
import type { ContractReader } from '../chain/contract-reader.ts';
import type { PricesApi } from '../prices/api/operations.ts';
import { backfillHistory } from '../prices/backfill.ts';
import { createExchangeTickers } from '../prices/exchange-tickers.ts';
import { planPrices, type PricePlan } from '../prices/plan.ts';
import { createPriceSampler, type PriceSampler } from '../prices/sampler.ts';

// Prices as the server and the worker run them (docs/prices.md#sampling), configured from the token list and
// the environment: the plan, the sampler over the gateway's upstream pools and the exchanges' HTTP
// clients, and what the endpoints read.

/** Exchange candles fill the history again daily: a day's boundaries the sampler missed (it was down) get the exchanges' closes. */
const BACKFILL_EVERY_MS = 24 * 3600_000;

export interface PriceServices {
  config: PricesConfig;
  plan: PricePlan;
  sampler: PriceSampler;
  /** What the endpoints read (the keyed REST door admits and charges their calls). */
  api: PricesApi;
  /** The gateway's pools, once they exist; starts the sampler when PRICES_IN_SERVER is on (`server`), always (`worker`) or never (`endpoints`: another process samples). */
  start(pools: ReadonlyMap<string, UpstreamPool>, mode: 'server' | 'worker' | 'endpoints'): void;
  close(): Promise<void>;
}

export async function loadPriceServices(options: {
  root: string;
  origin: string;
  database: Database;
  local: boolean;
  onError?(error: unknown): void;
}): Promise<PriceServices> {
  const config = pricesConfig({ local: options.local });
  const networks = await loadFaucetNetworks(options.root);
  const upstreams = nodeConfig(networks).upstreams;
  const ids = new Set(networks.map((network) => network.id));
  const names = await loadNetworkNames(options.root);
  const localWorld = (network: string) => options.local && (upstreams[network]?.length ?? 0) === 0;
  // The world's pools and feeds are read where a devnet carries them.
  const worldNetwork = config.worldNetwork !== null && ids.has(config.worldNetwork) && localWorld(config.worldNetwork) ? config.worldNetwork : null;
  const list = await loadTokenList(options.root, { siteOrigin: options.origin });
  const plan = planPrices(list.entries, { worldNetwork, world: WORLD_PRICE_SOURCES, exchanges: config.exchanges });

  const exchanges = createExchangeTickers(plan, config);
  const markets = exchanges.markets;
  let pools: ReadonlyMap<string, UpstreamPool> = new Map();
  let backfillTimer: NodeJS.Timeout | null = null;
  let backfilling: Promise<unknown> = Promise.resolve();
  const chains = new Map<string, ContractReader>();
  const sampler = createPriceSampler({
    db: options.database.db,
    plan,
    chainOf(network) {
      const pool = pools.get(network);
      if (!pool) return null;
      if (!chains.has(network)) chains.set(network, chainOverPool(pool));
      return chains.get(network)!;
    },
    exchangeTicker: exchanges.ticker,
    periodMs: config.sampleMs,
    aggregate: { maxAgeMs: config.maxAgeMs, madThreshold: config.madThreshold },
    onError: options.onError,
  });
  return {
    config,
    plan,
    sampler,
    api: {
      db: options.database.db,
      plan,
      localWorld,
      networkIdOf: names.idOf,
      // Three periods without a round: the sampler has stopped, and its last price is not current.
      staleAfterMs: 3 * config.sampleMs,
    },
    start(gatewayPools, mode) {
      pools = gatewayPools;
      if (mode === 'endpoints' || (mode === 'server' && !config.inServer)) return;
      sampler.start();
      if (markets.size === 0) return;
      const backfill = () =>
        backfillHistory({ db: options.database.db, markets: [...markets.values()], now: Date.now(), madThreshold: config.madThreshold }).catch(options.onError);
      backfilling = backfill();
      backfillTimer = setInterval(() => void (backfilling = backfill()), BACKFILL_EVERY_MS).unref();
    },
    async close() {
      if (backfillTimer) clearInterval(backfillTimer);
      await Promise.all([sampler.stop(), backfilling]);
    },
  };
}

/**
 * `npm run worker -- prices`: the sampler as a process of its own, over the database and each EVM
 * network's configured upstreams (a worker of its own cannot reach the devnets `npm start` runs, so
 * there it samples real networks and exchanges only).
 */
export async function loadPriceWorker(options: { root: string; onError?(error: unknown): void }): Promise<PriceServices & { networks: string[] }> {
  const networks = await loadFaucetNetworks(options.root);
  const node = nodeConfig(networks);
  const reachable = networks.filter(speaksEvmRpc).filter((network) => (node.upstreams[network.id]?.length ?? 0) > 0);
  const pools = new Map(
    reachable.map((network) => [network.id, createUpstreamPool({ urls: async () => node.upstreams[network.id]!, timeoutMs: node.upstreamTimeoutMs })]),
  );
  const database = await openDatabase(databaseConfig());
  try {
    const local = platformConfig().mode === 'local';
    const services = await loadPriceServices({ root: options.root, origin: buildConfig().siteOrigin, database, local, onError: options.onError });
    services.start(pools, 'worker');
    return {
      ...services,
      networks: [...pools.keys()],
      async close() {
        await services.close();
        for (const pool of pools.values()) pool.close();
        await database.close();
      },
    };
  } catch (error) {
    for (const pool of pools.values()) pool.close();
    await database.close();
    throw error;
  }
}
