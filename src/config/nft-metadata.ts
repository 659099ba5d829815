import { z } from 'zod';
import type { Env } from './env.ts';
import { positive } from './numbers.ts';
import { readConfigVariable } from './variable.ts';

// The NFT metadata worker's configuration (src/nfts/metadata/, docs/nft-data.md#metadata-store-and-worker), validated; a bad value
// stops start-up with a message naming the variable. Every variable is listed in .env.example. How
// a fetch is made (gateways, timeouts, caps, addresses) is NFT_* of src/config/nfts.ts.

export interface NftMetadataConfig {
  /** NFT_METADATA_IN_SERVER (on|off, default on): the server runs the worker beside the API; off when `npm run worker -- nft-metadata` does. */
  inServer: boolean;
  /** NFT_METADATA_TTL_MS (default 24 h): a record older than this is fetched again. */
  ttlMs: number;
  /** NFT_METADATA_RETRY_MS (default 10 min): a record whose fetch failed for a while (timeout, unreachable, HTTP 5xx) is tried again after this. */
  retryMs: number;
  /** NFT_METADATA_POLL_INTERVAL_MS (default 5 s): the worker's pause between passes that found nothing to do. */
  pollIntervalMs: number;
  /** NFT_METADATA_BATCH (default 100): tokens per pass, their URIs read in one Multicall3 call. */
  batch: number;
  /** NFT_METADATA_CONCURRENCY (default 8): documents and images fetched at once per process. */
  concurrency: number;
}

const read = <T>(env: Env, name: string, schema: z.ZodType<T, string>, fallback: T): T => readConfigVariable(env, 'NFT metadata', name, schema, fallback);

export function readNftMetadataConfig(env: Env): NftMetadataConfig {
  return {
    inServer: read(env, 'NFT_METADATA_IN_SERVER', z.enum(['on', 'off'], { error: 'must be on or off' }), 'on') === 'on',
    ttlMs: read(env, 'NFT_METADATA_TTL_MS', positive, 24 * 60 * 60 * 1000),
    retryMs: read(env, 'NFT_METADATA_RETRY_MS', positive, 10 * 60 * 1000),
    pollIntervalMs: read(env, 'NFT_METADATA_POLL_INTERVAL_MS', positive, 5000),
    batch: read(
      env,
      'NFT_METADATA_BATCH',
      positive.refine((value) => value <= 1000, 'must be at most 1000'),
      100,
    ),
    concurrency: read(
      env,
      'NFT_METADATA_CONCURRENCY',
      positive.refine((value) => value <= 256, 'must be at most 256'),
      8,
    ),
  };
}
