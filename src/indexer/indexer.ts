import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { DatabaseSchema } from '../db/schema.ts';
import { redactUrls } from '../log/redact.ts';
import { createChainReader, type ChainSource } from './chain-reader.ts';
import { recordError } from './checkpoints.ts';
import { followStep, type FollowContext, type FollowSettings } from './follow-step.ts';
import type { IndexHooks } from '../transfers/index-events.ts';
import { CheckpointMovedError } from './index-writes.ts';
import { acquireLease, LeaseLostError, releaseLease, renewLease } from './lease.ts';
import { initialRangeSize } from './range-size.ts';

// The transfer indexer as a worker (docs/token-data.md#leadership): one loop per network, each leading its network
// through a database lease (a second process waits and takes over when the first stops or dies),
// stepping through blocks (follow-step.ts) until level with the confirmed head, then polling it.
// Failures are logged, recorded on the checkpoint row and retried with backoff.

export type TransferIndexerNetwork = ChainSource & {
  /** A network id (content/networks/). */
  id: string;
  /** The EIP-155 chain id the node must serve (checked when leadership begins): a wrong URL indexes nothing. */
  chainId?: number;
  /** First block to index when the network was never indexed; default 0. */
  startBlock?: number;
};

export interface IndexerLogEntry {
  level: 'info' | 'error';
  message: string;
  network: string;
  [field: string]: unknown;
}

export interface TransferIndexerOptions extends IndexHooks {
  db: Kysely<DatabaseSchema>;
  networks: readonly TransferIndexerNetwork[];
  /** Blocks at the head left unindexed; default 0 (reorgs at the head are rolled back). */
  confirmations?: number;
  /** Pause between polls of a head the index has caught up with; default 1000 ms. */
  pollIntervalMs?: number;
  /** Most blocks one eth_getLogs range spans while backfilling; default 2000. */
  maxBlockRange?: number;
  /** Logs one range should return at most (memory stays flat); default 10,000. */
  maxLogsPerRange?: number;
  /** Blocks at the head read one by one with their hashes kept; a deeper reorg re-indexes the network; default 128. */
  reorgWindow?: number;
  /** Blocks inside the reorg window read in one step; default 32. */
  blocksPerStep?: number;
  /** How long a leader's claim on a network lasts without renewal; default 30,000 ms. */
  leaseMs?: number;
  /** Each JSON-RPC call's timeout; default 10,000 ms. */
  rpcTimeoutMs?: number;
  /** Names this process in the lease rows; default host, pid and a random part. */
  holderId?: string;
  log?: (entry: IndexerLogEntry) => void;
  now?: () => number;
}

/** One network's progress in this process, for metrics. */
export interface NetworkProgress {
  network: string;
  /** This process holds the network's lease. */
  leading: boolean;
  head: number | null;
  indexedBlock: number | null;
  transfersIngested: number;
  reorgs: number;
  resets: number;
}

export interface TransferIndexer {
  /** Starts every network's loop; a second call does nothing. */
  start(): void;
  /** Starts one network's loop (a local devnet's, when the devnet starts); a second call does nothing. */
  follow(network: string): void;
  /** Settles when this process's loop of the network first finds its index level with the head. */
  caughtUp(network: string): Promise<void>;
  /** Ends the loops after their current step and gives up the leases held. */
  stop(): Promise<void>;
  progress(): NetworkProgress[];
}

const MAX_BACKOFF_MS = 30_000;
/** Holder-token pairs a leader remembers having stored (about 200 bytes each): the rest are written with ON CONFLICT DO NOTHING. */
const KNOWN_HOLDER_TOKENS = 100_000;

