import type { Address } from 'viem';

// The NFT benchmark's preparation through the server's own API: waits until its transfer indexer
// holds the owner's NFTs at the chain's head, then reads every page of getNFTs with metadata until
// each token has its document and image stored and its contract's facts (the warm cache), and
// returns each page's path (with the pageKey that reaches it) and tokens.

interface OwnedNft {
  contract: { address: Address; name: string | null };
  tokenId: string;
  name: string | null;
  image: { cachedUrl: string | null; thumbnailUrl: string | null };
  raw: { error: string | null };
}

interface OwnedNftsPage {
  ownedNfts: OwnedNft[];
  totalCount: number;
  pageKey: string | null;
  validAt: { blockNumber: number | null };
}

export interface OwnerPages {
  /** Each page's path, the first without a pageKey. */
  paths: string[];
  tokens: Array<Array<{ contract: Address; tokenId: string }>>;
  /** From the first getNFTs with metadata to a warm cache. */
  warmSeconds: number;
}

/** The most time a getNFTs answer may wait for metadata fetches (NFT_TOKEN_URI_TIMEOUT_MAX_MS's default). */
const FETCH_TIMEOUT_MS = 20_000;
const INDEX_WAIT_MS = 300_000;
const WARM_PASSES = 20;

async function getPage(url: string): Promise<{ status: number; page: OwnedNftsPage }> {
  const response = await fetch(url);
  return { status: response.status, page: (await response.json()) as OwnedNftsPage };
}

/** Why a token is not warm yet, or null when it is. */
function coldReason(nft: OwnedNft): string | null {
  if (nft.raw.error) return `raw.error ${nft.raw.error}`;
  if (!nft.name) return 'no metadata';
  if (!nft.image.cachedUrl || !nft.image.thumbnailUrl) return 'no stored image';
  if (!nft.contract.name) return 'no contract facts';
  return null;
}

export async function readOwnerPages(options: { origin: string; base: string; total: number; head: number; log(line: string): void }): Promise<OwnerPages> {
  const { origin, base, total, head, log } = options;
  const started = Date.now();
  for (;;) {
    const { status, page } = await getPage(`${origin}${base}&withMetadata=false`);
    if (status === 200 && page.totalCount === total && (page.validAt.blockNumber ?? -1) >= head) break;
    if (Date.now() - started > INDEX_WAIT_MS) throw new Error(`the server's indexer did not reach block ${head} with ${total} NFTs of the owner`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  log(`indexed to block ${head} in ${((Date.now() - started) / 1000).toFixed(1)} s; warming the metadata cache`);

  const warmStarted = Date.now();
  for (let pass = 1; ; pass++) {
    const paths: string[] = [];
    const tokens: OwnerPages['tokens'] = [];
    const cold: string[] = [];
    let pageKey: string | null = null;
    do {
      const path = pageKey === null ? base : `${base}&pageKey=${encodeURIComponent(pageKey)}`;
      const { status, page } = await getPage(`${origin}${path}&tokenUriTimeoutInMs=${FETCH_TIMEOUT_MS}`);
      if (status !== 200) throw new Error(`getNFTs answered HTTP ${status}: ${JSON.stringify(page)}`);
      paths.push(path);
      tokens.push(page.ownedNfts.map((nft) => ({ contract: nft.contract.address, tokenId: nft.tokenId })));
      for (const nft of page.ownedNfts) {
        const reason = coldReason(nft);
        if (reason) cold.push(`${nft.contract.address} ${nft.tokenId}: ${reason}`);
      }
      pageKey = page.pageKey;
    } while (pageKey !== null);
    const seen = tokens.flat().length;
    if (seen !== total) throw new Error(`getNFTs gave ${seen} NFTs over ${paths.length} pages, not ${total}`);
    if (cold.length === 0) return { paths, tokens, warmSeconds: (Date.now() - warmStarted) / 1000 };
    log(`warm-up pass ${pass}: ${cold.length} of ${total} tokens not warm yet (${cold[0]})`);
    if (pass === WARM_PASSES) throw new Error(`the metadata cache is still cold after ${pass} passes: ${cold.slice(0, 3).join('; ')}`);
  }
}
