import type { Kysely } from 'kysely';
import { ContractReadError } from '../chain/contract-reader.ts';
import { MulticallError } from '../chain/multicall-reads.ts';
import type { DatabaseSchema } from '../db/schema.ts';
import { CrucibleError } from '../errors/crucible-error.ts';
import { contractBody } from '../nfts/api/answer.ts';
import type { NftApi } from '../nfts/api/handlers.ts';
import { decodeOwnerNftsKey } from '../nfts/api/page-key.ts';
import type { NftContractSource } from '../nfts/nft-sources.ts';
import { TokenParamsError } from '../node/rpc/methods/token-params.ts';
import type { UpstreamPool } from '../node/upstreams/upstream-pool.ts';
import type { PortfolioApi, PortfolioNetwork, TransactionDetails } from '../portfolio/sources.ts';
import { currentTokenPrices, type PricesApi } from '../prices/api/operations.ts';
import type { TokenList } from '../token-list/token-list.ts';
import { getTokenBalances } from '../tokens/balances.ts';
import type { TokenMetadataReader } from '../tokens/metadata.ts';
import { heldNftContracts, internalTransfersOf, walletTransactionCount, walletTransactions } from '../transfers/wallet-reads.ts';
import { chainOverPool, poolRequest } from './adapters/contract-reader-over-pool.ts';
import { databaseTokenIndex, IndexNotReadyError } from './adapters/database-token-index.ts';

// The portfolio's reads of each network (src/portfolio/sources.ts) over the other products: balances
// through the token core over the gateway's pool and the transfer index, metadata from the token
// methods' cache, prices from the price store, NFTs through the NFT endpoints' reads and contract
// facts, history from the index and the network's nodes. The token core's and the nodes' failures
// become the Error body's codes here.

/** A network and its coin. */
interface NetworkCoin {
  id: string;
  symbol: string;
  decimals: number;
}

export interface PortfolioServicesOptions {
  db: Kysely<DatabaseSchema>;
  /** The networks that speak the EVM's JSON-RPC, with their coins. */
  networks: ReadonlyArray<NetworkCoin>;
  networkIdOf(name: string): string | null;
  pools: ReadonlyMap<string, UpstreamPool>;
  tokens: { metadata: TokenMetadataReader; list: TokenList };
  /** Whether a network's node is a local devnet (the token list's world addresses apply there). */
  localWorld(network: string): boolean;
  prices: PricesApi;
  nfts(network: string): NftApi | null;
  nftContracts: NftContractSource;
  /** Settles when a network's index can answer (a fresh devnet's first answer waits for it). */
  indexReady?: (network: string) => Promise<void>;
}

export function portfolioApi(options: PortfolioServicesOptions): PortfolioApi {
  const records = new Map(options.networks.map((record) => [record.id, record]));
  const made = new Map<string, PortfolioNetwork>();
  return {
    networkIdOf: options.networkIdOf,
    network(id) {
      const record = records.get(id);
      const pool = options.pools.get(id);
      const nfts = options.nfts(id);
      if (!record || !pool || !nfts) return null;
      let reads = made.get(id);
      if (!reads) made.set(id, (reads = networkReads(options, record, pool, nfts)));
      return reads;
    },
  };
}

