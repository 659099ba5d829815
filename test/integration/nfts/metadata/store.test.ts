import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORLD_ADDRESSES } from '../../../../src/chain/world/manifest.ts';
import type { Database } from '../../../../src/db/open.ts';
import { sha256Hex } from '../../../../src/nfts/media/media-table.ts';
import { createMediaRoute, SVG_CONTENT_SECURITY_POLICY } from '../../../../src/nfts/media/media-route.ts';
import { clearNetworkMetadata } from '../../../../src/nfts/metadata/metadata-table.ts';
import { createNftMetadataStore, type NftMetadataChange, type NftMetadataStore } from '../../../../src/nfts/metadata/store.ts';
import { nftKey, type NftRef } from '../../../../src/nfts/nft-sources.ts';
import { databaseEngines } from '../../../support/postgres.ts';
import { answers, deployedWorld, NETWORK, worldNft } from './world-server.ts';

// The metadata store over the local world deployed on a real anvil, its hosted documents served by
// a real HTTP server, on both engines: hosted documents with relative images, on-chain data: JSON
// with SVG images, ERC-1155 {id}, the legacy NFT, failures recorded as values, images stored once
// and served back from the database.

const SITE = 'https://crucible.example';
const IMAGE_CAP = 4096;

const deployed = deployedWorld();

const relic = (id: number) => worldNft('relics', id);
const material = (id: number) => worldNft('materials', id);
const airdrop = (id: number) => worldNft('airdrop', id);
const punk = (id: number) => worldNft('punks', id);

/** A raster image: `width` x `height` of one colour, as JPEG. */
const jpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 20 } } })
    .jpeg()
    .toBuffer();

