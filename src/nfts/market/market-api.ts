import type { Kysely } from 'kysely';
import { formatUnits, getAddress, zeroAddress, type Address } from 'viem';
import type { DatabaseSchema, NftMarketSaleRow } from '../../db/schema.ts';
import { CrucibleError } from '../../errors/crucible-error.ts';
import { indexedBlock, type IndexedBlock } from '../../transfers/queries.ts';
import { cheapestOpenListing, salesPage } from './market-reads.ts';
import { encodeSalesPageKey, decodeSalesPageKey } from './page-key.ts';
import { blockOf, salesQueryFingerprint, type FloorPriceQuery, type NftSalesQuery } from './params.ts';
import type { FloorPriceBody, FloorPriceEntryBody, NftSaleBody, NftSalesBody } from './schemas.ts';

// getFloorPrice and getNFTSales of one network (docs/nft-data.md#marketplaces) as plain answers, from the
// marketplace events the transfer index keeps (./market-table.ts), for the marketplaces the network
// reads: each a name and the address of a contract with the Crucible marketplace's events. The
// keyed REST door routes to them through their entries (./operations.ts); a refusal is a thrown CrucibleError.

/** A marketplace a network reads: its name in answers, and its contract. */
export interface Marketplace {
  name: string;
  address: Address;
}

/** A token's symbol and decimals, where the token list knows them. */
interface CurrencyFacts {
  symbol: string | null;
  decimals: number | null;
}

export interface NftMarketApiOptions {
  network: string;
  db: Kysely<DatabaseSchema>;
  marketplaces: readonly Marketplace[];
  nativeCurrency: { symbol: string; decimals: number };
  /** An ERC-20's symbol and decimals, or null when they are not known. */
  tokenOf(contract: Address): CurrencyFacts | null;
  /** Where a person sees the collection (a floor's `collectionUrl`). */
  collectionUrl(contract: Address): string;
  /** Settles when the network's index can answer (a fresh devnet's first answer waits for it); default at once. */
  indexReady?: (network: string) => Promise<void>;
}

export interface NftMarketApi {
  floorPrice(query: FloorPriceQuery): Promise<FloorPriceBody>;
  nftSales(query: NftSalesQuery): Promise<NftSalesBody>;
}

/** Marketplaces alchemy-sdk names (its NftSaleMarketplace, and getFloorPrice's keys): Crucible reads none of them. */
const SDK_SALE_MARKETPLACES = ['seaport', 'looksrare', 'x2y2', 'wyvern', 'cryptopunks', 'blur', 'unknown'];
const SDK_FLOOR_MARKETPLACES = [
  { key: 'openSea', name: 'OpenSea' },
  { key: 'looksRare', name: 'LooksRare' },
] as const;

