import type { Kysely } from 'kysely';
import type { DatabaseSchema, NftImageRow } from '../../db/schema.ts';
import { loadUri, type LoadUriOptions } from '../load-uri.ts';
import { readImageOutcome, storeImageOutcome } from './media-table.ts';
import { renderImage } from './render.ts';

// Each image URI fetched once (docs/nft-data.md#media): its outcome is stored by URI, so the 500 tokens of a
// collection that share one image cost one fetch; requests for a URI already being fetched in this
// process wait for that fetch. data: URIs are decoded without a request (load-uri.ts).

export interface ImageFetcherOptions {
  db: Kysely<DatabaseSchema>;
  /** The image size cap (NFT_IMAGE_MAX_BYTES) and timeout, the gateways and the address rule. */
  load: LoadUriOptions;
  now?: () => number;
}

export interface ImageFetcher {
  /** The stored outcome of `url`, fetching it first when it has none; `retryFailed`: fetch again a URI that failed before. */
  imageOf(url: string, options?: { retryFailed?: boolean }): Promise<NftImageRow>;
}

export function createImageFetcher(options: ImageFetcherOptions): ImageFetcher {
  const { db } = options;
  const now = options.now ?? Date.now;
  const inFlight = new Map<string, Promise<NftImageRow>>();

  async function fetchAndStore(url: string): Promise<NftImageRow> {
    const loaded = await loadUri(url, { ...options.load, accept: 'image/*,*/*;q=0.8' });
    if (!loaded.ok) return storeImageOutcome(db, url, loaded, now());
    const rendered = await renderImage(loaded.bytes);
    return storeImageOutcome(db, url, rendered.ok ? { original: loaded.bytes, rendered } : rendered, now());
  }

  return {
    imageOf(url, { retryFailed = false } = {}) {
      const running = inFlight.get(url);
      if (running) return running;
      const job = (async () => {
        const stored = await readImageOutcome(db, url);
        if (stored && (stored.media_sha256 !== null || !retryFailed)) return stored;
        return fetchAndStore(url);
      })().finally(() => inFlight.delete(url));
      inFlight.set(url, job);
      return job;
    },
  };
}
