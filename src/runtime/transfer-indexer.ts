import { setTimeout as sleep } from 'node:timers/promises';
import type { LocalDevnets } from '../chain/local-devnets.ts';
import { loadFaucetNetworks, speaksEvmRpc, type FaucetNetwork } from '../chain/networks.ts';
import { databaseConfig, indexerConfig } from '../config/config.ts';
import type { IndexerConfig } from '../config/indexer.ts';
import { ConfigError } from '../config/config-error.ts';
import { openDatabase, type Database } from '../db/open.ts';
import { productIndexHooks } from './adapters/index-hooks.ts';
import { createTransferIndexer, type IndexerLogEntry, type TransferIndexer, type TransferIndexerNetwork } from '../indexer/indexer.ts';
import { indexerStatus, type NetworkIndexStatus } from '../transfers/queries.ts';

// The indexer as a process runs it, configured from the project's content and environment: the
// EVM networks of content/networks/, each over its configured upstream (the node gateway's URLs),
// followed from the start, or, in local mode, its devnet, followed from the devnet's first use (so
// every network serves every data method, and only the devnets in use run); INDEXER_NETWORKS names
// the networks to follow from the start instead. `npm run worker -- indexer` runs it alone; the
// server may run it beside the gateway on the database they share.

export interface LoadedTransferIndexer extends TransferIndexer {
  /** The network ids indexed, in order (a devnet's from its first use). */
  networks: string[];
  /**
   * Settles once the network's index can answer: at once, but for a devnet followed from its first
   * use whose index has not reached the head yet in this process, which it starts following and
   * waits for (INDEXER_CATCH_UP_WAIT_MS at most; then the answer is what the index holds).
   */
  ready(network: string): Promise<void>;
  /** Each indexed network's progress from the database (GET /api/indexer/status). */
  status(): Promise<NetworkIndexStatus[]>;
  /** Stops the indexer, then closes the database if it was opened here. */
  close(): Promise<void>;
}

type EvmNetwork = FaucetNetwork & { chainId: number };

export async function loadTransferIndexer(options: {
  root: string;
  /** Local mode's devnets: networks without an upstream are indexed on theirs. */
  devnets?: LocalDevnets | null;
  /** The process's database; opened (and closed by close()) here when absent. */
  database?: Database;
  log?: (entry: IndexerLogEntry) => void;
}): Promise<LoadedTransferIndexer> {
  const evmNetworks = (await loadFaucetNetworks(options.root)).filter(speaksEvmRpc);
  return startConfigured(options, evmNetworks, indexerConfig(evmNetworks));
}

/**
 * The indexer the server runs beside the gateway, or null: when INDEXER_IN_SERVER is off (workers
 * index), or when no network can be reached (production without upstreams serves no node API).
 */
export async function loadServerTransferIndexer(options: Parameters<typeof loadTransferIndexer>[0]): Promise<LoadedTransferIndexer | null> {
  const evmNetworks = (await loadFaucetNetworks(options.root)).filter(speaksEvmRpc);
  const config = indexerConfig(evmNetworks);
  const reachable = options.devnets || evmNetworks.some((network) => (config.rpcUrls[network.id]?.length ?? 0) > 0);
  if (!config.inServer || !reachable) return null;
  return startConfigured(options, evmNetworks, config);
}

/**
 * GET /api/indexer/status for the server: its own indexer's progress, or, when it does not index
 * (INDEXER_IN_SERVER=off and workers do, or no network it can reach), the same read from the
 * database the workers write: the networks a worker of this configuration indexes
 * (INDEXER_NETWORKS, else those with an upstream), or every network the database holds when none is named.
 */
export async function serverIndexerStatus(options: {
  root: string;
  database: Database;
  indexer: LoadedTransferIndexer | null;
}): Promise<() => Promise<NetworkIndexStatus[]>> {
  const { indexer, database } = options;
  if (indexer) return () => indexer.status();
  const evmNetworks = (await loadFaucetNetworks(options.root)).filter(speaksEvmRpc);
  const ids = indexedNetworks(evmNetworks, indexerConfig(evmNetworks), false).map((network) => network.id);
  return () => indexerStatus(database.db, ids.length > 0 ? { networks: ids } : {});
}

/** Each network's native coin, as its content file names it (address webhooks tell native transfers in it). */
function nativeCurrencies(evmNetworks: readonly EvmNetwork[]): (network: string) => { symbol: string; decimals: number } {
  const byId = new Map(evmNetworks.map((network) => [network.id, { symbol: network.symbol, decimals: network.decimals }]));
  return (network) => {
    const currency = byId.get(network);
    if (!currency) throw new Error(`no network ${network} in content/networks/`);
    return currency;
  };
}

