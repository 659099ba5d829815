import { Alchemy, NftFilters } from 'alchemy-sdk';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadAppKeySecret } from '../../../src/apps/key-secret.ts';
import { createAppStore } from '../../../src/apps/store.ts';
import { DEMO_WALLET } from '../../../src/chain/world/actors.ts';
import { WORLD_ADDRESSES } from '../../../src/chain/world/manifest.ts';
import { openDatabase } from '../../../src/db/open.ts';
import { decodeDataUri } from '../../../src/nfts/data-uri.ts';
import type { OwnedNftBody, OwnedNftsBody } from '../../../src/nfts/api/schemas.ts';
import { demoWalletNfts, documentName, nftKey } from '../../support/world-nfts.ts';
import { startWorldSite, type WorldSite } from '../../support/world-site.ts';

// The demo wallet's NFTs end to end through the production server in local mode, as `npm start`
// runs it: the devnet deploys the local world with token URIs on the site's origin, the server's
// indexer follows it, getNFTs fetches each token's document from the site and its image once,
// and serves the renderings at /nft-media/. Real clients: fetch, alchemy-sdk 3.6.5, sharp.

let site: WorldSite;
let key: string;

const nodeUrl = () => `${site.origin}/node/${site.network}`;

async function getNfts(appKey: string, query = '', pageSize = 100): Promise<OwnedNftsBody & { ownedNfts: OwnedNftBody[] }> {
  const response = await fetch(`${nodeUrl()}/v2/${appKey}/getNFTs?owner=${DEMO_WALLET}&pageSize=${pageSize}${query}`);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as OwnedNftsBody & { ownedNfts: OwnedNftBody[] };
}

const expected = demoWalletNfts();
const byKey = (nfts: OwnedNftBody[]) => new Map(nfts.map((nft) => [nftKey(nft.contract.address, nft.tokenId), nft]));

beforeAll(async () => {
  site = await startWorldSite({
    prepare: async (databasePath) => {
      const database = await openDatabase({ engine: 'sqlite', path: databasePath });
      const apps = createAppStore(database, {
        keySecret: await loadAppKeySecret({ engine: 'sqlite', path: databasePath, appKeySecret: null }),
        networks: ['ethereum-sepolia'],
      });
      ({ key } = await apps.create({ name: 'nft server test' }));
      await database.close();
    },
  });
  // The index holds the world and every token has its metadata and image once the answer lists them all with an image
  // (a token whose fetch has not ended in time is left out of an answer, and stored when it ends).
  await vi.waitFor(
    async () => {
      const answer = byKey((await getNfts('demo')).ownedNfts);
      for (const nft of expected) {
        const got = answer.get(nftKey(nft.contract, nft.tokenId));
        expect(got, nftKey(nft.contract, nft.tokenId)).toBeDefined();
        if (nft.hasMetadata) expect(got!.image.cachedUrl, nftKey(nft.contract, nft.tokenId)).not.toBeNull();
      }
    },
    { timeout: 120_000, interval: 500 },
  );
});

afterAll(async () => {
  await site?.stop();
});

