// The collection benchmark's preparation through the server's own API: waits until its transfer
// indexer holds the collection's owners at the chain's head, then reads every page of
// getNFTsForContract with metadata until each token has its document and stored image (the warm
// cache), and returns each page's path (with the pageKey that reaches it) and token ids. Also reads
// the server's own time of the answers off its request log.

interface ContractNft {
  tokenId: string;
  name: string | null;
  image: { cachedUrl: string | null };
  raw: { error: string | null };
}

export interface ContractPages {
  /** Each page's path, the first without a pageKey. */
  paths: string[];
  /** Each page's token ids. */
  tokens: string[][];
  /** From the first getNFTsForContract with metadata to a warm cache. */
  warmSeconds: number;
}

/** The most time an answer may wait for metadata fetches (NFT_TOKEN_URI_TIMEOUT_MAX_MS's default). */
const FETCH_TIMEOUT_MS = 20_000;
const INDEX_WAIT_MS = 600_000;
const WARM_PASSES = 30;

async function getJson<T>(url: string): Promise<{ status: number; body: T }> {
  const response = await fetch(url);
  return { status: response.status, body: (await response.json()) as T };
}

export async function readContractPages(options: {
  origin: string;
  /** getNFTsForContract of the collection with its page size. */
  base: string;
  /** getOwnersForContract of the collection with includeCount=true. */
  ownersPath: string;
  tokens: number;
  owners: number;
  head: number;
  log(line: string): void;
}): Promise<ContractPages> {
  const { origin, base, log } = options;
  const started = Date.now();
  for (;;) {
    const { status, body } = await getJson<{ totalCount?: number; validAt?: { blockNumber: number | null } }>(`${origin}${options.ownersPath}`);
    if (status === 200 && body.totalCount === options.owners && (body.validAt?.blockNumber ?? -1) >= options.head) break;
    if (Date.now() - started > INDEX_WAIT_MS) throw new Error(`the server's indexer did not reach block ${options.head} with ${options.owners} owners`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  log(`indexed to block ${options.head} in ${((Date.now() - started) / 1000).toFixed(1)} s; warming the metadata cache`);

  const warmStarted = Date.now();
  for (let pass = 1; ; pass++) {
    const paths: string[] = [];
    const tokens: string[][] = [];
    let cold = 0;
    let pageKey: string | null = null;
    do {
      const path: string = pageKey === null ? base : `${base}&pageKey=${encodeURIComponent(pageKey)}`;
      const { status, body }: { status: number; body: { nfts: ContractNft[]; pageKey: string | null } } = await getJson(
        `${origin}${path}&tokenUriTimeoutInMs=${FETCH_TIMEOUT_MS}`,
      );
      if (status !== 200) throw new Error(`getNFTsForContract answered HTTP ${status}: ${JSON.stringify(body)}`);
      paths.push(path);
      tokens.push(body.nfts.map((nft) => nft.tokenId));
      cold += body.nfts.filter((nft) => nft.raw.error || !nft.name || !nft.image.cachedUrl).length;
      pageKey = body.pageKey;
    } while (pageKey !== null);
    const seen = tokens.flat().length;
    if (seen !== options.tokens) throw new Error(`getNFTsForContract gave ${seen} tokens over ${paths.length} pages, not ${options.tokens}`);
    if (cold === 0) return { paths, tokens, warmSeconds: (Date.now() - warmStarted) / 1000 };
    log(`warm-up pass ${pass}: ${cold} of ${options.tokens} tokens not warm yet`);
    if (pass === WARM_PASSES) throw new Error(`the metadata cache is still cold after ${pass} passes`);
  }
}

/** The `durationMs` of the request lines whose (redacted) path matches `path`, answered 200. */
export function serverTimes(lines: readonly string[], path: RegExp): number[] {
  const times: number[] = [];
  for (const line of lines) {
    if (!line.includes('"msg":"request"')) continue;
    const record = JSON.parse(line) as { path?: string; status?: number; durationMs?: number };
    if (record.status === 200 && record.path && path.test(record.path) && typeof record.durationMs === 'number') times.push(record.durationMs);
  }
  return times;
}
