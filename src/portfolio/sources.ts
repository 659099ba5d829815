import type { Address, Hex } from 'viem';
import type { InternalTransfer, TransactionPlace, WalletTransaction } from '../transfers/wallet-reads.ts';

// What the portfolio reads on one network (docs/portfolio.md), a port the runtime implements over
// the other products (src/runtime/portfolio-services.ts): balances through the token core, metadata
// from its cache, prices from the price store, NFTs through the NFT endpoints' own reads, history
// from the transfer index and the network's nodes. Each method waits for a fresh devnet's index,
// and throws a CrucibleError (src/errors/) when the index or the nodes cannot answer.

interface TokenMetadata {
  name: string | null;
  symbol: string | null;
  decimals: number | null;
  logo: string | null;
}

interface TokenPrice {
  currency: 'usd';
  value: string;
  lastUpdatedAt: string;
}

/** A JSON-RPC transaction and its receipt as the node gave them (hex quantities). */
export interface TransactionDetails {
  transaction: Record<string, unknown>;
  receipt: Record<string, unknown> & { logs: Array<Record<string, unknown>> };
}

export interface PortfolioNetwork {
  /** The wallet's balance of the network's coin, a 32-byte hex quantity. */
  nativeBalance(owner: Address): Promise<Hex>;
  /** A page of the wallet's ERC-20 balances (those it ever moved): after `pageKey` (one this gave), the next key or null. */
  tokenBalances(
    owner: Address,
    page: { pageKey: string | null; limit: number },
  ): Promise<{ balances: Array<{ contract: Address; balance: Hex }>; pageKey: string | null }>;
  /** Each token's metadata; null stands for the network's coin. */
  tokenMetadata(contracts: ReadonlyArray<Address | null>): Promise<TokenMetadata[]>;
  /** Each token's current price, [] when it has no fresh one; null stands for the network's coin. */
  tokenPrices(contracts: ReadonlyArray<Address | null>): Promise<TokenPrice[][]>;
  /** A page of the NFTs the wallet holds, as getNFTsForOwner answers them. */
  nfts(
    owner: Address,
    page: { withMetadata: boolean; pageKey: string | null; pageSize: number },
  ): Promise<{ ownedNfts: Array<Record<string, unknown>>; totalCount: number; pageKey: string | null }>;
  /** Whether `pageKey` is one `nfts` gave for the owner. */
  isNftPageKey(owner: Address, pageKey: string): boolean;
  /** A page of the NFT contracts the wallet holds, by address after `after`, with its holdings and (withMetadata) the contract's facts. */
  nftContracts(
    owner: Address,
    page: { withMetadata: boolean; after: Address | null; limit: number },
  ): Promise<{ contracts: Array<Record<string, unknown> & { address: string }>; totalCount: number }>;
  /** A page of the wallet's transactions from the index (src/transfers/wallet-reads.ts). */
  transactions(owner: Address, page: { from: TransactionPlace | null; direction: 'older' | 'newer'; limit: number }): Promise<WalletTransaction[]>;
  transactionCount(owner: Address): Promise<number>;
  /** Each transaction and receipt from the nodes, and its internal transfers from the index. */
  transactionDetails(transactions: readonly WalletTransaction[]): Promise<Array<TransactionDetails & { internal: InternalTransfer[] }>>;
}

export interface PortfolioApi {
  /** The network id a name stands for (an id, or the incumbent's name of its chain), or null. */
  networkIdOf(name: string): string | null;
  /** A network's reads; null where the portfolio does not answer (a network that does not speak the EVM's JSON-RPC). */
  network(id: string): PortfolioNetwork | null;
}
