import { formatUnits } from 'viem';
import type { NativeTransfer, NftKind, Transfer } from '../transfers/transfer.ts';
import type { WebhookType } from './schemas.ts';

// What a delivery POSTs (docs/webhooks.md#payload), in the incumbent's shape: `{ webhookId, id, createdAt, type,
// event }`. NFT_ACTIVITY's event is `{ network, activity: [...] }`, one item per NFT moved (ERC-721,
// ERC-1155 with one item per id of a batch, and the legacy CryptoPunks-style NFTs as category
// `token`); ADDRESS_ACTIVITY's the same with every transfer touching a listed address, native ones
// included, in the incumbent's address-activity item; numbers and token ids as 0x hex, addresses lowercase. The index
// keeps no topics or data, so `log` carries the fields that place the log on the chain. Pure: the
// outbox stores the text.

export type ActivityCategory = 'erc721' | 'erc1155' | 'token';

interface ActivityLog {
  address: string;
  blockNumber: string;
  blockHash: string;
  transactionHash: string;
  logIndex: string;
  /** true: a reorg undid this transfer, sent before. */
  removed: boolean;
}

export interface ActivityItem {
  fromAddress: string;
  toAddress: string;
  contractAddress: string;
  blockNum: string;
  hash: string;
  /** ERC-721 and legacy NFTs; null for ERC-1155. */
  erc721TokenId: string | null;
  /** ERC-1155: the id and amount moved; null otherwise. */
  erc1155Metadata: Array<{ tokenId: string; value: string }> | null;
  category: ActivityCategory;
  log: ActivityLog;
}

/**
 * What a webhook tells of an NFT's metadata record, as the NFT metadata store keeps it
 * (src/nfts/nft-sources.ts, NftMetadataRecord): the fields of a snapshot, and the image's URLs.
 */
export interface NftMetadataFacts {
  tokenUri: string | null;
  metadata: Record<string, unknown> | null;
  name: string | null;
  description: string | null;
  image: { cachedUrl: string | null; originalUrl: string | null };
  error: string | null;
  /** ms since the epoch. */
  timeLastUpdated: number;
}

/** A token's metadata before or after a refresh, as an NFT_METADATA_UPDATE tells it. */
export interface MetadataSnapshot {
  tokenUri: string | null;
  metadata: Record<string, unknown> | null;
  name: string | null;
  description: string | null;
  imageUrl: string | null;
  error: string | null;
  /** ISO 8601. */
  timeLastUpdated: string;
}

interface MetadataUpdateItem {
  contractAddress: string;
  tokenId: string;
  category: ActivityCategory;
  before: MetadataSnapshot | null;
  after: MetadataSnapshot;
}

/** How ADDRESS_ACTIVITY names what moved, as the incumbent does: `token` is ERC-20; `specialnft` the legacy NFTs. */
type AddressActivityCategory = 'external' | 'internal' | 'token' | 'erc721' | 'erc1155' | 'specialnft';

export interface AddressActivityItem {
  fromAddress: string;
  toAddress: string;
  blockNum: string;
  hash: string;
  category: AddressActivityCategory;
  /** The amount in the asset's unit: for the native coin (its decimals known); null for tokens, whose decimals the index does not keep. */
  value: number | null;
  /** The native coin's symbol; null for tokens. */
  asset: string | null;
  /** The amount as moved (0x hex), its contract (null for the native coin) and decimals (null where unknown). */
  rawContract: { rawValue: string; address: string | null; decimals: number | null };
  erc721TokenId: string | null;
  erc1155Metadata: Array<{ tokenId: string; value: string }> | null;
  /** Token transfers: the log, as in NFT_ACTIVITY; absent for native transfers. */
  log?: ActivityLog;
  /** true: a reorg undid this transfer, sent before. */
  removed: boolean;
}

export type WebhookEvent =
  | { network: string; activity: ActivityItem[] | AddressActivityItem[] }
  | { network: string; metadataUpdates: MetadataUpdateItem[] }
  | TransactionEvent;

/** MINED_TRANSACTION and DROPPED_TRANSACTION: the app that broadcast it and the transaction, as eth_getTransactionByHash answers it. */
export interface TransactionEvent {
  appId: string;
  network: string;
  transaction: Record<string, unknown>;
  /** MINED_TRANSACTION: true when a reorg took the block it was mined in away (it may be mined again). */
  removed?: boolean;
  /** DROPPED_TRANSACTION: `replaced` (another transaction of its sender and nonce was mined) or `evicted` (gone from the node's mempool). */
  reason?: 'replaced' | 'evicted';
}

export interface WebhookPayload {
  webhookId: string;
  id: string;
  /** ISO 8601. */
  createdAt: string;
  type: WebhookType;
  event: WebhookEvent;
}

const CATEGORY: Record<NftKind, ActivityCategory> = { erc721: 'erc721', erc1155: 'erc1155', legacy: 'token' };

const hex = (value: number | bigint | string): string => `0x${BigInt(value).toString(16)}`;

/** Whether the index's transfer is an NFT's (ERC-20 transfers are never sent). */
export function isNftTransfer(transfer: Transfer): transfer is Transfer & { kind: NftKind; tokenId: string } {
  return transfer.kind !== 'erc20' && transfer.tokenId !== null;
}

export function activityItem(transfer: Transfer & { kind: NftKind; tokenId: string }, removed: boolean): ActivityItem {
  return {
    fromAddress: transfer.from.toLowerCase(),
    toAddress: transfer.to.toLowerCase(),
    contractAddress: transfer.contract.toLowerCase(),
    blockNum: hex(transfer.blockNumber),
    hash: transfer.transactionHash.toLowerCase(),
    ...tokenIds(transfer),
    category: CATEGORY[transfer.kind],
    log: logOf(transfer, removed),
  };
}

