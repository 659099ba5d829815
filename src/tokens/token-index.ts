import type { Address } from 'viem';
import type { AssetTransfersFilter, AssetTransfersPage } from '../transfers/asset-transfers.ts';
import type { IndexerCheckpointRow } from '../db/schema.ts';

// What the token core asks of the transfer index (docs/token-data.md#transfer-indexer): the runtime reads it from the
// database the indexer writes (src/runtime/adapters/database-token-index.ts); tests from a list.

/** How far a network's index reaches, and what it records. */
interface IndexCoverage {
  /** The last block indexed. */
  indexedBlock: number;
  /** Whether internal transfers are recorded (the node answers call traces). */
  internalTransfers: IndexerCheckpointRow['internal_transfers'];
  /** Recorded from this block on (the node could not trace the one before it); null: from the index's first block. */
  internalFromBlock: number | null;
}

/** One network's transfer index. Both methods throw when the index holds nothing for the network yet. */
export interface TokenIndex {
  /** The ERC-20 contracts `holder` ever received or sent, ordered by address, those after `after` (exclusive), at most `limit`. */
  tokensOfHolder(holder: Address, page: { after?: Address; limit: number }): Promise<Address[]>;
  coverage(): Promise<IndexCoverage>;
  /** One page of transfers, native and token, in one order. */
  assetTransfers(filter: AssetTransfersFilter): Promise<AssetTransfersPage>;
}