describe("the demo wallet's NFTs through the production server", () => {
  it('lists every NFT of the world the demo wallet holds, with its balance and the name from its document', async () => {
    const answer = await getNfts('demo');
    expect(answer.ownedNfts.map((nft) => nftKey(nft.contract.address, nft.tokenId)).sort()).toEqual(
      expected.map((nft) => nftKey(nft.contract, nft.tokenId)).sort(),
    );
    expect(answer.totalCount).toBe(expected.length);
    const got = byKey(answer.ownedNfts);
    for (const nft of expected) {
      const entry = got.get(nftKey(nft.contract, nft.tokenId))!;
      expect(entry.balance, entry.tokenId).toBe(nft.balance);
      if (nft.document) {
        expect(entry.name).toBe(await documentName(nft.document));
        expect(entry.tokenUri).toBe(`${site.origin}/world/nft/${nft.document}`);
      } else if (nft.hasMetadata) {
        // An on-chain relic: its document is the data: URI the contract returns.
        const inline = decodeDataUri(entry.raw.tokenUri!);
        expect('bytes' in inline, entry.raw.tokenUri!).toBe(true);
        if ('bytes' in inline) expect(entry.name).toBe((JSON.parse(Buffer.from(inline.bytes).toString('utf8')) as { name: string }).name);
      } else {
        expect(entry).toMatchObject({ name: null, image: { cachedUrl: null }, raw: { error: expect.any(String) } });
      }
      if (nft.hasMetadata) expect(entry.raw.error, entry.tokenId).toBeNull();
    }
  });

  it('serves every image, its thumbnail (at most 256 px) and its PNG from /nft-media/ with the stated type', async () => {
    const answer = await getNfts('demo');
    const withImages = answer.ownedNfts.filter((nft) => nft.image.cachedUrl !== null);
    expect(withImages.length).toBe(expected.filter((nft) => nft.hasMetadata).length);
    for (const nft of withImages) {
      const { cachedUrl, thumbnailUrl, pngUrl, contentType, size } = nft.image;
      for (const url of [cachedUrl, thumbnailUrl, pngUrl]) expect(url!.startsWith(`${site.origin}/nft-media/`), url!).toBe(true);
      const original = await fetch(cachedUrl!);
      expect(original.status).toBe(200);
      expect(original.headers.get('content-type')).toBe(contentType);
      expect((await original.arrayBuffer()).byteLength).toBe(size);

      const thumbnail = await fetch(thumbnailUrl!);
      expect(thumbnail.status).toBe(200);
      expect(thumbnail.headers.get('content-type')).toBe('image/webp');
      const thumb = await sharp(Buffer.from(await thumbnail.arrayBuffer())).metadata();
      expect(thumb.format).toBe('webp');
      expect(Math.max(thumb.width!, thumb.height!)).toBeLessThanOrEqual(256);

      const png = await fetch(pngUrl!);
      expect(png.status).toBe(200);
      expect(png.headers.get('content-type')).toBe('image/png');
      expect((await sharp(Buffer.from(await png.arrayBuffer())).metadata()).format).toBe('png');
    }
  });

  it('flags the airdrop MassAirdrop, no other collection, and excludeFilters[]=SPAM drops it', async () => {
    const answer = await getNfts('demo');
    for (const nft of answer.ownedNfts) {
      const airdrop = nft.contract.address === WORLD_ADDRESSES.airdrop;
      expect(nft.contract.isSpam, nft.contract.address).toBe(airdrop);
      if (airdrop) expect(nft.contract.spamClassifications).toContain('MassAirdrop');
    }
    const filtered = await getNfts('demo', '&excludeFilters[]=SPAM');
    const airdropped = expected.filter((nft) => nft.airdrop).length;
    expect(airdropped).toBeGreaterThan(0);
    expect(filtered.ownedNfts.some((nft) => nft.contract.address === WORLD_ADDRESSES.airdrop)).toBe(false);
    expect(filtered.ownedNfts.length).toBe(expected.length - airdropped);
    expect(filtered.totalCount).toBe(expected.length - airdropped);
  });

  it('pages with pageKey: the pages join up to the whole answer', async () => {
    const whole = await getNfts('demo');
    expect(whole.pageKey).toBeNull();
    const seen: string[] = [];
    let pageKey: string | null = null;
    do {
      const page = await getNfts('demo', pageKey ? `&pageKey=${encodeURIComponent(pageKey)}` : '', 3);
      expect(page.ownedNfts.length).toBeLessThanOrEqual(3);
      seen.push(...page.ownedNfts.map((nft) => nftKey(nft.contract.address, nft.tokenId)));
      pageKey = page.pageKey;
    } while (pageKey);
    expect(seen).toEqual(whole.ownedNfts.map((nft) => nftKey(nft.contract.address, nft.tokenId)));
  });

  it("alchemy-sdk's nft.getNftsForOwner returns the same NFTs, names and images with an app's key", async () => {
    const alchemy = new Alchemy({ url: `${nodeUrl()}/nft/v3/${key}`, maxRetries: 0 });
    const sdk = await alchemy.nft.getNftsForOwner(DEMO_WALLET);
    const ours = byKey((await getNfts(key)).ownedNfts);
    expect(sdk.ownedNfts.map((nft) => nftKey(nft.contract.address, nft.tokenId)).sort()).toEqual([...ours.keys()].sort());
    for (const nft of sdk.ownedNfts) {
      const same = ours.get(nftKey(nft.contract.address, nft.tokenId))!;
      expect({ name: nft.name ?? null, balance: nft.balance, cachedUrl: nft.image.cachedUrl ?? null }).toEqual({
        name: same.name,
        balance: same.balance,
        cachedUrl: same.image.cachedUrl,
      });
    }
    const unspammed = await alchemy.nft.getNftsForOwner(DEMO_WALLET, { excludeFilters: [NftFilters.SPAM] });
    expect(unspammed.ownedNfts.some((nft) => nft.contract.address === WORLD_ADDRESSES.airdrop)).toBe(false);
  });

  it('logs the NFT requests of an app by its name, never its key', async () => {
    await getNfts(key);
    await fetch(`${nodeUrl()}/nft/v3/${key}/getNFTsForOwner?owner=${DEMO_WALLET}`);
    await vi.waitFor(
      () => {
        const requests = site.logLines().filter((line) => line.includes('"msg":"request"'));
        expect(requests.filter((line) => line.includes('getNFTsForOwner')).length).toBeGreaterThan(0);
        expect(requests.filter((line) => line.includes('getNFTs?') || line.includes('/getNFTs"')).length).toBeGreaterThan(0);
      },
      { timeout: 30_000, interval: 50 },
    );
    const lines = site.logLines();
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line, line).not.toContain(key);
  });
});
