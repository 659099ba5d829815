import { createPublicClient, http, type Address } from 'viem';

/** What the anti-sybil check reads about a recipient on Ethereum mainnet (docs/website.md#faucet-limits). */
export interface MainnetReader {
  getBalance(address: Address): Promise<bigint>;
  /** Transactions the address has sent (its nonce). */
  getTransactionCount(address: Address): Promise<number>;
}

export function createMainnetReader(rpcUrl: string): MainnetReader {
  const client = createPublicClient({ transport: http(rpcUrl) });
  return {
    getBalance: (address) => client.getBalance({ address }),
    getTransactionCount: (address) => client.getTransactionCount({ address }),
  };
}
