import { z } from 'zod';
import type { Env } from './env.ts';
import { positive } from './numbers.ts';
import { ConfigError } from './config-error.ts';
import { readConfigVariable } from './variable.ts';

// How NFT metadata and media are fetched (docs/nft-data.md#metadata-fetching), validated; a bad value stops start-up with
// a message naming the variable. Every variable is listed in .env.example.

export interface NftsConfig {
  /** NFT_IPFS_GATEWAY and NFT_ARWEAVE_GATEWAY: base URLs, ending in `/`, that ipfs:// and ar:// content ids are appended to. */
  gateways: { ipfs: string; arweave: string };
  /** NFT_TOKEN_URI_TIMEOUT_MS (default 10,000) and NFT_TOKEN_URI_TIMEOUT_MAX_MS (default 20,000): one fetch's time, and the most `tokenUriTimeoutInMs` may ask. */
  tokenUriTimeout: { defaultMs: number; maxMs: number };
  /** NFT_METADATA_MAX_BYTES (default 1 MiB): a metadata document's size cap. */
  metadataMaxBytes: number;
  /** NFT_IMAGE_MAX_BYTES (default 10 MiB): an image's size cap. */
  imageMaxBytes: number;
  /**
   * NFT_FETCH_PRIVATE: which non-public addresses (loopback, private, link-local, ...) fetches may
   * connect to. `deny`: none (the default outside local mode); `site`: the site's own origin only,
   * which serves the local world's metadata (local mode's default: a token URI anyone can set must not
   * reach the developer's other services); `allow`: any.
   */
  privateAddresses: 'deny' | 'site' | 'allow';
}

const MiB = 1024 * 1024;

const baseUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
  .refine((url) => !/[?#]/.test(url), 'must be an http(s) URL without a query or fragment')
  .transform((url) => (url.endsWith('/') ? url : `${url}/`));

const read = <T>(env: Env, name: string, schema: z.ZodType<T, string>, fallback: T): T => readConfigVariable(env, 'NFT', name, schema, fallback);

/** `local`: the platform runs in local mode (CRUCIBLE_MODE=local), where NFT_FETCH_PRIVATE's default is `site`. */
export function readNftsConfig(env: Env, mode: { local: boolean }): NftsConfig {
  const tokenUriTimeout = {
    defaultMs: read(env, 'NFT_TOKEN_URI_TIMEOUT_MS', positive, 10_000),
    maxMs: read(env, 'NFT_TOKEN_URI_TIMEOUT_MAX_MS', positive, 20_000),
  };
  if (tokenUriTimeout.defaultMs > tokenUriTimeout.maxMs) {
    throw new ConfigError(
      `Invalid NFT configuration: NFT_TOKEN_URI_TIMEOUT_MS (${tokenUriTimeout.defaultMs}) must not exceed NFT_TOKEN_URI_TIMEOUT_MAX_MS (${tokenUriTimeout.maxMs}). See .env.example.`,
    );
  }
  return {
    gateways: {
      ipfs: read(env, 'NFT_IPFS_GATEWAY', baseUrl, 'https://ipfs.io/ipfs/'),
      arweave: read(env, 'NFT_ARWEAVE_GATEWAY', baseUrl, 'https://arweave.net/'),
    },
    tokenUriTimeout,
    metadataMaxBytes: read(env, 'NFT_METADATA_MAX_BYTES', positive, MiB),
    imageMaxBytes: read(env, 'NFT_IMAGE_MAX_BYTES', positive, 10 * MiB),
    privateAddresses: read(env, 'NFT_FETCH_PRIVATE', z.enum(['deny', 'site', 'allow'], { error: 'must be deny, site or allow' }), mode.local ? 'site' : 'deny'),
  };
}
