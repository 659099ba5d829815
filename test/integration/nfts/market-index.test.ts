import { encodeAbiParameters, encodeEventTopics, getAbiItem, type Abi, type AbiEvent, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { deployWorld } from '../../../src/chain/world/deploy.ts';
import { WORLD_ADDRESSES } from '../../../src/chain/world/manifest.ts';
import { WORLD_MARKETPLACE, worldMarket } from '../../../src/chain/world/market.ts';
import type { Database } from '../../../src/db/open.ts';
import { createTransferIndexer } from '../../../src/indexer/indexer.ts';
import { MARKETPLACE_EVENTS } from '../../../src/nfts/market/events.ts';
import { createNftMarketApi } from '../../../src/nfts/market/market-api.ts';
import { marketIndexHooks } from '../../../src/nfts/market/market-table.ts';
import { NftSalesQuery } from '../../../src/nfts/market/params.ts';
import { productIndexHooks } from '../../../src/runtime/adapters/index-hooks.ts';
import { startTestAnvil } from '../../support/anvil.ts';
import { databaseEngines } from '../../support/postgres.ts';
import { cleanupAfterEach, waitForIndexed } from '../indexer/token-chain.ts';

// The marketplaces' events in the transfer index, on both engines, with the hooks the runtime gives
// the indexer: the world's history stored as its plan says, a second event for a listing ignored
// rather than failing the step, a reset forgetting the network's, and a network that reads no
// marketplace saying so.

const NETWORK = 'crucible-testnet';
const count = async (database: Database, table: 'nft_market_listings' | 'nft_market_cancellations' | 'nft_market_sales') =>
  Number(
    (
      await database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('network', '=', NETWORK)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe.each(databaseEngines())('marketplace events in the transfer index on $name', (engine) => {
  const cleanup = cleanupAfterEach();

  it("keeps the world's listings, cancellations and sales; ignores a repeated listing; forgets them on reset", async () => {
    const anvil = await startTestAnvil({ chainId: 7357001 });
    cleanup(() => anvil.stop());
    await deployWorld(anvil.rpcUrl, { siteOrigin: 'http://localhost:4321' });
    const database = await engine.open();
    cleanup(() => database.close());
    const hooks = productIndexHooks({ reorgWindow: 128, nativeCurrency: () => ({ symbol: 'ETH', decimals: 18 }) });
    const indexer = createTransferIndexer({ db: database.db, networks: [{ id: NETWORK, rpcUrl: anvil.rpcUrl }], pollIntervalMs: 50, log: () => {}, ...hooks });
    cleanup(() => indexer.stop());
    indexer.start();
    await waitForIndexed(database.db, NETWORK, anvil.client);

    const plan = worldMarket();
    expect(await count(database, 'nft_market_listings')).toBe(plan.listings.length);
    expect(await count(database, 'nft_market_cancellations')).toBe(plan.listings.filter((listing) => listing.cancelled).length);
    const sales = await database.db.selectFrom('nft_market_sales').selectAll().where('network', '=', NETWORK).orderBy('block_number').execute();
    expect(sales.map((row) => [row.listing_id, row.buyer, Number(row.quantity), row.price, row.marketplace_fee, row.royalty_fee])).toEqual(
      plan.sales.map((sale) => [
        sale.listing.toString(),
        sale.buyer.toLowerCase(),
        Number(sale.quantity),
        sale.price.toString(),
        sale.marketplaceFee.toString(),
        sale.royaltyFee.toString(),
      ]),
    );
    await indexer.stop();

    // Another contract could emit a Listed with a number the marketplace already used: the first is kept, the step goes on.
    const item = getAbiItem({ abi: MARKETPLACE_EVENTS as Abi, name: 'Listed' }) as AbiEvent;
    const first = plan.listings[0]!;
    const repeated = {
      address: WORLD_MARKETPLACE.address,
      topics: encodeEventTopics({
        abi: MARKETPLACE_EVENTS,
        eventName: 'Listed',
        args: { listingId: first.id, seller: first.seller, collection: WORLD_ADDRESSES.relics },
      }) as Hex[],
      data: encodeAbiParameters(
        item.inputs.filter((input) => !input.indexed),
        [first.tokenId, 1n, '0x0000000000000000000000000000000000000000', 1n],
      ),
      blockNumber: 10_000,
      blockHash: `0x${'11'.repeat(32)}` as Hex,
      blockTimestamp: null,
      transactionHash: `0x${'22'.repeat(32)}` as Hex,
      transactionIndex: 0,
      logIndex: 0,
      removed: false,
    };
    await database.db.transaction().execute(async (trx) => hooks.followedLogs!.onLogs({ network: NETWORK, from: 10_000, to: 10_000, logs: [repeated] }, trx));
    const kept = await database.db
      .selectFrom('nft_market_listings')
      .selectAll()
      .where('network', '=', NETWORK)
      .where('listing_id', '=', first.id.toString())
      .execute();
    expect(kept.map((row) => [row.unit_price, Number(row.block_number)])).toEqual([[first.unitPrice.toString(), expect.any(Number)]]);
    expect(Number(kept[0]!.block_number)).toBeLessThan(10_000);

    // A network that reads no marketplace: no floor, no sales, and the answer says which it reads (none).
    const none = createNftMarketApi({
      network: NETWORK,
      db: database.db,
      marketplaces: [],
      nativeCurrency: { symbol: 'ETH', decimals: 18 },
      tokenOf: () => null,
      collectionUrl: () => 'https://explorer.example/',
    });
    expect(await none.floorPrice({ contractAddress: WORLD_ADDRESSES.relics })).toEqual({
      openSea: expect.objectContaining({ floorPrice: null, error: expect.stringMatching(/reads these marketplaces: none\.$/) }),
      looksRare: expect.objectContaining({ floorPrice: null, error: expect.stringMatching(/reads these marketplaces: none\.$/) }),
    });
    expect(await none.nftSales(NftSalesQuery.parse({}))).toMatchObject({ nftSales: [], pageKey: null, marketplaces: [] });

    await database.db.transaction().execute(async (trx) => marketIndexHooks().onReset!({ network: NETWORK, reason: 'genesis-changed' }, trx));
    for (const table of ['nft_market_listings', 'nft_market_cancellations', 'nft_market_sales'] as const) expect(await count(database, table)).toBe(0);
  });
});