describe.each(databaseEngines())('the NFT metadata store on $name', (engine) => {
  let database: Database;
  let store: NftMetadataStore;
  const changes: NftMetadataChange[] = [];

  beforeAll(async () => {
    database = await engine.open();
    store = createNftMetadataStore({
      db: database.db,
      ...deployed.storeOptions(),
      siteOrigin: SITE,
      fetch: { ...deployed.storeOptions().fetch, imageMaxBytes: IMAGE_CAP },
      concurrency: 4,
      onMetadataChange: (_trx, change) => void changes.push(change),
    });
  });

  afterAll(async () => {
    await store?.idle();
    await database?.close();
  });

  /** The token's record, the answer waiting for its fetch (and image rendering) up to a minute: seconds on a busy machine. */
  const one = async (token: NftRef, timeoutMs: number | null = 60_000) => (await store.metadataOf([token], { timeoutMs })).get(nftKey(token));
  const served = async (url: string | null, ifNoneMatch?: string) => {
    const path = new URL(url!).pathname;
    expect(url!.startsWith(`${SITE}/nft-media/`)).toBe(true);
    return (await createMediaRoute(database.db).handle({ method: 'GET', path, ifNoneMatch }))!;
  };

  it('a hosted ERC-721 document, its relative SVG image stored and served back', async () => {
    const record = await one(relic(1));
    const document = JSON.parse((await deployed.world.file('relics/1.json')).toString());
    const svg = await deployed.world.file('relics/1.svg');
    expect(record).toMatchObject({
      tokenUri: `${deployed.world.origin}/world/nft/relics/1.json`,
      rawTokenUri: `${deployed.world.origin}/world/nft/relics/1.json`,
      metadata: document,
      error: null,
      name: 'Crucible Relics #1',
      description: document.description,
      image: {
        cachedUrl: `${SITE}/nft-media/${sha256Hex(svg)}`,
        thumbnailUrl: `${SITE}/nft-media/${sha256Hex(svg)}/thumbnail`,
        pngUrl: `${SITE}/nft-media/${sha256Hex(svg)}/png`,
        contentType: 'image/svg+xml',
        size: svg.length,
        originalUrl: `${deployed.world.origin}/world/nft/relics/1.svg`,
      },
      imageError: null,
    });

    const original = await served(record!.image.cachedUrl);
    expect(original.status).toBe(200);
    expect(Buffer.from(await original.arrayBuffer())).toEqual(svg);
    expect(Object.fromEntries(original.headers)).toMatchObject({
      'content-type': 'image/svg+xml',
      'content-length': String(svg.length),
      etag: `"${sha256Hex(svg)}"`,
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
      'content-security-policy': SVG_CONTENT_SECURITY_POLICY,
    });
    expect((await served(record!.image.cachedUrl, `"${sha256Hex(svg)}"`)).status).toBe(304);

    const thumbnail = await served(record!.image.thumbnailUrl);
    expect(thumbnail.headers.get('content-security-policy')).toBeNull();
    const thumbnailMeta = await sharp(Buffer.from(await thumbnail.arrayBuffer())).metadata();
    expect(thumbnail.headers.get('content-type')).toBe(`image/${thumbnailMeta.format}`);
    expect(Math.max(thumbnailMeta.width, thumbnailMeta.height)).toBeLessThanOrEqual(256);

    const png = await served(record!.image.pngUrl);
    expect(png.headers.get('content-type')).toBe('image/png');
    const pngBytes = Buffer.from(await png.arrayBuffer());
    expect(pngBytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect((await sharp(pngBytes).metadata()).format).toBe('png');
  });

  it('an on-chain data: document whose image is a data: SVG, read without a request', async () => {
    const record = await one(relic(100));
    expect(record?.rawTokenUri?.startsWith('data:application/json;base64,')).toBe(true);
    expect(record?.tokenUri).toBe(record?.rawTokenUri);
    expect(record).toMatchObject({ name: 'Crucible Relics #100', error: null, image: { contentType: 'image/svg+xml' } });
    expect(record?.image.originalUrl?.startsWith('data:image/svg+xml;base64,')).toBe(true);
    const original = await served(record!.image.cachedUrl);
    const svg = Buffer.from(await original.arrayBuffer());
    expect(svg.toString()).toMatch(/^<svg .*>100<\/text><\/svg>$/);
    expect(record?.image.size).toBe(svg.length);
  });

  it('ERC-1155: uri(id) with {id} substituted; a raster image measured from its bytes, not the origin’s header', async () => {
    // The origin calls it SVG; the bytes are a JPEG.
    deployed.world.override('/world/nft/materials/ore.svg', answers.body(await jpeg(60, 40), 'image/svg+xml'));
    const record = await one(material(1));
    const id = `${'0'.repeat(63)}1`;
    expect(record).toMatchObject({
      rawTokenUri: `${deployed.world.origin}/world/nft/materials/{id}.json`,
      tokenUri: `${deployed.world.origin}/world/nft/materials/${id}.json`,
      name: 'Ore',
      metadata: JSON.parse((await deployed.world.file(`materials/${id}.json`)).toString()),
      image: { contentType: 'image/jpeg', originalUrl: `${deployed.world.origin}/world/nft/materials/ore.svg` },
    });
    const original = await served(record!.image.cachedUrl);
    expect(original.headers.get('content-type')).toBe('image/jpeg');
    expect(original.headers.get('content-security-policy')).toBeNull();
    expect(Buffer.from(await original.arrayBuffer())).toEqual(await jpeg(60, 40));
    deployed.world.restore('/world/nft/materials/ore.svg');
  });

  it('a raster thumbnail is at most 256 px on its longer side', async () => {
    const image = await jpeg(900, 300);
    expect(image.length).toBeLessThan(IMAGE_CAP);
    deployed.world.override('/world/nft/materials/ingot.svg', answers.body(image, 'image/jpeg'));
    const record = await one(material(2));
    expect(record?.image.size).toBe(image.length);
    const thumbnail = await sharp(Buffer.from(await (await served(record!.image.thumbnailUrl)).arrayBuffer())).metadata();
    expect([thumbnail.width, thumbnail.height]).toEqual([256, 85]);
    const png = await sharp(Buffer.from(await (await served(record!.image.pngUrl)).arrayBuffer())).metadata();
    expect([png.format, png.width, png.height]).toEqual(['png', 900, 300]);
    deployed.world.restore('/world/nft/materials/ingot.svg');
  });

  it('the legacy NFT has no tokenURI: a record with the reason, no throw', async () => {
    const record = await one(punk(0));
    expect(record).toMatchObject({ tokenUri: null, rawTokenUri: null, metadata: null, name: null, error: expect.stringMatching(/tokenURI/) });
    expect(record?.image).toEqual({ cachedUrl: null, thumbnailUrl: null, pngUrl: null, contentType: null, size: null, originalUrl: null });
  });

  it('a document answered 404: raw.error says so', async () => {
    deployed.world.override('/world/nft/relics/5.json', answers.status(404));
    expect(await one(relic(5))).toMatchObject({ tokenUri: `${deployed.world.origin}/world/nft/relics/5.json`, metadata: null, error: 'HTTP 404' });
    deployed.world.restore('/world/nft/relics/5.json');
  });

  it('a document that never comes: the fetch ends at the timeout, stored as raw.error timeout', async () => {
    deployed.world.override('/world/nft/relics/6.json', answers.hang());
    await store.metadataOf([relic(6)], { timeoutMs: 200 });
    await store.idle();
    expect(await one(relic(6), null)).toMatchObject({ metadata: null, error: 'timeout' });
    deployed.world.restore('/world/nft/relics/6.json');
  });

  it('an image over the size cap: image fields null but originalUrl, the reason kept apart from raw.error', async () => {
    deployed.world.override('/world/nft/relics/4.svg', answers.body(Buffer.alloc(IMAGE_CAP + 1, 0x20), 'image/svg+xml'));
    const record = await one(relic(4));
    expect(record).toMatchObject({ error: null, name: 'Crucible Relics #4', imageError: 'too large' });
    expect(record?.image).toEqual({
      cachedUrl: null,
      thumbnailUrl: null,
      pngUrl: null,
      contentType: null,
      size: null,
      originalUrl: `${deployed.world.origin}/world/nft/relics/4.svg`,
    });
    deployed.world.restore('/world/nft/relics/4.svg');
  });

  it('cache only (timeoutMs null): nothing is fetched for a token without a record', async () => {
    const before = deployed.world.requestsFor('/world/nft/relics/2.json');
    expect(await store.metadataOf([relic(2), relic(1)], { timeoutMs: null })).toEqual(
      new Map([[nftKey(relic(1)), expect.objectContaining({ name: 'Crucible Relics #1' })]]),
    );
    expect(deployed.world.requestsFor('/world/nft/relics/2.json')).toBe(before);
  });

  it('concurrent requests for one token share one fetch', async () => {
    const documentBefore = deployed.world.requestsFor('/world/nft/relics/2.json');
    const imageBefore = deployed.world.requestsFor('/world/nft/relics/2.svg');
    const answers = await Promise.all([1, 2, 3].map(() => one(relic(2))));
    expect(answers.map((record) => record?.name)).toEqual(['Crucible Relics #2', 'Crucible Relics #2', 'Crucible Relics #2']);
    expect(deployed.world.requestsFor('/world/nft/relics/2.json') - documentBefore).toBe(1);
    expect(deployed.world.requestsFor('/world/nft/relics/2.svg') - imageBefore).toBe(1);
  });

  it('tokens showing one image share its media, fetched once', async () => {
    const before = deployed.world.requestsFor('/world/nft/airdrop/pass.svg');
    const records = await store.metadataOf([airdrop(1), airdrop(2), airdrop(3)], { timeoutMs: 60_000 });
    expect(new Set([...records.values()].map((record) => record.image.cachedUrl)).size).toBe(1);
    expect(records.size).toBe(3);
    expect(deployed.world.requestsFor('/world/nft/airdrop/pass.svg') - before).toBe(1);
  });

  it('a refresh with a changed document calls onMetadataChange once with before and after; an unchanged one never', async () => {
    const before = await one(relic(3));
    changes.length = 0;
    await store.refresh(relic(3), { timeoutMs: 60_000 });
    expect(changes).toEqual([]);

    const changed = { ...JSON.parse((await deployed.world.file('relics/3.json')).toString()), name: 'Crucible Relics #3, renamed' };
    deployed.world.override('/world/nft/relics/3.json', answers.body(JSON.stringify(changed), 'application/json'));
    const after = await store.refresh(relic(3), { timeoutMs: 60_000 });
    expect(after).toMatchObject({ name: 'Crucible Relics #3, renamed', metadata: changed });
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ network: NETWORK, contract: WORLD_ADDRESSES.relics.toLowerCase(), tokenId: '3', kind: 'erc721' });
    expect(changes[0]!.before).toMatchObject({ name: before!.name, metadata: before!.metadata });
    expect(changes[0]!.after).toMatchObject({ name: 'Crucible Relics #3, renamed', metadata: changed, image: before!.image });

    await store.refresh(relic(3), { timeoutMs: 60_000 });
    expect(changes).toHaveLength(1);
    deployed.world.restore('/world/nft/relics/3.json');
  });

  it('a refresh that meets an origin down for a while keeps the metadata the token had', async () => {
    const before = await one(relic(3));
    deployed.world.override('/world/nft/relics/3.json', answers.status(503));
    changes.length = 0;
    const after = await store.refresh(relic(3), { timeoutMs: 60_000 });
    expect(after).toMatchObject({ metadata: before!.metadata, error: null, timeLastUpdated: before!.timeLastUpdated });
    expect(changes).toEqual([]);
    deployed.world.restore('/world/nft/relics/3.json');
  });

  it('an unknown media hash is 404', async () => {
    expect((await createMediaRoute(database.db).handle({ method: 'GET', path: `/nft-media/${'0'.repeat(64)}` }))!.status).toBe(404);
    expect((await createMediaRoute(database.db).handle({ method: 'GET', path: '/nft-media/nothing' }))!.status).toBe(404);
    expect(createMediaRoute(database.db).handle({ method: 'GET', path: '/world/nft/relics/1.svg' })).toBeNull();
  });

  it('a chain reset clears the network’s records', async () => {
    expect((await store.metadataOf([relic(1)], { timeoutMs: null })).size).toBe(1);
    await database.db.transaction().execute((trx) => clearNetworkMetadata(trx, NETWORK));
    expect((await store.metadataOf([relic(1)], { timeoutMs: null })).size).toBe(0);
  });
});
