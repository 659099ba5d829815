import type { Address, Hex } from 'viem';

// What the token core asks of the world (platform §4): a network's chain, read at a block the core
// chooses, and its transfer index. The gateway implements both over its upstream pool and the
// indexer; tests and the benchmark over a plain node.

/** Why a chain read failed: the node answered the call with an error (a revert, a bad block), or no node answered. */
export type TokenChainFailure = { kind: 'node-error'; code: number; message: string; data?: unknown } | { kind: 'unavailable'; reason: string };

/** A chain read that failed on the node's side; the core lets it through unchanged, so the whole answer fails with it. */
export class TokenChainError extends Error {
  readonly failure: TokenChainFailure;
  constructor(failure: TokenChainFailure) {
    super(failure.kind === 'node-error' ? `the node refused the call: ${failure.message}` : `no node answered: ${failure.reason}`);
    this.name = 'TokenChainError';
    this.failure = failure;
  }
}

/** One network's chain. Every method throws TokenChainError when the node fails. */
export interface TokenChain {
  blockNumber(): Promise<bigint>;
  /** eth_call at a block: the returned data. */
  call(request: { to: Address; data: Hex }, blockNumber: bigint): Promise<Hex>;
  getBalance(address: Address, blockNumber: bigint): Promise<bigint>;
  getCode(address: Address, blockNumber: bigint): Promise<Hex>;
}

/** One network's transfer index. */
export interface TokenIndex {
  /** The ERC-20 contracts `holder` ever received or sent, ordered by address, those after `after` (exclusive), at most `limit`. */
  tokensOfHolder(holder: Address, page: { after?: Address; limit: number }): Promise<Address[]>;
}
