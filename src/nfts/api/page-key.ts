import { getAddress } from 'viem';
import type { NftsOfOwnerQuery } from '../../transfers/queries.ts';

// The pageKeys of the NFT endpoints (docs/nft-data.md#paging): opaque to callers, each is the
// index's keyset cursor (where the next page starts) with what it was given for: the endpoint's
// kind of list, its order and the query's subject (the owner, the contract, the token), as
// base64url. A key another list, order or subject gave, or any text this did not write, is refused
// (400), so a key from one query never pages another.

/** What a key pages: the list (and its order) it was given for. */
type PageKind =
  /** An owner's NFTs by contract and token id; by the transfer that last changed them. */
  | 'ownerNfts'
  | 'ownerNftsByTime'
  /** A contract's tokens by token id. */
  | 'contractTokens'
  /** A contract's owners by address. */
  | 'contractOwners'
  /** A token's owners by address. */
  | 'tokenOwners'
  /** An owner's contracts by address; by the transfer that last changed them. */
  | 'ownerContracts'
  | 'ownerContractsByTime';

const MARKS: Record<PageKind, string> = {
  ownerNfts: 'c',
  ownerNftsByTime: 't',
  contractTokens: 'k',
  contractOwners: 'o',
  tokenOwners: 'n',
  ownerContracts: 'w',
  ownerContractsByTime: 'x',
};

const HEX40 = /^[0-9a-f]{40}$/;
const TOKEN_ID = /^(0|[1-9]\d{0,77})$/;
const BLOCK = /^(0|[1-9]\d{0,15})$/;
const LOG_INDEX = /^(0|[1-9]\d{0,9})$/;

/** A key for `kind` of `subject` (lowercase addresses, a token id: what names the query) whose next page starts after `cursor`. */
function encode(kind: PageKind, subject: string, cursor: readonly string[]): string {
  return Buffer.from([MARKS[kind], subject, ...cursor].join(':')).toString('base64url');
}

/** The cursor's parts of a key this gave for `kind` of `subject`, each matching its pattern; null for any other text. */
function decode(kind: PageKind, subject: string, pageKey: string, parts: readonly RegExp[]): string[] | null {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(pageKey)) return null;
  const text = Buffer.from(pageKey, 'base64url').toString('latin1');
  if (Buffer.from(text, 'latin1').toString('base64url') !== pageKey) return null;
  const [mark, keySubject, ...cursor] = text.split(':');
  if (mark !== MARKS[kind] || keySubject !== subject || cursor.length !== parts.length) return null;
  return cursor.every((part, i) => parts[i]!.test(part)) ? cursor : null;
}

const lower = (address: string) => address.toLowerCase().replace(/^0x/, '');

type OwnerCursor = NonNullable<NftsOfOwnerQuery['after']>;
type OwnerOrder = NonNullable<NftsOfOwnerQuery['orderBy']>;
const ownerKind = (order: OwnerOrder): PageKind => (order === 'transferTime' ? 'ownerNftsByTime' : 'ownerNfts');

/** An owner's NFTs: the last NFT of the page and the transfer that last changed it. */
export function encodeOwnerNftsKey(owner: string, order: OwnerOrder, cursor: OwnerCursor): string {
  return encode(ownerKind(order), lower(owner), [lower(cursor.contract), cursor.tokenId, String(cursor.lastBlock), String(cursor.lastLogIndex)]);
}

export function decodeOwnerNftsKey(owner: string, order: OwnerOrder, pageKey: string): OwnerCursor | null {
  const parts = decode(ownerKind(order), lower(owner), pageKey, [HEX40, TOKEN_ID, BLOCK, LOG_INDEX]);
  if (!parts) return null;
  const [contract, tokenId, lastBlock, lastLogIndex] = parts as [string, string, string, string];
  return { contract: getAddress(`0x${contract}`), tokenId, lastBlock: Number(lastBlock), lastLogIndex: Number(lastLogIndex) };
}

/** A contract's tokens: the last token id of the page. */
export function encodeContractTokensKey(contract: string, lastTokenId: string): string {
  return encode('contractTokens', lower(contract), [lastTokenId]);
}

export function decodeContractTokensKey(contract: string, pageKey: string): string | null {
  return decode('contractTokens', lower(contract), pageKey, [TOKEN_ID])?.[0] ?? null;
}

/** A contract's owners: the last owner of the page (lowercase, with 0x). */
export function encodeContractOwnersKey(contract: string, lastOwner: string): string {
  return encode('contractOwners', lower(contract), [lower(lastOwner)]);
}

export function decodeContractOwnersKey(contract: string, pageKey: string): string | null {
  const part = decode('contractOwners', lower(contract), pageKey, [HEX40])?.[0];
  return part ? `0x${part}` : null;
}

/** A token's owners: the last owner of the page (lowercase, with 0x). */
export function encodeTokenOwnersKey(contract: string, tokenId: string, lastOwner: string): string {
  return encode('tokenOwners', `${lower(contract)}-${tokenId}`, [lower(lastOwner)]);
}

export function decodeTokenOwnersKey(contract: string, tokenId: string, pageKey: string): string | null {
  const part = decode('tokenOwners', `${lower(contract)}-${tokenId}`, pageKey, [HEX40])?.[0];
  return part ? `0x${part}` : null;
}

/** An owner's contracts: the last contract of the page, and in transfer order the transfer that last changed its tokens. */
export interface OwnerContractsCursor {
  /** Lowercase, with 0x. */
  contract: string;
  lastBlock: number;
  lastLogIndex: number;
}

const ownerContractsKind = (byTime: boolean): PageKind => (byTime ? 'ownerContractsByTime' : 'ownerContracts');

export function encodeOwnerContractsKey(owner: string, byTime: boolean, cursor: OwnerContractsCursor): string {
  return encode(ownerContractsKind(byTime), lower(owner), [lower(cursor.contract), String(cursor.lastBlock), String(cursor.lastLogIndex)]);
}

export function decodeOwnerContractsKey(owner: string, byTime: boolean, pageKey: string): OwnerContractsCursor | null {
  const parts = decode(ownerContractsKind(byTime), lower(owner), pageKey, [HEX40, BLOCK, LOG_INDEX]);
  if (!parts) return null;
  return { contract: `0x${parts[0]!}`, lastBlock: Number(parts[1]), lastLogIndex: Number(parts[2]) };
}