const ADDRESS_CATEGORY: Record<Transfer['kind'], AddressActivityCategory> = { erc20: 'token', erc721: 'erc721', erc1155: 'erc1155', legacy: 'specialnft' };

/** A token transfer (any kind) as ADDRESS_ACTIVITY tells it. */
function addressActivityItem(transfer: Transfer, removed: boolean): AddressActivityItem {
  return {
    fromAddress: transfer.from.toLowerCase(),
    toAddress: transfer.to.toLowerCase(),
    blockNum: hex(transfer.blockNumber),
    hash: transfer.transactionHash.toLowerCase(),
    category: ADDRESS_CATEGORY[transfer.kind],
    value: null,
    asset: null,
    rawContract: { rawValue: hex(transfer.amount), address: transfer.contract.toLowerCase(), decimals: null },
    ...tokenIds(transfer),
    log: logOf(transfer, removed),
    removed,
  };
}

/** The network's native coin, as its content file names it. */
export interface NativeCurrency {
  symbol: string;
  decimals: number;
}

/** A native transfer (a transaction's own value, `external`, or a call's inside it, `internal`) as ADDRESS_ACTIVITY tells it. */
function nativeActivityItem(transfer: NativeTransfer, currency: NativeCurrency, removed: boolean): AddressActivityItem {
  const amount = BigInt(transfer.amount);
  return {
    fromAddress: transfer.from.toLowerCase(),
    toAddress: transfer.to.toLowerCase(),
    blockNum: hex(transfer.blockNumber),
    hash: transfer.transactionHash.toLowerCase(),
    category: transfer.kind,
    value: Number(formatUnits(amount, currency.decimals)),
    asset: currency.symbol,
    rawContract: { rawValue: hex(amount), address: null, decimals: currency.decimals },
    erc721TokenId: null,
    erc1155Metadata: null,
    removed,
  };
}

/**
 * A block's address activity, blocks ascending, each block's in transaction order; within a
 * transaction its native transfers first (its own value, then its calls' in trace order), then its
 * token transfers in log order.
 */
export function addressActivityByBlock(
  transfers: readonly Transfer[],
  natives: readonly NativeTransfer[],
  currency: NativeCurrency,
  removed: boolean,
): Array<{ block: number; activity: AddressActivityItem[] }> {
  /** source 0: native (position: its trace index); 1: token (position: its log index, then its place in a batch). */
  type Placed = { block: number; transaction: number; source: 0 | 1; position: number; batch: number; item: AddressActivityItem };
  const placed: Placed[] = [
    ...natives.map(
      (transfer): Placed => ({
        block: transfer.blockNumber,
        transaction: transfer.transactionIndex,
        source: 0,
        position: transfer.traceIndex,
        batch: 0,
        item: nativeActivityItem(transfer, currency, removed),
      }),
    ),
    ...transfers.map(
      (transfer): Placed => ({
        block: transfer.blockNumber,
        transaction: transfer.transactionIndex,
        source: 1,
        position: transfer.logIndex,
        batch: transfer.batchIndex,
        item: addressActivityItem(transfer, removed),
      }),
    ),
  ].sort((a, b) => a.block - b.block || a.transaction - b.transaction || a.source - b.source || a.position - b.position || a.batch - b.batch);
  const blocks: Array<{ block: number; activity: AddressActivityItem[] }> = [];
  for (const { block, item } of placed) {
    const last = blocks.at(-1);
    if (last?.block === block) last.activity.push(item);
    else blocks.push({ block, activity: [item] });
  }
  return blocks;
}

function tokenIds(transfer: Transfer): Pick<ActivityItem, 'erc721TokenId' | 'erc1155Metadata'> {
  if (transfer.tokenId === null) return { erc721TokenId: null, erc1155Metadata: null };
  const tokenId = hex(transfer.tokenId);
  return transfer.kind === 'erc1155'
    ? { erc721TokenId: null, erc1155Metadata: [{ tokenId, value: hex(transfer.amount) }] }
    : { erc721TokenId: tokenId, erc1155Metadata: null };
}

function logOf(transfer: Transfer, removed: boolean): ActivityLog {
  return {
    address: transfer.contract.toLowerCase(),
    blockNumber: hex(transfer.blockNumber),
    blockHash: transfer.blockHash.toLowerCase(),
    transactionHash: transfer.transactionHash.toLowerCase(),
    logIndex: hex(transfer.logIndex),
    removed,
  };
}

/** Transfers by block, each block's in log order, blocks ascending. */
export function byBlock<T extends Transfer>(transfers: readonly T[]): Array<{ block: number; transfers: T[] }> {
  const blocks = new Map<number, T[]>();
  for (const transfer of transfers) {
    const list = blocks.get(transfer.blockNumber);
    if (list) list.push(transfer);
    else blocks.set(transfer.blockNumber, [transfer]);
  }
  return [...blocks]
    .sort(([a], [b]) => a - b)
    .map(([block, list]) => ({ block, transfers: list.sort((a, b) => a.logIndex - b.logIndex || a.batchIndex - b.batchIndex) }));
}

export function metadataSnapshot(record: NftMetadataFacts): MetadataSnapshot {
  return {
    tokenUri: record.tokenUri,
    metadata: record.metadata,
    name: record.name,
    description: record.description,
    imageUrl: record.image.cachedUrl ?? record.image.originalUrl,
    error: record.error,
    timeLastUpdated: new Date(record.timeLastUpdated).toISOString(),
  };
}

export function metadataCategory(kind: NftKind): ActivityCategory {
  return CATEGORY[kind];
}
