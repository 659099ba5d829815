import type { Address } from 'viem';

// What the token core asks of the transfer index (docs/token-data.md#transfer-indexer): the runtime reads it from the
// database the indexer writes (src/runtime/adapters/database-token-index.ts); tests from a list.

/** One network's transfer index. */
export interface TokenIndex {
  /** The ERC-20 contracts `holder` ever received or sent, ordered by address, those after `after` (exclusive), at most `limit`. */
  tokensOfHolder(holder: Address, page: { after?: Address; limit: number }): Promise<Address[]>;
}
