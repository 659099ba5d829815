import { type Fixed, fixedMul, parseDecimal } from '../decimal.ts';
import { makeObservation, type Observation } from '../observation.ts';

// Binance's dollar markets are quoted in USDT (docs/prices.md#sources). A tether is not a dollar, so its quotes stay
// in tether, by type, until the sampler converts them at a dollar price of USDT it has from dollar
// sources; aggregatePrice takes dollar observations only.

/** An observation in tether: as an Observation, but `currency` is `usdt` and its weight `volumeUsdt`. */
export interface UsdtObservation extends Omit<Observation, 'currency' | 'liquidityUsd' | 'volumeUsd'> {
  currency: 'usdt';
  /** Tether traded over 24 hours (or in the candle) behind the quote. */
  volumeUsdt?: string;
}

/** The same numbers said in tether: the shared parsers build observations in dollars' shape, and Binance's numbers are tether. */
export function inUsdt(observation: Observation): UsdtObservation {
  const { source, symbol, value, observedAt, volumeUsd } = observation;
  return { source, symbol, currency: 'usdt', value, observedAt, ...(volumeUsd !== undefined && { volumeUsdt: volumeUsd }) };
}

/** A tether quote in dollars at `usdtInUsd` dollars a tether: value and volume multiplied, the time kept. */
export function usdtToUsd(observation: UsdtObservation, usdtInUsd: Fixed): Observation {
  const inDollars = (tether: string) => fixedMul(parseDecimal(tether)!, usdtInUsd);
  const weight = observation.volumeUsdt === undefined ? {} : { volumeUsd: inDollars(observation.volumeUsdt) };
  return makeObservation(observation.source, observation.symbol, inDollars(observation.value), observation.observedAt, weight);
}