export function createTransferIndexer(options: TransferIndexerOptions): TransferIndexer {
  const now = options.now ?? Date.now;
  const holder = options.holderId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const settings: FollowSettings = {
    confirmations: options.confirmations ?? 0,
    reorgWindow: options.reorgWindow ?? 128,
    blocksPerStep: options.blocksPerStep ?? 32,
    range: { maxBlocks: options.maxBlockRange ?? 2000, maxLogs: options.maxLogsPerRange ?? 10_000 },
    leaseMs: options.leaseMs ?? 30_000,
  };
  // A lease is renewed at a third of its life, and a standby process asks for it as often.
  const renewEveryMs = Math.max(1, Math.floor(settings.leaseMs / 3));
  const log = options.log ?? defaultLog;
  const hooks: IndexHooks = { onTransfers: options.onTransfers, onReorg: options.onReorg, onReset: options.onReset, followedLogs: options.followedLogs };
  const stopping = new AbortController();
  const progress = new Map<string, NetworkProgress>(
    options.networks.map((network) => [
      network.id,
      { network: network.id, leading: false, head: null, indexedBlock: null, transfersIngested: 0, reorgs: 0, resets: 0 },
    ]),
  );
  const loops = new Map<string, Promise<void>>();
  // Settled at a network's first idle step: the first answers on a fresh devnet wait for it.
  const caughtUp = new Map(options.networks.map((network) => [network.id, Promise.withResolvers<void>()]));

  const pause = (ms: number) => sleep(ms, undefined, { signal: stopping.signal }).catch(() => undefined);

  async function follow(network: TransferIndexerNetwork): Promise<void> {
    const state = progress.get(network.id)!;
    const context: FollowContext = {
      db: options.db,
      network: network.id,
      reader: createChainReader(network, { timeoutMs: options.rpcTimeoutMs, extraTopics: options.followedLogs?.topics }),
      chainId: network.chainId,
      startBlock: network.startBlock ?? 0,
      holder,
      settings,
      memory: {
        range: initialRangeSize(settings.range),
        genesisChecked: false,
        recordedHead: null,
        errorShown: false,
        knownHolderTokens: new LRUCache<string, true>({ max: KNOWN_HOLDER_TOKENS }),
      },
      hooks,
      now,
    };
    const claim = () => ({ network: network.id, holder, now: now(), leaseMs: settings.leaseMs });
    let renewedAt = 0;
    let backoffMs = 0;
    const lose = () => {
      state.leading = false;
      log({ level: 'info', message: 'another process leads this network now', network: network.id });
    };
    while (!stopping.signal.aborted) {
      try {
        if (!state.leading) {
          if (!(await acquireLease(options.db, claim()))) {
            await pause(renewEveryMs);
            continue;
          }
          state.leading = true;
          renewedAt = now();
          context.memory.genesisChecked = false;
          // Another leader may have rolled back in between.
          context.memory.knownHolderTokens?.clear();
          log({ level: 'info', message: 'leading this network', network: network.id, holder });
        } else if (now() - renewedAt >= renewEveryMs) {
          if (!(await renewLease(options.db, claim()))) {
            lose();
            continue;
          }
          renewedAt = now();
        }
        const outcome = await followStep(context);
        backoffMs = 0;
        switch (outcome.kind) {
          case 'indexed':
            renewedAt = now();
            state.head = outcome.head;
            state.indexedBlock = outcome.to;
            state.transfersIngested += outcome.transfers;
            break;
          case 'idle':
            state.head = outcome.head;
            state.indexedBlock = outcome.indexed;
            caughtUp.get(network.id)!.resolve();
            await pause(pollIntervalMs);
            break;
          case 'rolled-back':
            state.reorgs++;
            state.indexedBlock = outcome.ancestor.number;
            log({
              level: 'info',
              message: 'reorg: rolled back to the common ancestor',
              network: network.id,
              ancestor: outcome.ancestor.number,
              removed: outcome.removed,
            });
            break;
          case 'reset':
            state.resets++;
            state.indexedBlock = null;
            log({ level: 'info', message: 'the chain was reset: indexing it again from its first block', network: network.id, reason: outcome.reason });
            break;
          case 'retry':
            if (outcome.wait) await pause(pollIntervalMs);
            break;
        }
      } catch (error) {
        if (error instanceof LeaseLostError || error instanceof CheckpointMovedError) {
          lose();
          continue;
        }
        backoffMs = Math.min(MAX_BACKOFF_MS, Math.max(pollIntervalMs, backoffMs * 2));
        const message = redactUrls(error instanceof Error ? error.message : String(error));
        log({ level: 'error', message: 'indexing step failed; retrying', network: network.id, cause: message, retryInMs: backoffMs });
        if (state.leading) {
          await recordError(options.db, network.id, message, now()).catch(() => undefined);
          context.memory.errorShown = true;
        }
        await pause(backoffMs);
      }
    }
  }

  const followOne = (id: string) => {
    const network = options.networks.find((candidate) => candidate.id === id);
    if (!network || loops.has(id) || stopping.signal.aborted) return;
    loops.set(id, follow(network));
  };

  return {
    start() {
      for (const network of options.networks) followOne(network.id);
    },
    follow: followOne,
    caughtUp: (network) => caughtUp.get(network)?.promise ?? Promise.reject(new Error(`${network} is not a network this indexer follows`)),
    async stop() {
      stopping.abort();
      await Promise.all(loops.values());
      for (const state of progress.values()) {
        if (!state.leading) continue;
        await releaseLease(options.db, state.network, holder).catch(() => undefined);
        state.leading = false;
      }
    },
    progress: () => [...progress.values()].map((state) => ({ ...state })),
  };
}

function defaultLog(entry: IndexerLogEntry): void {
  const line = JSON.stringify({ component: 'indexer', ...entry });
  if (entry.level === 'error') console.error(line);
  else console.log(line);
}
