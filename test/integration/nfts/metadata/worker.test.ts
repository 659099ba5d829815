import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AIRDROP_SIZE } from '../../../../src/chain/world/history.ts';
import { WORLD_ADDRESSES } from '../../../../src/chain/world/manifest.ts';
import type { Database } from '../../../../src/db/open.ts';
import { createTransferIndexer } from '../../../../src/indexer/indexer.ts';
import { createNftMetadataStore, type NftMetadataChange, type NftMetadataStore } from '../../../../src/nfts/metadata/store.ts';
import { createNftMetadataWorker, type NftMetadataWorker } from '../../../../src/nfts/metadata/worker.ts';
import { nftKey } from '../../../../src/nfts/nft-sources.ts';
import { databaseEngines } from '../../../support/postgres.ts';
import { waitFor, waitForIndexed } from '../../indexer/token-chain.ts';
import { answers, deployedWorld, NETWORK, worldNft } from './world-server.ts';

// The metadata worker over the local world indexed from scratch (real anvil, real transfer index,
// both engines): every NFT the index holds gets a record, records past the TTL are fetched again,
// and only a document that changed makes an onMetadataChange.

const HOUR = 60 * 60 * 1000;

const deployed = deployedWorld();

const relic = (id: number) => worldNft('relics', id);

describe.each(databaseEngines())('the NFT metadata worker on $name', (engine) => {
  let database: Database;
  let store: NftMetadataStore;
  let worker: NftMetadataWorker;
  let clock = 0;
  const changes: NftMetadataChange[] = [];

  beforeAll(async () => {
    database = await engine.open();
    const indexer = createTransferIndexer({ db: database.db, networks: [{ id: NETWORK, rpcUrl: deployed.anvil.rpcUrl }], pollIntervalMs: 50, log: () => {} });
    indexer.start();
    await waitForIndexed(database.db, NETWORK, deployed.anvil.client);
    await indexer.stop();
    const now = () => Date.now() + clock;
    store = createNftMetadataStore({
      db: database.db,
      ...deployed.storeOptions(),
      siteOrigin: 'https://crucible.example',
      fetch: { ...deployed.storeOptions().fetch, imageMaxBytes: 1024 * 1024 },
      concurrency: 8,
      onMetadataChange: (_trx, change) => void changes.push(change),
      now,
    });
    worker = createNftMetadataWorker({
      db: database.db,
      store,
      networks: [NETWORK],
      ttlMs: 24 * HOUR,
      retryMs: HOUR,
      pollIntervalMs: 20,
      batch: 1000,
      timeoutMs: 10_000,
      now,
      log: () => {},
    });
  });

  afterAll(async () => {
    await worker?.stop();
    await database?.close();
  });

  it('fetches every indexed NFT without a record, once', async () => {
    const indexed = await database.db.selectFrom('indexer_nft_balances').select(['contract', 'token_id']).distinct().execute();
    // The relics, the materials, the punks and the 500 airdropped passes.
    expect(indexed.length).toBeGreaterThan(AIRDROP_SIZE);
    const passBefore = deployed.world.requestsFor('/world/nft/airdrop/pass.svg');
    expect(await worker.runOnce()).toEqual({ fetched: indexed.length, refreshed: 0 });
    const records = await database.db.selectFrom('nft_metadata').select(['contract', 'token_id', 'error']).execute();
    expect(records.map((row) => `${row.contract}:${row.token_id}`).sort()).toEqual(indexed.map((row) => `${row.contract}:${row.token_id}`).sort());
    // Punks have no tokenURI: their records say why; every other token has its document.
    expect(records.filter((row) => row.error !== null).map((row) => row.contract)).toEqual(
      records.filter((row) => row.contract === WORLD_ADDRESSES.punks.toLowerCase()).map(() => WORLD_ADDRESSES.punks.toLowerCase()),
    );
    // 500 tokens, one image.
    expect(deployed.world.requestsFor('/world/nft/airdrop/pass.svg') - passBefore).toBe(1);
    expect(await worker.runOnce()).toEqual({ fetched: 0, refreshed: 0 });
  });

  it('fetches records again past the TTL; only a changed document calls onMetadataChange', async () => {
    const changed = { ...JSON.parse((await deployed.world.file('relics/2.json')).toString()), description: 'Changed since.' };
    deployed.world.override('/world/nft/relics/2.json', answers.body(JSON.stringify(changed), 'application/json'));
    const before = (await store.metadataOf([relic(2)], { timeoutMs: null })).get(nftKey(relic(2)))!;
    changes.length = 0;
    clock += 25 * HOUR;
    const count = (
      await database.db
        .selectFrom('nft_metadata')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow()
    ).count;
    expect(await worker.runOnce()).toEqual({ fetched: 0, refreshed: Number(count) });
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ tokenId: '2', contract: WORLD_ADDRESSES.relics.toLowerCase(), before: { metadata: before.metadata } });
    expect(changes[0]!.after.metadata).toEqual(changed);
    expect(changes[0]!.after.timeLastUpdated).toBeGreaterThan(before.timeLastUpdated);
    deployed.world.restore('/world/nft/relics/2.json');
  });

  it('retries a failed document after the retry interval, before the TTL', async () => {
    deployed.world.override('/world/nft/relics/1.json', answers.status(404));
    clock += 25 * HOUR;
    await worker.runOnce();
    expect((await store.metadataOf([relic(1)], { timeoutMs: null })).get(nftKey(relic(1)))).toMatchObject({ error: 'HTTP 404' });
    deployed.world.restore('/world/nft/relics/1.json');
    clock += 2 * HOUR;
    // Only the failed ones (the relic, and the punks, which wait for the TTL) are due.
    expect(await worker.runOnce()).toEqual({ fetched: 0, refreshed: 1 });
    expect((await store.metadataOf([relic(1)], { timeoutMs: null })).get(nftKey(relic(1)))).toMatchObject({ error: null, name: 'Crucible Relics #1' });
  });

  it('runs on its own until stopped', async () => {
    await database.db.deleteFrom('nft_metadata').where('token_id', '=', '1').where('contract', '=', WORLD_ADDRESSES.relics.toLowerCase()).execute();
    worker.start();
    await waitFor(async () => (await store.metadataOf([relic(1)], { timeoutMs: null })).size === 1);
    await worker.stop();
  });
});
