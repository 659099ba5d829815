import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.ts';
import type { IndexHooks } from '../../transfers/index-events.ts';
import { decodeMarketLogs, type ListingCancelled, type ListingMade, type SaleMade } from './decode.ts';
import { MARKETPLACE_TOPICS } from './events.ts';

// The marketplaces' events as the transfer index keeps them (migration 0010): the index asks for
// their logs with its own and hands them here inside its step's transaction, so a sale is stored
// with the transfers of its block or not at all; a reorg deletes what came after the common
// ancestor and a reset the network's rows, in the index's transaction too. Rows are only inserted
// and deleted; a second event for the same listing (which only another contract than a Crucible
// marketplace would emit) keeps the first.

type Trx = Kysely<DatabaseSchema>;

const TABLES = ['nft_market_listings', 'nft_market_cancellations', 'nft_market_sales'] as const;
/** Rows per statement: well under both engines' limits on bound parameters. */
const ROWS_PER_STATEMENT = 200;

/** What the marketplaces' events do in the transfer index's transactions (the runtime adds them to the index's hooks). */
export function marketIndexHooks(): Pick<IndexHooks, 'followedLogs' | 'onReorg' | 'onReset'> {
  return {
    followedLogs: {
      topics: MARKETPLACE_TOPICS,
      async onLogs(event, trx) {
        const { listings, cancellations, sales } = decodeMarketLogs(event.logs);
        await insertChunked(
          trx,
          'nft_market_listings',
          listings.map((listing) => listingRow(event.network, listing)),
        );
        await insertChunked(
          trx,
          'nft_market_cancellations',
          cancellations.map((cancellation) => eventRow(event.network, cancellation)),
        );
        await insertChunked(
          trx,
          'nft_market_sales',
          sales.map((sale) => saleRow(event.network, sale)),
        );
      },
    },
    async onReorg(event, trx) {
      for (const table of TABLES) await trx.deleteFrom(table).where('network', '=', event.network).where('block_number', '>', event.ancestor.number).execute();
    },
    async onReset(event, trx) {
      for (const table of TABLES) await trx.deleteFrom(table).where('network', '=', event.network).execute();
    },
  };
}

async function insertChunked<T extends (typeof TABLES)[number]>(trx: Trx, table: T, rows: ReadonlyArray<DatabaseSchema[T]>): Promise<void> {
  for (let offset = 0; offset < rows.length; offset += ROWS_PER_STATEMENT) {
    await trx
      .insertInto(table)
      .values(rows.slice(offset, offset + ROWS_PER_STATEMENT) as never)
      .onConflict((conflict) => conflict.doNothing())
      .execute();
  }
}

function eventRow(network: string, event: ListingCancelled) {
  return {
    network,
    marketplace: event.marketplace,
    listing_id: event.listingId,
    block_number: event.blockNumber,
    log_index: event.logIndex,
    transaction_hash: event.transactionHash,
  };
}

function listingRow(network: string, listing: ListingMade): DatabaseSchema['nft_market_listings'] {
  const { seller, collection, tokenId, quantity, currency, unitPrice } = listing;
  return { ...eventRow(network, listing), seller, collection, token_id: tokenId, quantity, currency, unit_price: unitPrice };
}

function saleRow(network: string, sale: SaleMade): DatabaseSchema['nft_market_sales'] {
  return {
    ...eventRow(network, sale),
    block_timestamp: sale.blockTimestamp,
    buyer: sale.buyer,
    seller: sale.seller,
    collection: sale.collection,
    token_id: sale.tokenId,
    quantity: sale.quantity,
    currency: sale.currency,
    price: sale.price,
    marketplace_fee: sale.marketplaceFee,
    royalty_receiver: sale.royaltyReceiver,
    royalty_fee: sale.royaltyFee,
  };
}
