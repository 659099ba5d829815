import type { Address } from 'viem';
import type { PairDecimals } from './amm-quote.ts';
import { binanceSource } from './exchanges/binance.ts';
import { coinbaseSource } from './exchanges/coinbase.ts';
import { krakenSource } from './exchanges/kraken.ts';
import type { ExchangeSourceSpec, PriceSourcesSpec } from '../token-list/price-sources.ts';

// What the sampler reads (docs/prices.md#sources), resolved once from the token list: each token's sources as
// contracts on networks and markets on exchanges, the order in which tokens are priced (a pool's
// quote token before the tokens it quotes), and which (network, address) names which symbol.

/** What the plan needs of a token list entry. */
export interface PricedEntry {
  symbol: string;
  decimals: number;
  world?: string;
  addresses: Readonly<Record<string, string>>;
  prices?: PriceSourcesSpec;
  /** The file, as messages name it. */
  sourcePath: string;
}

/** The local world's price contracts (src/chain/world/): its tokens by id, its pools and feeds. */
export interface WorldPriceContracts {
  tokens: Readonly<Record<string, Address>>;
  pools: ReadonlyArray<{ id: string; address: Address; token0: string; token1: string }>;
  feeds: ReadonlyArray<{ id: string; address: Address }>;
}

/** A Uniswap V2 pair that prices `symbol` in `quoteSymbol`. */
interface AmmV2Source {
  kind: 'amm-v2';
  id: string;
  network: string;
  pair: Address;
  symbol: string;
  pricedIsToken0: boolean;
  decimals: PairDecimals;
  quoteSymbol: string;
}

/** An AggregatorV3Interface feed that prices `symbol` in dollars. */
interface OracleSource {
  kind: 'oracle';
  id: string;
  network: string;
  feed: Address;
  symbol: string;
}

export type ChainSource = AmmV2Source | OracleSource;

export interface ExchangeSourcePlan {
  kind: 'exchange';
  id: string;
  symbol: string;
  spec: ExchangeSourceSpec;
}

export interface PricePlan {
  /** Every priced symbol, each after the quote tokens of its pools. */
  symbols: readonly string[];
  /** The contracts to read, per network. */
  chain: ReadonlyMap<string, readonly ChainSource[]>;
  exchanges: readonly ExchangeSourcePlan[];
  /** The listed symbol (its case as listed) for a symbol asked in any case, or null. */
  symbolOf(asked: string): string | null;
  /** The symbol a contract is listed as on a network, or null. `localWorld`: the network is a local devnet, where the world's addresses count. */
  symbolAt(network: string, address: string, where: { localWorld: boolean }): string | null;
}

