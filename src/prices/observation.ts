import { type Fixed, formatDecimal } from './decimal.ts';

// The vocabulary of prices (docs/prices.md#aggregation): every value the API answers traces to stored source
// observations, each a quote of one token in US dollars by one source at one time.

const SOURCE_KINDS = ['amm-v2', 'amm-v3', 'oracle', 'exchange'] as const;
/** Uniswap V2 pool, Uniswap V3 pool, AggregatorV3Interface feed, exchange REST API. */
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** Which source said it: its kind and an id unique among sources (`coinbase:ETH-USD`, `uniswap-v2:31337:0x…`). */
export interface SourceRef {
  kind: SourceKind;
  id: string;
}

/** The currencies prices are quoted in. */
type QuoteCurrency = 'usd';

export interface Observation {
  source: SourceRef;
  /** The token's symbol in the token list. */
  symbol: string;
  currency: QuoteCurrency;
  /** A positive decimal string. */
  value: string;
  /** When the source says the value held, ms since the epoch (a block's or a round's time, an exchange's clock, or when the answer came). */
  observedAt: number;
  /** Dollars in the pool behind an AMM quote: its weight in the aggregate. */
  liquidityUsd?: string;
  /** Dollars traded over 24 hours behind an exchange quote: its weight when it reports no liquidity. */
  volumeUsd?: string;
}

/** An observation of `symbol` in dollars from Fixed numbers. */
export function makeObservation(
  source: SourceRef,
  symbol: string,
  value: Fixed,
  observedAt: number,
  weight: { liquidityUsd?: Fixed; volumeUsd?: Fixed } = {},
): Observation {
  const observation: Observation = { source, symbol, currency: 'usd', value: formatDecimal(value), observedAt };
  if (weight.liquidityUsd !== undefined) observation.liquidityUsd = formatDecimal(weight.liquidityUsd);
  if (weight.volumeUsd !== undefined) observation.volumeUsd = formatDecimal(weight.volumeUsd);
  return observation;
}
