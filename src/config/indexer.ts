import { z } from 'zod';
import type { Env } from './env.ts';
import { envSuffixOf } from './faucet.ts';
import { readNodeConfig } from './node.ts';
import { positive, wholeNumber as wholeNumberFrom } from './numbers.ts';
import { ConfigError } from './config-error.ts';
import { readConfigVariable } from './variable.ts';

// The transfer indexer's configuration (src/indexer/), validated; a bad value stops start-up with
// a message naming the variable. Every variable is listed in .env.example. A network's JSON-RPC
// URLs are the node gateway's (NODE_UPSTREAMS_<ID>, else RPC_URL_<ID>): one setting per network.

export interface IndexerConfig {
  /** INDEXER_IN_SERVER (on|off, default on): the server runs the indexer beside the gateway; off when workers do. */
  inServer: boolean;
  /**
   * INDEXER_NETWORKS: the network ids to index from the start (`all`: every network). null: every
   * network with an upstream from the start, and in local mode every other devnet from its first use.
   */
  networks: string[] | null;
  /** Upstream URLs per network id; empty where none is configured. */
  rpcUrls: Record<string, string[]>;
  /** INDEXER_START_BLOCK_<ID>: the first block of a network never indexed before; absent: 0. */
  startBlocks: Record<string, number>;
  confirmations: number;
  pollIntervalMs: number;
  maxBlockRange: number;
  maxLogsPerRange: number;
  reorgWindow: number;
  blocksPerStep: number;
  leaseMs: number;
  rpcTimeoutMs: number;
  /** INDEXER_CATCH_UP_WAIT_MS: how long the first index answer on a devnet followed from its first use waits for the index to reach the head. */
  catchUpWaitMs: number;
}

const wholeNumber = wholeNumberFrom();

const read = <T>(env: Env, name: string, schema: z.ZodType<T, string>, fallback: T): T => readConfigVariable(env, 'indexer', name, schema, fallback);

export function readIndexerConfig(env: Env, networks: ReadonlyArray<{ id: string }>): IndexerConfig {
  const ids = networks.map((network) => network.id);
  const bySuffix = new Map(ids.map((id) => [envSuffixOf(id), id]));
  const startBlocks: Record<string, number> = {};
  for (const name of Object.keys(env)) {
    const suffix = /^INDEXER_START_BLOCK_(.+)$/.exec(name)?.[1];
    if (suffix === undefined) continue;
    const id = bySuffix.get(suffix);
    if (!id) throw new ConfigError(`Invalid indexer configuration: ${name} does not name a network (known: ${[...bySuffix.keys()].join(', ')}).`);
    startBlocks[id] = read(env, name, wholeNumber, 0);
  }
  const listed = read(
    env,
    'INDEXER_NETWORKS',
    z
      .string()
      .transform((value) =>
        value.trim() === 'all'
          ? ids
          : value
              .split(',')
              .map((id) => id.trim())
              .filter(Boolean),
      )
      .pipe(
        z.array(z.enum(ids as [string, ...string[]], { error: (issue) => `names ${String(issue.input)}, which is no network (known: ${ids.join(', ')})` })),
      ),
    null,
  );
  const node = readNodeConfig(env, networks);
  const confirmations = read(env, 'INDEXER_CONFIRMATIONS', wholeNumber, 0);
  const reorgWindow = read(env, 'INDEXER_REORG_WINDOW', positive, 128);
  if (reorgWindow <= confirmations) {
    throw new ConfigError(
      `Invalid indexer configuration: INDEXER_REORG_WINDOW (${reorgWindow}) must be larger than INDEXER_CONFIRMATIONS (${confirmations}): reorgs are rolled back within the window. See .env.example.`,
    );
  }
  return {
    inServer: read(env, 'INDEXER_IN_SERVER', z.enum(['on', 'off'], { error: 'must be on or off' }), 'on') === 'on',
    networks: listed,
    rpcUrls: node.upstreams,
    startBlocks,
    confirmations,
    pollIntervalMs: read(env, 'INDEXER_POLL_INTERVAL_MS', positive, 1000),
    maxBlockRange: read(env, 'INDEXER_MAX_BLOCK_RANGE', positive, 2000),
    maxLogsPerRange: read(env, 'INDEXER_MAX_LOGS_PER_RANGE', positive, 10_000),
    reorgWindow,
    blocksPerStep: read(env, 'INDEXER_BLOCKS_PER_STEP', positive, 32),
    leaseMs: read(env, 'INDEXER_LEASE_MS', positive, 30_000),
    rpcTimeoutMs: node.upstreamTimeoutMs,
    catchUpWaitMs: read(env, 'INDEXER_CATCH_UP_WAIT_MS', wholeNumber, 60_000),
  };
}
