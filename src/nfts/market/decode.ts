import { decodeEventLog, type Address, type Hex } from 'viem';
import type { ChainLog } from '../../transfers/transfer.ts';
import { MARKETPLACE_EVENTS } from './events.ts';

// Marketplace logs to what the index keeps of them (pure). Any contract may emit events with these
// signatures, so a log without their exact shape, with a quantity of 0 or beyond 2^53 - 1 (the
// contract's own ceiling, exact as a JavaScript number), or a sale whose fees exceed its price, is
// skipped and counted, never guessed at. Addresses are lowercase; amounts decimal strings.

interface LogPlace {
  /** The marketplace contract that emitted it. */
  marketplace: Address;
  listingId: string;
  blockNumber: number;
  logIndex: number;
  transactionHash: Hex;
}

export interface ListingMade extends LogPlace {
  seller: Address;
  collection: Address;
  tokenId: string;
  quantity: number;
  /** The zero address: the chain's native currency. */
  currency: Address;
  unitPrice: string;
}

export type ListingCancelled = LogPlace;

export interface SaleMade extends LogPlace {
  blockTimestamp: number | null;
  buyer: Address;
  seller: Address;
  collection: Address;
  tokenId: string;
  quantity: number;
  currency: Address;
  price: string;
  marketplaceFee: string;
  royaltyReceiver: Address;
  royaltyFee: string;
}

export interface DecodedMarketLogs {
  listings: ListingMade[];
  cancellations: ListingCancelled[];
  sales: SaleMade[];
  skipped: number;
}

export function decodeMarketLogs(logs: readonly ChainLog[]): DecodedMarketLogs {
  const decoded: DecodedMarketLogs = { listings: [], cancellations: [], sales: [], skipped: 0 };
  for (const log of logs) {
    const event = log.removed ? null : decodeLog(log);
    if (!event) {
      decoded.skipped++;
      continue;
    }
    const place: LogPlace = {
      marketplace: lower(log.address),
      listingId: event.args.listingId.toString(),
      blockNumber: log.blockNumber,
      logIndex: log.logIndex,
      transactionHash: log.transactionHash.toLowerCase() as Hex,
    };
    if (event.eventName === 'Cancelled') {
      decoded.cancellations.push(place);
      continue;
    }
    const quantity = countOf(event.args.quantity);
    if (quantity === null) {
      decoded.skipped++;
      continue;
    }
    if (event.eventName === 'Listed') {
      const { seller, collection, tokenId, currency, unitPrice } = event.args;
      decoded.listings.push({
        ...place,
        seller: lower(seller),
        collection: lower(collection),
        tokenId: tokenId.toString(),
        quantity,
        currency: lower(currency),
        unitPrice: unitPrice.toString(),
      });
      continue;
    }
    const { buyer, seller, collection, tokenId, currency, price, marketplaceFee, royaltyReceiver, royaltyFee } = event.args;
    if (marketplaceFee + royaltyFee > price) {
      decoded.skipped++;
      continue;
    }
    decoded.sales.push({
      ...place,
      blockTimestamp: log.blockTimestamp,
      buyer: lower(buyer),
      seller: lower(seller),
      collection: lower(collection),
      tokenId: tokenId.toString(),
      quantity,
      currency: lower(currency),
      price: price.toString(),
      marketplaceFee: marketplaceFee.toString(),
      royaltyReceiver: lower(royaltyReceiver),
      royaltyFee: royaltyFee.toString(),
    });
  }
  return decoded;
}

function decodeLog(log: ChainLog) {
  try {
    return decodeEventLog({ abi: MARKETPLACE_EVENTS, data: log.data, topics: log.topics as [Hex, ...Hex[]], strict: true });
  } catch {
    return null;
  }
}

/** A listing's or sale's quantity as the index stores it, or null when it is 0 or not exact as a number. */
function countOf(quantity: bigint): number | null {
  return quantity > 0n && quantity <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(quantity) : null;
}

const lower = (address: string) => address.toLowerCase() as Address;
