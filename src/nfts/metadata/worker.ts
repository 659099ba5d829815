import { sql, type Kysely } from 'kysely';
import type { Address } from 'viem';
import type { DatabaseSchema } from '../../db/schema.ts';
import type { NftRef } from '../nft-sources.ts';
import type { NftMetadataStore } from './store.ts';

// The metadata worker (docs/nft-data.md#metadata-store-and-worker): fetches the metadata of every NFT the transfer index holds
// that has no record yet, and fetches again records older than the TTL, or than the retry interval
// when their document or image failed (a collection not yet revealed answers 404 for a while). A
// refresh that changes a token's metadata calls the store's onMetadataChange in the transaction
// that stores it. Several workers may run: a record refreshed by another meanwhile is left as is.

export interface NftMetadataWorkerOptions {
  db: Kysely<DatabaseSchema>;
  store: NftMetadataStore;
  /** The networks whose tokens are fetched (those with a chain to read). */
  networks: readonly string[];
  ttlMs: number;
  retryMs: number;
  pollIntervalMs: number;
  /** Tokens per pass and kind of work. */
  batch: number;
  /** A document fetch's time. */
  timeoutMs: number;
  now?: () => number;
  log?: (entry: { level: 'info' | 'error'; message: string; [field: string]: unknown }) => void;
}

interface PassResult {
  /** Tokens without a record that now have one. */
  fetched: number;
  /** Records fetched again (a fetch that could not be made, the chain down, is not counted). */
  refreshed: number;
}

export interface NftMetadataWorker {
  start(): void;
  /** One pass: a batch of tokens without a record, and one of records due. */
  runOnce(): Promise<PassResult>;
  /** Stops after the pass under way and the fetches it started. */
  stop(): Promise<void>;
}

export function createNftMetadataWorker(options: NftMetadataWorkerOptions): NftMetadataWorker {
  const { db, store, networks, batch } = options;
  const now = options.now ?? Date.now;
  const log = options.log ?? ((entry) => console.log(JSON.stringify({ component: 'nft-metadata', ...entry })));
  let loop: Promise<void> | null = null;
  let stopping = false;
  let wake: (() => void) | null = null;

  async function runOnce(): Promise<PassResult> {
    if (networks.length === 0) return { fetched: 0, refreshed: 0 };
    const missing = await tokensWithoutRecord(db, networks, batch);
    const fetched = missing.length > 0 ? (await store.fetchMissing(missing, { timeoutMs: options.timeoutMs })).size : 0;
    const due = await recordsDue(db, networks, { staleBefore: now() - options.ttlMs, retryBefore: now() - options.retryMs }, batch);
    const refreshed = due.length > 0 ? (await store.refreshMany(due, { timeoutMs: options.timeoutMs })).size : 0;
    return { fetched, refreshed };
  }

  async function run(): Promise<void> {
    while (!stopping) {
      // A pass that got nothing done (nothing due, or the chain down) waits before the next.
      let worked = false;
      try {
        const result = await runOnce();
        worked = result.fetched + result.refreshed > 0;
        if (worked) log({ level: 'info', message: 'pass', ...result });
      } catch (error) {
        log({ level: 'error', message: 'pass failed', cause: error instanceof Error ? error.message : String(error) });
      }
      if (!worked && !stopping) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, options.pollIntervalMs);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = null;
      }
    }
  }

  return {
    start() {
      loop ??= run();
    },
    runOnce,
    async stop() {
      stopping = true;
      wake?.();
      await loop;
      await store.idle();
    },
  };
}

const asRef = (row: { network: string; contract: string; token_id: string; kind: NftRef['kind'] }): NftRef => ({
  network: row.network,
  contract: row.contract as Address,
  tokenId: row.token_id,
  kind: row.kind,
});

/** NFTs the index holds (a balance somewhere) without a metadata record, at most `limit`. */
async function tokensWithoutRecord(db: Kysely<DatabaseSchema>, networks: readonly string[], limit: number): Promise<NftRef[]> {
  const rows = await db
    .selectFrom('indexer_nft_balances as b')
    .select(['b.network', 'b.contract', 'b.token_id', 'b.kind'])
    .distinct()
    .where('b.network', 'in', networks)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('nft_metadata as m')
            .select(sql`1`.as('one'))
            .whereRef('m.network', '=', 'b.network')
            .whereRef('m.contract', '=', 'b.contract')
            .whereRef('m.token_id', '=', 'b.token_id'),
        ),
      ),
    )
    .limit(limit)
    .execute();
  return rows.map(asRef);
}

/**
 * Records due for a refresh, checked longest ago first: older than `staleBefore`, or than
 * `retryBefore` when the document or the image failed (a contract without a URI waits for the TTL).
 */
async function recordsDue(
  db: Kysely<DatabaseSchema>,
  networks: readonly string[],
  due: { staleBefore: number; retryBefore: number },
  limit: number,
): Promise<NftRef[]> {
  const rows = await db
    .selectFrom('nft_metadata as m')
    .leftJoin('nft_images as i', 'i.url_sha256', 'm.image_url_sha256')
    .select(['m.network', 'm.contract', 'm.token_id', 'm.kind'])
    .where('m.network', 'in', networks)
    .where((eb) =>
      eb.or([
        eb('m.checked_at', '<', due.staleBefore),
        eb.and([
          eb('m.checked_at', '<', due.retryBefore),
          eb.or([eb.and([eb('m.error', 'is not', null), eb('m.error_code', '!=', 'contract')]), eb('i.error', 'is not', null)]),
        ]),
      ]),
    )
    .orderBy('m.checked_at')
    .limit(limit)
    .execute();
  return rows.map(asRef);
}