/** The networks indexed: INDEXER_NETWORKS, else those with an upstream, and in local mode (`devnets`) every devnet, each from its first use. */
function indexedNetworks(evmNetworks: readonly EvmNetwork[], config: IndexerConfig, devnets: boolean): EvmNetwork[] {
  const upstream = (id: string) => (config.rpcUrls[id]?.length ?? 0) > 0;
  if (config.networks) return evmNetworks.filter((network) => config.networks!.includes(network.id));
  return evmNetworks.filter((network) => upstream(network.id) || devnets);
}

async function startConfigured(
  options: Parameters<typeof loadTransferIndexer>[0],
  evmNetworks: readonly EvmNetwork[],
  config: IndexerConfig,
): Promise<LoadedTransferIndexer> {
  const devnets = options.devnets ?? null;

  const upstream = (id: string) => (config.rpcUrls[id]?.length ?? 0) > 0;
  const chosen = indexedNetworks(evmNetworks, config, devnets !== null);
  // Devnets not named by INDEXER_NETWORKS are followed when they start: each holds 0.1–0.7 GB of anvil memory.
  const onFirstUse = new Set(config.networks ? [] : chosen.filter((network) => !upstream(network.id)).map((network) => network.id));
  const reachable = (id: string) => upstream(id) || devnets !== null;
  const unreachable = chosen.filter((network) => !reachable(network.id));
  if (unreachable.length > 0) {
    const names = unreachable.map((network) => network.id).join(', ');
    throw new ConfigError(`INDEXER_NETWORKS names ${names}, with no JSON-RPC URL: set NODE_UPSTREAMS_<ID> or RPC_URL_<ID> for each. See .env.example.`);
  }
  if (chosen.length === 0) {
    throw new ConfigError(
      'No network to index: set NODE_UPSTREAMS_<ID> or RPC_URL_<ID> for the networks to follow (a worker of its own cannot reach the local devnets `npm start` runs). See .env.example.',
    );
  }
  const networks: TransferIndexerNetwork[] = chosen.map((network) => {
    const rpcUrl = config.rpcUrls[network.id]?.[0];
    const common = { id: network.id, chainId: network.chainId, startBlock: config.startBlocks[network.id] };
    if (rpcUrl) return { ...common, rpcUrl };
    // A devnet starts on first use: on the follower's first call.
    return { ...common, rpcUrl: () => devnets!.rpcUrlFor(network) };
  });

  const database = options.database ?? (await openDatabase(databaseConfig()));
  const indexer = createTransferIndexer({
    db: database.db,
    networks,
    confirmations: config.confirmations,
    pollIntervalMs: config.pollIntervalMs,
    maxBlockRange: config.maxBlockRange,
    maxLogsPerRange: config.maxLogsPerRange,
    reorgWindow: config.reorgWindow,
    blocksPerStep: config.blocksPerStep,
    leaseMs: config.leaseMs,
    rpcTimeoutMs: config.rpcTimeoutMs,
    log: options.log,
    // Wherever the indexer runs, the products that follow the index write in its transactions.
    ...productIndexHooks({ reorgWindow: config.reorgWindow, nativeCurrency: nativeCurrencies(evmNetworks) }),
  });
  const ids = networks.map((network) => network.id);
  let stopFollowingStarts = () => {};
  /** Devnets whose index this process saw reach the head: their answers wait no more. */
  const reachedHead = new Set<string>();
  return {
    ...indexer,
    networks: ids,
    start() {
      for (const id of ids) if (!onFirstUse.has(id)) indexer.follow(id);
      if (!devnets || onFirstUse.size === 0) return;
      stopFollowingStarts = devnets.onStart((network) => {
        if (onFirstUse.has(network.id)) indexer.follow(network.id);
      });
    },
    async ready(network) {
      if (!onFirstUse.has(network) || reachedHead.has(network)) return;
      // Following a devnet starts it (on the follower's first call).
      indexer.follow(network);
      const waited = new AbortController();
      const reached = await Promise.race([
        indexer.caughtUp(network).then(() => true),
        sleep(config.catchUpWaitMs, false, { signal: waited.signal }).catch(() => false),
      ]);
      waited.abort();
      if (reached) reachedHead.add(network);
    },
    status: () => indexerStatus(database.db, { networks: ids }),
    async close() {
      stopFollowingStarts();
      await indexer.stop();
      if (!options.database) await database.close();
    },
  };
}