export class PricePlanError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`The token list's price sources are not valid:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
    this.name = 'PricePlanError';
    this.problems = problems;
  }
}

export interface PricePlanOptions {
  /** The network whose devnet carries the local world's pools and feeds; null: world sources are not read. */
  worldNetwork: string | null;
  world: WorldPriceContracts;
  /** Exchanges whose sources are read (PRICES_EXCHANGES). */
  exchanges: ReadonlySet<ExchangeSourceSpec['exchange']>;
}

export function planPrices(entries: readonly PricedEntry[], options: PricePlanOptions): PricePlan {
  const problems: string[] = [];
  const bySymbol = new Map(entries.map((entry) => [entry.symbol.toUpperCase(), entry]));
  const byWorldId = new Map(entries.flatMap((entry) => (entry.world ? [[entry.world, entry] as const] : [])));
  const pools = new Map(options.world.pools.map((pool) => [pool.id, pool]));
  const feeds = new Map(options.world.feeds.map((feed) => [feed.id, feed]));
  const chain = new Map<string, ChainSource[]>();
  const exchanges: ExchangeSourcePlan[] = [];
  const quotesOf = new Map<string, Set<string>>();
  const add = (source: ChainSource) => {
    chain.set(source.network, [...(chain.get(source.network) ?? []), source]);
    if (source.kind === 'amm-v2') quotesOf.get(source.symbol)!.add(source.quoteSymbol);
  };

  for (const entry of entries) {
    const spec = entry.prices;
    if (!spec) continue;
    const problem = (message: string) => problems.push(`${entry.sourcePath}: prices: ${message}`);
    quotesOf.set(entry.symbol, new Set());
    const { worldNetwork } = options;
    for (const item of spec.world?.pools ?? []) {
      const { pool: poolId, token = entry.world } = typeof item === 'string' ? { pool: item } : item;
      const pool = pools.get(poolId);
      if (!pool) problem(`the local world has no pool ${poolId}`);
      else if (token === undefined) problem(`pool ${poolId}: say which of its tokens this is ({ pool, token }), as the entry has no world contract`);
      else if (token !== pool.token0 && token !== pool.token1) problem(`pool ${poolId} holds ${pool.token0} and ${pool.token1}, not ${token}`);
      else {
        const quoteId = token === pool.token0 ? pool.token1 : pool.token0;
        const priced = token === entry.world ? entry : byWorldId.get(token);
        const quote = byWorldId.get(quoteId);
        if (!priced || !quote)
          problem(`pool ${poolId}: list the world contracts ${token} and ${quoteId} in the token list (their decimals and the quote's price are needed)`);
        else if (worldNetwork) {
          const pricedIsToken0 = token === pool.token0;
          add({
            kind: 'amm-v2',
            id: `uniswap-v2:${worldNetwork}:${pool.address.toLowerCase()}`,
            network: worldNetwork,
            pair: pool.address,
            symbol: entry.symbol,
            pricedIsToken0,
            decimals: pricedIsToken0 ? { decimals0: priced.decimals, decimals1: quote.decimals } : { decimals0: quote.decimals, decimals1: priced.decimals },
            quoteSymbol: quote.symbol,
          });
        }
      }
    }
    for (const feedId of spec.world?.feeds ?? []) {
      const feed = feeds.get(feedId);
      if (!feed) problem(`the local world has no feed ${feedId}`);
      else if (worldNetwork) add(oracle(worldNetwork, feed.address, entry.symbol));
    }
    for (const pair of spec.uniswapV2) {
      const quote = bySymbol.get(pair.quote.toUpperCase());
      const priced = pair.token ?? entry.addresses[pair.network];
      const quoted = quote?.addresses[pair.network];
      if (!quote) problem(`pair ${pair.pair}: no token ${pair.quote} in the list`);
      else if (!priced) problem(`pair ${pair.pair}: the entry has no address on ${pair.network}; give token`);
      else if (!quoted) problem(`pair ${pair.pair}: ${quote.symbol} has no address on ${pair.network}`);
      else {
        // Uniswap orders a pair's tokens by address.
        const pricedIsToken0 = priced.toLowerCase() < quoted.toLowerCase();
        add({
          kind: 'amm-v2',
          id: `uniswap-v2:${pair.network}:${pair.pair.toLowerCase()}`,
          network: pair.network,
          pair: pair.pair as Address,
          symbol: entry.symbol,
          pricedIsToken0,
          decimals: pricedIsToken0 ? { decimals0: entry.decimals, decimals1: quote.decimals } : { decimals0: quote.decimals, decimals1: entry.decimals },
          quoteSymbol: quote.symbol,
        });
      }
    }
    for (const feed of spec.feeds) add(oracle(feed.network, feed.address as Address, entry.symbol));
    for (const market of spec.exchanges) {
      if (!options.exchanges.has(market.exchange)) continue;
      exchanges.push({ kind: 'exchange', id: exchangeSourceId(market), symbol: entry.symbol, spec: market });
    }
  }

  const symbols = dependencyOrder(quotesOf, problems);
  if (problems.length) throw new PricePlanError(problems);

  const onWorld = new Map<string, string>();
  const onNetworks = new Map<string, string>();
  for (const entry of entries) {
    if (!entry.prices) continue;
    const worldAddress = entry.world === undefined ? undefined : options.world.tokens[entry.world];
    if (worldAddress) onWorld.set(worldAddress.toLowerCase(), entry.symbol);
    for (const [network, contract] of Object.entries(entry.addresses)) onNetworks.set(`${network} ${contract.toLowerCase()}`, entry.symbol);
  }
  const priced = new Map(symbols.map((symbol) => [symbol.toUpperCase(), symbol]));
  return {
    symbols,
    chain,
    exchanges,
    symbolOf: (asked) => priced.get(asked.toUpperCase()) ?? null,
    symbolAt: (network, address, where) =>
      (where.localWorld ? onWorld.get(address.toLowerCase()) : onNetworks.get(`${network} ${address.toLowerCase()}`)) ?? null,
  };
}

function exchangeSourceId(market: ExchangeSourceSpec): string {
  if (market.exchange === 'coinbase') return coinbaseSource(market.product).id;
  if (market.exchange === 'kraken') return krakenSource(market.pair).id;
  return binanceSource(market.symbol).id;
}

function oracle(network: string, feed: Address, symbol: string): OracleSource {
  return { kind: 'oracle', id: `oracle:${network}:${feed.toLowerCase()}`, network, feed, symbol };
}

/** Symbols ordered so each comes after the quote tokens of its pools; a quote that is not priced, or a cycle, is a problem. */
function dependencyOrder(quotesOf: ReadonlyMap<string, ReadonlySet<string>>, problems: string[]): string[] {
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (symbol: string, path: string[]) => {
    if (state.get(symbol) === 'done') return;
    if (state.get(symbol) === 'visiting') {
      problems.push(`tokens quote each other in a circle: ${[...path, symbol].join(' → ')}`);
      return;
    }
    state.set(symbol, 'visiting');
    for (const quote of quotesOf.get(symbol)!) {
      if (!quotesOf.has(quote)) problems.push(`${symbol} is quoted in ${quote}, which has no price sources`);
      else visit(quote, [...path, symbol]);
    }
    state.set(symbol, 'done');
    order.push(symbol);
  };
  for (const symbol of quotesOf.keys()) visit(symbol, []);
  return order;
}
