import type { Address, Hex } from 'viem';
import type { IndexerNftBalanceRow, IndexerTransferRow } from '../db/schema.ts';

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
  logIndex: number;
  removed: boolean;
}

/** A block the follower read: enough to link it to its parent and date its transfers. */
export interface BlockHeader {
  number: number;
  hash: Hex;
  parentHash: Hex;
  timestamp: number;
}

/** A block the index remembers by number and hash. */
export interface BlockRef {
  number: number;
  hash: Hex;
}

export const ZERO_ADDRESS: Address = '0x0000000000000000000000000000000000000000';
