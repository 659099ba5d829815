import type { Address, Hex } from 'viem';
import type { IndexerNativeTransferRow, IndexerNftBalanceRow, IndexerTransferRow } from '../db/schema.ts';

// The transfer index's vocabulary (docs/token-data.md#transfer-indexer): what one log says moved, and the chain facts the
// follower compares to tell a reorg. Addresses are lowercase hex, token ids and amounts decimal
// strings (uint256 fits neither engine's integers), block numbers plain numbers (< 2^53).

/** ERC-20 and ERC-721 `Transfer` (told apart by topic count), ERC-1155 singles and batches, and CryptoPunks-style events. */
export type TransferKind = IndexerTransferRow['kind'];
export type NftKind = IndexerNftBalanceRow['kind'];

/** One movement of tokens, as the index stores it. */
export interface Transfer {
  blockNumber: number;
  blockHash: Hex;
  /** Seconds since the epoch; null when the node gave it with neither the log nor a header the follower read. */
  blockTimestamp: number | null;
  transactionHash: Hex;
  /** The transaction's position in its block. */
  transactionIndex: number;
  logIndex: number;
  /** Position within an ERC-1155 `TransferBatch` (one transfer per id); 0 for every other log. */
  batchIndex: number;
  contract: Address;
  kind: TransferKind;
  from: Address;
  to: Address;
  /** Decimal; null for ERC-20. */
  tokenId: string | null;
  /** Decimal; 1 for ERC-721 and legacy NFTs. */
  amount: string;
}

/**
 * Native coin that moved (docs/token-data.md#crucible_getassettransfers): `external`, a successful transaction's own value (every
 * successful transaction is one, zero value included); `internal`, value a call inside a successful
 * transaction moved, from the node's call traces (never zero, never inside a call that reverted).
 */
export interface NativeTransfer {
  blockNumber: number;
  blockHash: Hex;
  /** Seconds since the epoch. */
  blockTimestamp: number;
  transactionHash: Hex;
  transactionIndex: number;
  /** The call's position in the transaction's call tree, depth first: 0 is the transaction itself (external). */
  traceIndex: number;
  kind: NativeTransferKind;
  from: Address;
  /** The receiver; for a contract creation, the contract created. */
  to: Address;
  /** Decimal, in wei. */
  amount: string;
}
export type NativeTransferKind = IndexerNativeTransferRow['kind'];

/** A log as eth_getLogs answers it, numbers parsed. */
export interface ChainLog {
  address: Address;
  topics: Hex[];
  data: Hex;
  blockNumber: number;
  blockHash: Hex;
  /** Some nodes (anvil, recent geth and reth) send it; null otherwise. */
  blockTimestamp: number | null;
  transactionHash: Hex;
  transactionIndex: number;
  logIndex: number;
  removed: boolean;
}

/** A block the follower read: enough to link it to its parent and date its transfers. */
export interface BlockHeader {
  number: number;
  hash: Hex;
  parentHash: Hex;
  timestamp: number;
  /** Its transactions' hashes, in block order. */
  transactions: readonly Hex[];
}

/** A block the index remembers by number and hash. */
export interface BlockRef {
  number: number;
  hash: Hex;
}

export const ZERO_ADDRESS: Address = '0x0000000000000000000000000000000000000000';
