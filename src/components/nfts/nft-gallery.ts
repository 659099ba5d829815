// Browser side of the demo wallet's NFT gallery: getNFTs (docs/nft-data.md#getnfts-and-getnftsforowner) page by page
// through `pageKey`, each NFT a card of the grid as its page arrives.
import type { OwnedNftBody, OwnedNftsBody } from '../../nfts/api/schemas.ts';

/** The gallery's texts in the page's locale (NftGallery.astro); `shown` and `failed` around their value. */
export type NftGalleryTexts = Record<'loading' | 'empty' | 'collection' | 'tokenId' | 'balance' | 'spam' | 'metadataError' | 'noImage' | 'unnamed', string> & {
  shown: [before: string, after: string];
  failed: [before: string, after: string];
};

/** The largest page getNFTs gives (docs/nft-data.md#getnfts-and-getnftsforowner), so the wallet comes in as few requests as it can. */
const pageSize = 100;

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string | null, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function card(nft: OwnedNftBody, texts: NftGalleryTexts): HTMLLIElement {
  const item = element('li', 'nft');
  item.dataset.contract = nft.contract.address;
  item.dataset.tokenId = nft.tokenId;
  const src = nft.image.thumbnailUrl ?? nft.image.cachedUrl;
  if (src) {
    // The name below says what the picture shows, so the image itself is not announced again.
    const image = element('img', 'thumb');
    image.src = src;
    image.alt = '';
    image.width = 256;
    image.height = 256;
    image.decoding = 'async';
    item.append(image);
  } else {
    item.append(element('div', 'thumb no-image', texts.noImage));
  }
  const heading = element('h2', 'name', nft.name ?? texts.unnamed);
  if (nft.contract.isSpam) heading.append(' ', element('span', 'badge spam', texts.spam));
  item.append(heading);
  const facts = element('dl', 'facts');
  const collection = nft.collection?.name ?? nft.contract.name ?? nft.contract.address;
  for (const [term, value] of [
    [texts.collection, collection],
    [texts.tokenId, nft.tokenId],
    [texts.balance, nft.balance],
  ] as const) {
    facts.append(element('dt', null, term), element('dd', null, value));
  }
  item.append(facts);
  if (nft.raw.error) {
    const error = element('p', 'metadata-error');
    error.append(element('strong', null, texts.metadataError), ` ${nft.raw.error}`);
    item.append(error);
  }
  return item;
}

async function fetchPage(endpoint: string, pageKey: string | null): Promise<OwnedNftsBody> {
  const url = new URL(endpoint);
  url.searchParams.set('pageSize', String(pageSize));
  if (pageKey) url.searchParams.set('pageKey', pageKey);
  const response = await fetch(url);
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
    throw new Error(body?.error?.message ?? `HTTP ${response.status}`);
  }
  return (await response.json()) as OwnedNftsBody;
}

export async function mountNftGallery(root: HTMLElement): Promise<void> {
  const endpoint = root.dataset.endpoint!;
  const texts = JSON.parse(root.dataset.texts!) as NftGalleryTexts;
  const grid = root.querySelector<HTMLUListElement>('[data-grid]')!;
  const status = root.querySelector<HTMLElement>('[data-status]')!;
  const around = ([before, after]: [string, string], value: string) => `${before}${value}${after}`;
  grid.setAttribute('aria-busy', 'true');
  status.textContent = texts.loading;
  let shown = 0;
  let pageKey: string | null = null;
  try {
    do {
      const page = await fetchPage(endpoint, pageKey);
      // withMetadata is on by default, so every entry is a full NFT.
      for (const nft of page.ownedNfts as OwnedNftBody[]) grid.append(card(nft, texts));
      shown += page.ownedNfts.length;
      pageKey = page.pageKey;
    } while (pageKey);
    status.textContent = shown === 0 ? texts.empty : around(texts.shown, String(shown));
    root.dataset.state = 'done';
  } catch (error) {
    status.textContent = around(texts.failed, error instanceof Error ? error.message : String(error));
    root.dataset.state = 'failed';
  } finally {
    grid.setAttribute('aria-busy', 'false');
  }
}
