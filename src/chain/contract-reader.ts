import type { Address, Hex } from 'viem';

// A network's chain as the data products read contracts on it (token balances and metadata, NFT
// contracts, price pools and feeds): each read at a block the product chooses. The runtime
// implements it over the gateway's upstream pools (src/runtime/adapters/); tests and benchmarks
// over a plain node (src/tokens/viem-chain.ts).

/** Why a chain read failed: the node answered the call with an error (a revert, a bad block), or no node answered. */
export type ContractReadFailure = { kind: 'node-error'; code: number; message: string; data?: unknown } | { kind: 'unavailable'; reason: string };

/** A chain read that failed on the node's side; a product lets it through unchanged, so the whole answer fails with it. */
export class ContractReadError extends Error {
  readonly failure: ContractReadFailure;
  constructor(failure: ContractReadFailure) {
    super(failure.kind === 'node-error' ? `the node refused the call: ${failure.message}` : `no node answered: ${failure.reason}`);
    this.name = 'ContractReadError';
    this.failure = failure;
  }
}

/** One network's chain. Every method throws ContractReadError when the node fails. */
export interface ContractReader {
  blockNumber(): Promise<bigint>;
  /** eth_call at a block: the returned data. */
  call(request: { to: Address; data: Hex }, blockNumber: bigint): Promise<Hex>;
  getBalance(address: Address, blockNumber: bigint): Promise<bigint>;
  getCode(address: Address, blockNumber: bigint): Promise<Hex>;
}
