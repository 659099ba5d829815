import { z } from 'zod';

// Which sources price a token (docs/prices.md#sources), as a token list entry says under `prices:`
// (content/tokens/<token>.yaml). Nothing is priced from a number typed here: each entry names a
// contract or a market whose answers the sampler reads and records.

/** One exchange market pricing a token, as the token list writes it. */
export const exchangeListing = z.discriminatedUnion(
  'exchange',
  [
    z.strictObject({
      exchange: z.literal('coinbase'),
      /** A Coinbase Exchange product quoted in dollars. */
      product: z.string().regex(/^[A-Z0-9]+-USD$/, { error: 'must be a Coinbase Exchange product quoted in dollars, such as ETH-USD' }),
    }),
    z.strictObject({
      exchange: z.literal('kraken'),
      /** A Kraken pair quoted in dollars, by either of its names. */
      pair: z.string().regex(/^[A-Z0-9]+USD$/, { error: 'must be a Kraken pair quoted in dollars, such as XETHZUSD or ETHUSD' }),
    }),
    z.strictObject({
      exchange: z.literal('binance'),
      /** A Binance symbol quoted in USDT. */
      symbol: z.string().regex(/^[A-Z0-9]+USDT$/, { error: 'must be a Binance symbol quoted in USDT, such as ETHUSDT' }),
    }),
  ],
  { error: 'must name its exchange: coinbase, kraken or binance' },
);

export type ExchangeListing = z.output<typeof exchangeListing>;

const slug = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, { error: 'must be a lower-case id such as forge-cusd' });
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, { error: 'must be a 20-byte address: "0x" and 40 hex digits' });
const symbol = z.string().min(1).max(32);

/** A pool of the local world: its id, and which of its tokens is priced when that is not the entry's own world contract. */
const WorldPool = z.union([slug, z.strictObject({ pool: slug, token: slug })]);

export const PriceSourcesSpec = z.strictObject({
  /** On the local world's devnet (PRICES_WORLD_NETWORK): pools and feeds by their ids in the world's price table. */
  world: z.strictObject({ pools: z.array(WorldPool).default([]), feeds: z.array(slug).default([]) }).optional(),
  /** Uniswap V2 pairs on real networks: `token` is the priced side (default: the entry's address there), `quote` the other side's symbol in the list. */
  uniswapV2: z.array(z.strictObject({ network: slug, pair: address, token: address.optional(), quote: symbol })).default([]),
  /** AggregatorV3Interface feeds quoting the token in dollars. */
  feeds: z.array(z.strictObject({ network: slug, address })).default([]),
  /** Dollar markets of exchanges' public APIs, read when PRICES_EXCHANGES enables the exchange. */
  exchanges: z.array(exchangeListing).default([]),
});

export type PriceSourcesSpec = z.output<typeof PriceSourcesSpec>;
export type ExchangeSourceSpec = ExchangeListing;