function networkReads(options: PortfolioServicesOptions, record: NetworkCoin, pool: UpstreamPool, nfts: NftApi): PortfolioNetwork {
  const { db } = options;
  const network = record.id;
  const chain = chainOverPool(pool);
  const index = databaseTokenIndex(db, network, options.indexReady);
  const logos = options.tokens.list.logos(network, { localWorld: options.localWorld(network) });
  const coin = { symbol: record.symbol, decimals: record.decimals };
  const coinMetadata = { name: coin.symbol, logo: null, ...options.tokens.list.nativeCurrency(coin.symbol), symbol: coin.symbol, decimals: coin.decimals };
  const ready = async () => {
    await options.indexReady?.(network);
    await index.coverage().catch(failure(network));
  };
  const rpc = (method: string, params: unknown[]) => poolRequest(pool, method, params).catch(failure(network));

  return {
    async nativeBalance(owner) {
      await ready();
      const answer = await getTokenBalances(chain, index, [owner, 'NATIVE_TOKEN']).catch(failure(network));
      return answer.tokenBalances[0]!.tokenBalance!;
    },
    async tokenBalances(owner, page) {
      const options_ = { maxCount: page.limit, ...(page.pageKey === null ? {} : { pageKey: page.pageKey }) };
      const answer = await getTokenBalances(chain, index, [owner, 'erc20', options_]).catch(failure(network));
      return {
        balances: answer.tokenBalances.map((balance) => ({ contract: balance.contractAddress, balance: balance.tokenBalance! })),
        pageKey: answer.pageKey ?? null,
      };
    },
    tokenMetadata: (contracts) =>
      Promise.all(
        contracts.map((contract) =>
          contract === null
            ? { name: coinMetadata.name, symbol: coinMetadata.symbol, decimals: coinMetadata.decimals, logo: coinMetadata.logo }
            : options.tokens.metadata.getTokenMetadata(network, chain, logos, contract).catch(failure(network)),
        ),
      ),
    tokenPrices: (contracts) => currentTokenPrices(options.prices, network, contracts, coin.symbol),
    async nfts(owner, page) {
      const answer = await nfts.nftsForOwner({
        owner,
        withMetadata: page.withMetadata,
        pageSize: page.pageSize,
        ...(page.pageKey === null ? {} : { pageKey: page.pageKey }),
      });
      return { ownedNfts: answer.ownedNfts as Array<Record<string, unknown>>, totalCount: answer.totalCount, pageKey: answer.pageKey };
    },
    isNftPageKey: (owner, pageKey) => decodeOwnerNftsKey(owner, 'contract', pageKey) !== null,
    async nftContracts(owner, page) {
      await ready();
      const held = await heldNftContracts(db, network, owner, page);
      const facts =
        page.withMetadata && held.contracts.length
          ? await options.nftContracts.contractsOf(
              network,
              held.contracts.map((entry) => entry.contract),
            )
          : null;
      const contracts = held.contracts.map((entry) => ({
        ...(facts ? contractBody(entry.contract, entry.kind, facts.get(entry.contract.toLowerCase())) : { address: entry.contract }),
        totalBalance: entry.totalBalance,
        numDistinctTokensOwned: entry.distinctTokens,
      }));
      return { contracts, totalCount: held.totalCount };
    },
    async transactions(owner, page) {
      await ready();
      return walletTransactions(db, network, owner, page);
    },
    async transactionCount(owner) {
      await ready();
      return walletTransactionCount(db, network, owner);
    },
    async transactionDetails(transactions) {
      const [details, internal] = await Promise.all([
        Promise.all(
          transactions.map(async ({ hash }): Promise<TransactionDetails> => {
            const [transaction, receipt] = await Promise.all([rpc('eth_getTransactionByHash', [hash]), rpc('eth_getTransactionReceipt', [hash])]);
            if (!isObject(transaction) || !isObject(receipt) || !Array.isArray(receipt.logs))
              throw new CrucibleError(
                'upstream_unavailable',
                `The nodes of network ${network} do not know transaction ${hash}, which its index lists; retry shortly.`,
              );
            return { transaction, receipt: receipt as TransactionDetails['receipt'] };
          }),
        ),
        internalTransfersOf(db, network, transactions),
      ]);
      return details.map((detail, i) => ({ ...detail, internal: internal.filter((move) => move.hash === transactions[i]!.hash) }));
    },
  };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The token core's and the nodes' failures as the Error body's codes. */
function failure(network: string) {
  return (error: unknown): never => {
    if (error instanceof IndexNotReadyError)
      throw new CrucibleError('upstream_unavailable', `The transfer index of network ${network} holds no block yet; portfolio data needs it.`);
    if (error instanceof ContractReadError || error instanceof MulticallError)
      throw new CrucibleError('upstream_unavailable', `The nodes of network ${network} could not answer: ${error.message}.`, { cause: error });
    if (error instanceof TokenParamsError) throw new CrucibleError('bad_request', `pageKey is not one this endpoint gave: ${error.problem}.`);
    throw error;
  };
}