export function createNftMarketApi(options: NftMarketApiOptions): NftMarketApi {
  const { network, db, marketplaces, nativeCurrency } = options;
  const readNames = marketplaces.map((marketplace) => marketplace.name).join(', ') || 'none';
  const indexed = async (): Promise<IndexedBlock> => {
    await options.indexReady?.(network);
    const block = await indexedBlock(db, network);
    if (block) return block;
    throw new CrucibleError('upstream_unavailable', `The transfer index of network ${network} holds no block yet; marketplace data needs it.`);
  };
  const unread = (error: string): FloorPriceEntryBody => ({ floorPrice: null, priceCurrency: null, collectionUrl: null, retrievedAt: null, error });

  const floorPrice = async (query: FloorPriceQuery): Promise<FloorPriceBody> => {
    const block = await indexed();
    const collection = getAddress(query.contractAddress);
    const answer: FloorPriceBody = {};
    for (const marketplace of marketplaces) {
      const listing = await cheapestOpenListing(db, network, { marketplace: marketplace.address, collection, currency: zeroAddress });
      answer[marketplace.name] = listing
        ? {
            floorPrice: Number(formatUnits(BigInt(listing.unit_price), nativeCurrency.decimals)),
            priceCurrency: nativeCurrency.symbol,
            collectionUrl: options.collectionUrl(collection),
            retrievedAt: isoOf(block.timestamp),
            error: null,
          }
        : unread(`${marketplace.name} has no open listing of ${collection} priced in ${nativeCurrency.symbol}.`);
    }
    for (const { key, name } of SDK_FLOOR_MARKETPLACES) {
      answer[key] ??= unread(`${name} is not read: its listings are off-chain. On ${network} Crucible reads these marketplaces: ${readNames}.`);
    }
    return answer;
  };

  const nftSales = async (query: NftSalesQuery): Promise<NftSalesBody> => {
    const block = await indexed();
    const asked = query.marketplace?.toLowerCase();
    const read = asked === undefined ? marketplaces : marketplaces.filter((marketplace) => marketplace.name.toLowerCase() === asked);
    if (asked !== undefined && read.length === 0 && !SDK_SALE_MARKETPLACES.includes(asked))
      throw new CrucibleError('bad_request', `marketplace ${query.marketplace} is not one network ${network} reads (${readNames}).`);
    const fingerprint = salesQueryFingerprint(query);
    const after = query.pageKey === undefined ? undefined : (decodeSalesPageKey(fingerprint, query.pageKey) ?? undefined);
    // Every sale takes a listing, so its buyer is the taker: a sale taken by its seller does not exist.
    const rows =
      query.taker?.toLowerCase() === 'seller'
        ? []
        : await salesPage(db, network, {
            marketplaces: read.map((marketplace) => marketplace.address),
            collection: query.contractAddress,
            tokenId: query.tokenId === undefined ? undefined : BigInt(query.tokenId).toString(),
            buyer: query.buyerAddress,
            seller: query.sellerAddress,
            fromBlock: atHead(blockOf(query.fromBlock), block),
            toBlock: atHead(blockOf(query.toBlock), block),
            order: query.order,
            after,
            limit: query.limit,
          });
    const page = rows.slice(0, query.limit);
    const last = rows.length > query.limit ? page.at(-1)! : null;
    const byAddress = new Map(marketplaces.map((marketplace) => [marketplace.address.toLowerCase(), marketplace.name]));
    return {
      nftSales: page.map((row) => saleBody(row, byAddress.get(row.marketplace)!)),
      validAt: { blockNumber: block.number, blockHash: block.hash, blockTimestamp: isoOf(block.timestamp) },
      pageKey: last ? encodeSalesPageKey(fingerprint, { blockNumber: last.block_number, logIndex: last.log_index }) : null,
      marketplaces: read.map((marketplace) => ({ name: marketplace.name, address: getAddress(marketplace.address) })),
    };
  };

  const feeOf = (amount: bigint, currency: string): NftSaleBody['sellerFee'] => {
    const native = currency === zeroAddress;
    const token = native ? nativeCurrency : options.tokenOf(getAddress(currency));
    return { amount: amount.toString(), tokenAddress: getAddress(currency), symbol: token?.symbol ?? null, decimals: token?.decimals ?? null };
  };

  const saleBody = (row: NftMarketSaleRow, marketplace: string): NftSaleBody => {
    const price = BigInt(row.price);
    const fee = BigInt(row.marketplace_fee);
    const royalty = BigInt(row.royalty_fee);
    return {
      marketplace,
      marketplaceAddress: getAddress(row.marketplace),
      contractAddress: getAddress(row.collection),
      tokenId: row.token_id,
      quantity: String(row.quantity),
      buyerAddress: getAddress(row.buyer),
      sellerAddress: getAddress(row.seller),
      taker: 'BUYER',
      sellerFee: feeOf(price - fee - royalty, row.currency),
      protocolFee: feeOf(fee, row.currency),
      royaltyFee: feeOf(royalty, row.currency),
      blockNumber: row.block_number,
      logIndex: row.log_index,
      bundleIndex: 0,
      transactionHash: row.transaction_hash,
    };
  };

  return { floorPrice, nftSales };
}

/** Each network's marketplace endpoints, made when first asked for; null where the network has no `{node_url}` NFT data (404). */
export function nftMarketApisOf(
  networks: readonly string[],
  options: (network: string) => Omit<NftMarketApiOptions, 'network'>,
): (network: string | null) => NftMarketApi | null {
  const served = new Set(networks);
  const apis = new Map<string, NftMarketApi>();
  return (network) => {
    if (network === null || !served.has(network)) return null;
    let api = apis.get(network);
    if (!api) apis.set(network, (api = createNftMarketApi({ network, ...options(network) })));
    return api;
  };
}

const atHead = (tag: number | 'latest', head: IndexedBlock): number => (tag === 'latest' ? head.number : tag);

const isoOf = (seconds: number | null): string | null => (seconds === null ? null : new Date(seconds * 1000).toISOString());
