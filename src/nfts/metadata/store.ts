import type { Kysely } from 'kysely';
import type { BlockList } from 'node:net';
import pLimit from 'p-limit';
import type { DatabaseSchema } from '../../db/schema.ts';
import type { ContractReader } from '../../chain/contract-reader.ts';
import type { LoadUriOptions } from '../load-uri.ts';
import { createImageFetcher } from '../media/image-fetcher.ts';
import { nftKey, type NftMetadataRecord, type NftMetadataSource, type NftRef } from '../nft-sources.ts';
import type { UriGateways } from '../token-uri.ts';
import { fetchMetadata, isPassingFailure, type FetchedMetadata } from './fetch-metadata.ts';
import { insertRecord, metadataRow, readDocuments, readRecords, replaceRecord, touchRecord, type StoredNftMetadata } from './metadata-table.ts';
import { readTokenUris, type TokenUriRead } from './token-uri-calls.ts';

// The NFT metadata store (docs/nft-data.md#metadata-store-and-worker): records in the database, fetched when first asked for and
// refreshed by the worker. A fetch reads the token URIs of all its tokens in one Multicall3 call at
// one block, then loads each document and its image with bounded concurrency. Requests for a token
// already being fetched in this process wait for that fetch instead of starting another.

/** A stored record's metadata changed on a refresh (webhooks' NFT_METADATA_UPDATE). */
export interface NftMetadataChange {
  network: string;
  /** Lowercase. */
  contract: string;
  tokenId: string;
  kind: NftRef['kind'];
  before: NftMetadataRecord;
  after: NftMetadataRecord;
}

/** Called inside the transaction that stores the new record: a throw rolls the record back. */
export type OnMetadataChange = (trx: Kysely<DatabaseSchema>, change: NftMetadataChange) => Promise<void> | void;

export interface NftMetadataStoreOptions {
  db: Kysely<DatabaseSchema>;
  /** A network's chain (the gateway's upstream pool, or a node); null: the network cannot be read, its tokens get no record. */
  chainOf(network: string): ContractReader | null;
  /** The site's origin: media URLs are absolute on it. */
  siteOrigin: string;
  fetch: {
    gateways: UriGateways;
    metadataMaxBytes: number;
    imageMaxBytes: number;
    /** An image fetch's time: it is shared by every token showing the image, so no one request's timeout bounds it. */
    imageTimeoutMs: number;
    blockedAddresses: BlockList | null;
    /** The site's origin, fetched whatever its address (NFT_FETCH_PRIVATE=site); absent or null: checked as any other. */
    siteOrigin?: string | null;
  };
  /** Documents and images fetched at once (NFT_METADATA_CONCURRENCY). */
  concurrency: number;
  onMetadataChange?: OnMetadataChange;
  /** A fetch that failed as a whole (the chain, the database); the tokens got no record. */
  onError?(error: unknown, context: { network: string; tokens: number }): void;
  now?: () => number;
}

export interface NftMetadataStore extends NftMetadataSource {
  metadataOf(tokens: readonly NftRef[], options: { timeoutMs: number | null }): Promise<Map<string, StoredNftMetadata>>;
  /** Fetches the token again (getNFTMetadata?refreshCache=true); the stored record after it, or null when it has none. */
  refresh(token: NftRef, options: { timeoutMs: number }): Promise<StoredNftMetadata | null>;
  /** Fetches these tokens again, each document within `timeoutMs` (the worker); the records after it, by nftKey. */
  refreshMany(tokens: readonly NftRef[], options: { timeoutMs: number }): Promise<Map<string, StoredNftMetadata>>;
  /** Fetches these tokens that have no record, each document within `timeoutMs` (the worker). */
  fetchMissing(tokens: readonly NftRef[], options: { timeoutMs: number }): Promise<Map<string, StoredNftMetadata>>;
  /** Resolves once no fetch is running in this process. */
  idle(): Promise<void>;
}

/** After a request's deadline, how long its answer still waits for fetches that ended at the deadline to be stored. */
const STORE_GRACE_MS = 250;
/** Tokens whose URIs are read in one Multicall3 call: a page of getNFTs. */
const TOKENS_PER_CALL = 100;

type Job = Promise<StoredNftMetadata | null>;

