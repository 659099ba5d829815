import { getAddress } from 'viem';
import type { NftsOfOwnerQuery } from '../../transfers/queries.ts';

// The pageKey of an owner's NFTs (docs/nft-data.md#getnfts-and-getnftsforowner): opaque to callers, it is the index's keyset cursor (the
// last NFT of the page and the transfer that last changed it) with the order it was given in, as
// base64url. A key another order gave, or any text this did not write, is refused (400).

type Cursor = NonNullable<NftsOfOwnerQuery['after']>;
type Order = NonNullable<NftsOfOwnerQuery['orderBy']>;

const ORDER_MARKS: Record<Order, string> = { contract: 'c', transferTime: 't' };
const SHAPE = /^([ct]):([0-9a-f]{40}):(0|[1-9]\d{0,77}):(0|[1-9]\d{0,15}):(0|[1-9]\d{0,9})$/;

export function encodeNftPageKey(order: Order, cursor: Cursor): string {
  const text = `${ORDER_MARKS[order]}:${cursor.contract.slice(2).toLowerCase()}:${cursor.tokenId}:${cursor.lastBlock}:${cursor.lastLogIndex}`;
  return Buffer.from(text).toString('base64url');
}

/** The cursor a pageKey names for this order, or null when it is not one this gave for it. */
export function decodeNftPageKey(order: Order, pageKey: string): Cursor | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(pageKey)) return null;
  const text = Buffer.from(pageKey, 'base64url').toString('latin1');
  if (Buffer.from(text, 'latin1').toString('base64url') !== pageKey) return null;
  const match = SHAPE.exec(text);
  if (!match || match[1] !== ORDER_MARKS[order]) return null;
  return { contract: getAddress(`0x${match[2]!}`), tokenId: match[3]!, lastBlock: Number(match[4]), lastLogIndex: Number(match[5]) };
}