export function createNftMetadataStore(options: NftMetadataStoreOptions): NftMetadataStore {
  const { db, siteOrigin } = options;
  const now = options.now ?? Date.now;
  const limit = pLimit(options.concurrency);
  const inFlight = new Map<string, Job>();
  const running = new Set<Promise<unknown>>();
  const baseLoad = { gateways: options.fetch.gateways, blockedAddresses: options.fetch.blockedAddresses, siteOrigin: options.fetch.siteOrigin };
  const images = createImageFetcher({ db, load: { ...baseLoad, maxBytes: options.fetch.imageMaxBytes, timeoutMs: options.fetch.imageTimeoutMs }, now });
  const reportError =
    options.onError ??
    ((error: unknown, context: { network: string; tokens: number }) =>
      console.error(
        JSON.stringify({
          level: 'error',
          component: 'nft-metadata',
          message: 'fetch failed',
          ...context,
          cause: error instanceof Error ? error.message : String(error),
        }),
      ));

  /**
   * Starts one fetch for `tokens` (none already in flight): their URIs in one call per network and
   * chunk, then each document, image and record. `timeoutOf` gives a document fetch's time when it
   * starts; a fetch with none left is not started (the token stays without a new record).
   */
  function start(tokens: readonly NftRef[], timeoutOf: () => number, previous: ReadonlyMap<string, StoredNftMetadata>): Map<string, Job> {
    const jobs = new Map<string, Job>();
    const byNetwork = Map.groupBy(tokens, (token) => token.network);
    for (const [network, group] of byNetwork) {
      for (let first = 0; first < group.length; first += TOKENS_PER_CALL) {
        const chunk = group.slice(first, first + TOKENS_PER_CALL);
        const reads = readUris(network, chunk);
        chunk.forEach((token, index) => {
          const key = nftKey(token);
          const job: Job = reads
            .then((read) => (read ? limit(() => fetchOne(token, read[index]!, timeoutOf(), previous.get(key) ?? null)) : null))
            .catch((error: unknown) => {
              reportError(error, { network, tokens: 1 });
              return null;
            })
            .finally(() => {
              inFlight.delete(key);
              running.delete(job);
            });
          inFlight.set(key, job);
          running.add(job);
          jobs.set(key, job);
        });
      }
    }
    return jobs;
  }

  async function readUris(network: string, tokens: readonly NftRef[]): Promise<TokenUriRead[] | null> {
    const chain = options.chainOf(network);
    if (!chain) return null;
    try {
      return await readTokenUris(chain, tokens, await chain.blockNumber());
    } catch (error) {
      reportError(error, { network, tokens: tokens.length });
      return null;
    }
  }

  async function fetchOne(token: NftRef, read: TokenUriRead, timeoutMs: number, previous: StoredNftMetadata | null): Promise<StoredNftMetadata | null> {
    if (timeoutMs <= 0) return null;
    const load: LoadUriOptions = { ...baseLoad, maxBytes: options.fetch.metadataMaxBytes, timeoutMs };
    const fetched = await fetchMetadata(token, read, load);
    if (fetched.imageUrl !== null) await images.imageOf(fetched.imageUrl, { retryFailed: previous !== null });
    const stamp = now();
    if (previous && isPassingFailure(fetched.errorCode, fetched.error) && previous.error === null) {
      // The origin is down for a while: the token keeps the metadata it had.
      await touchRecord(db, token, stamp);
      return { ...previous, checkedAt: stamp };
    }
    const row = metadataRow(token, fetched, stamp);
    if (!previous) await insertRecord(db, row);
    else {
      await db.transaction().execute(async (trx) => {
        if (!(await replaceRecord(trx, row, previous.checkedAt))) return;
        if (!options.onMetadataChange || !changed(previous, fetched)) return;
        const after = (await readRecords(trx, [token], siteOrigin)).get(nftKey(token))!;
        const { network, tokenId, kind } = token;
        await options.onMetadataChange(trx, { network, contract: token.contract.toLowerCase(), tokenId, kind, before: previous, after });
      });
    }
    return (await readRecords(db, [token], siteOrigin)).get(nftKey(token)) ?? null;
  }

  /** Each token's job: the one in flight, or one started here with the others. */
  function jobsFor(tokens: readonly NftRef[], timeoutOf: () => number, previous: ReadonlyMap<string, StoredNftMetadata>): Map<string, Job> {
    const jobs = new Map<string, Job>();
    const fresh: NftRef[] = [];
    for (const token of tokens) {
      const key = nftKey(token);
      const running = inFlight.get(key);
      if (running) jobs.set(key, running);
      else if (!jobs.has(key) && !fresh.some((other) => nftKey(other) === key)) fresh.push(token);
    }
    for (const [key, job] of start(fresh, timeoutOf, previous)) jobs.set(key, job);
    return jobs;
  }

  async function settle(jobs: Map<string, Job>): Promise<Map<string, StoredNftMetadata>> {
    const records = new Map<string, StoredNftMetadata>();
    await Promise.all(
      [...jobs].map(async ([key, job]) => {
        const record = await job;
        if (record) records.set(key, record);
      }),
    );
    return records;
  }

  const store: NftMetadataStore = {
    async metadataOf(tokens, { timeoutMs }) {
      const stored = await readRecords(db, tokens, siteOrigin);
      const missing = tokens.filter((token) => !stored.has(nftKey(token)));
      if (timeoutMs === null || missing.length === 0) return stored;
      // One deadline for the whole answer: a fetch queued behind others gets what is left of it.
      const deadline = now() + timeoutMs;
      const jobs = jobsFor(missing, () => deadline - now(), new Map());
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs + STORE_GRACE_MS)));
      const done = new Map<string, StoredNftMetadata>();
      const finished = Promise.all(
        [...jobs].map(async ([key, job]) => {
          const record = await job;
          if (record) done.set(key, record);
        }),
      );
      await Promise.race([finished, late]);
      clearTimeout(timer);
      for (const [key, record] of done) stored.set(key, record);
      return stored;
    },

    documentsOf: (network, contract) => readDocuments(db, network, contract),

    async refresh(token, { timeoutMs }) {
      return (await store.refreshMany([token], { timeoutMs })).get(nftKey(token)) ?? (await readRecords(db, [token], siteOrigin)).get(nftKey(token)) ?? null;
    },

    async refreshMany(tokens, { timeoutMs }) {
      const previous = await readRecords(db, tokens, siteOrigin);
      return settle(jobsFor(tokens, () => timeoutMs, previous));
    },

    async fetchMissing(tokens, { timeoutMs }) {
      return settle(jobsFor(tokens, () => timeoutMs, new Map()));
    },

    async idle() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
  return store;
}

/** Whether a refresh changed what the token's metadata is: its URI or its document (key order aside). */
function changed(before: NftMetadataRecord, after: FetchedMetadata): boolean {
  const shape = (record: Pick<NftMetadataRecord, 'tokenUri' | 'rawTokenUri' | 'metadata'>) =>
    canonicalJson({ tokenUri: record.tokenUri, rawTokenUri: record.rawTokenUri, metadata: record.metadata });
  return shape(before) !== shape(after);
}

/** JSON with every object's keys sorted. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}
