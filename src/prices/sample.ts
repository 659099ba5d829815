import { aggregatePrice, type AggregateOptions, type AggregatePrice } from './aggregate.ts';
import type { ChainReadCode, ChainReading } from './chain-reader.ts';
import { fixedMul, formatDecimal, parseDecimal } from './decimal.ts';
import { makeObservation, type Observation, type SourceRef } from './observation.ts';
import type { ChainSource, PricePlan } from './plan.ts';
import { fail, type Failure, type Result } from './result.ts';

// One sampling round (docs/prices.md#sampling) as a pure step: the readings of every source in, each token's
// observations in dollars and its aggregate out. Tokens are priced in the plan's order, so a pool
// quoting FORGE in cUSD is converted with the cUSD aggregate of the same round; a pool whose quote
// token has no price this round is left out, with the reason.

/** How a quote in another token became dollars. */
interface Conversion {
  quoteSymbol: string;
  /** The source's value in the quote token. */
  inQuote: string;
  /** The quote token's aggregate this round. */
  quoteUsd: string;
}

interface SampledObservation extends Observation {
  conversion?: Conversion;
}

/** A source that gave nothing this round, and why. */
interface SkippedSource {
  source: SourceRef;
  symbol: string;
  reason: string;
}

export interface SampleInput {
  plan: PricePlan;
  /** Per network: each chain source's reading, or why the network could not be read. */
  chain: ReadonlyMap<string, Result<ReadonlyMap<string, Result<ChainReading, ChainReadCode>>, string>>;
  /** Per exchange source id: its ticker's observation, or why none. */
  exchanges: ReadonlyMap<string, Result<Observation, string>>;
  aggregate: AggregateOptions;
}

export interface SampleResult {
  observations: SampledObservation[];
  skipped: SkippedSource[];
  /** Per symbol, in plan order: the aggregate, or why there is none (naming each source). */
  prices: Map<string, Result<AggregatePrice, 'no-fresh-source'>>;
}

export function samplePrices(input: SampleInput): SampleResult {
  const { plan } = input;
  const observations: SampledObservation[] = [];
  const skipped: SkippedSource[] = [];
  const prices = new Map<string, Result<AggregatePrice, 'no-fresh-source'>>();
  const chainSourcesOf = new Map<string, ChainSource[]>();
  for (const sources of plan.chain.values())
    for (const source of sources) chainSourcesOf.set(source.symbol, [...(chainSourcesOf.get(source.symbol) ?? []), source]);

  for (const symbol of plan.symbols) {
    const own: SampledObservation[] = [];
    const skips: SkippedSource[] = [];
    const skip = (source: SourceRef, reason: string) => skips.push({ source, symbol, reason });
    for (const source of chainSourcesOf.get(symbol) ?? []) {
      const ref: SourceRef = { kind: source.kind, id: source.id };
      const network = input.chain.get(source.network);
      const reading = network === undefined ? undefined : network.ok ? network.value.get(source.id) : network;
      if (!reading) skip(ref, `${source.network} was not read`);
      else if (!reading.ok) skip(ref, reading.error.message);
      else if (source.kind === 'oracle') own.push(makeObservation(ref, symbol, reading.value.value, reading.value.observedAt));
      else {
        const quote = prices.get(source.quoteSymbol);
        if (!quote?.ok) {
          skip(ref, `its quote token ${source.quoteSymbol} has no price this round`);
          continue;
        }
        const quoteUsd = parseDecimal(quote.value.value)!;
        const { value, liquidity, observedAt } = reading.value;
        const observation: SampledObservation = makeObservation(
          ref,
          symbol,
          fixedMul(value, quoteUsd),
          observedAt,
          liquidity === undefined ? {} : { liquidityUsd: fixedMul(liquidity, quoteUsd) },
        );
        observation.conversion = { quoteSymbol: source.quoteSymbol, inQuote: formatDecimal(value), quoteUsd: quote.value.value };
        own.push(observation);
      }
    }
    for (const source of plan.exchanges) {
      if (source.symbol !== symbol) continue;
      const reading = input.exchanges.get(source.id);
      if (!reading) skip({ kind: 'exchange', id: source.id }, 'the exchange was not asked');
      else if (!reading.ok) skip({ kind: 'exchange', id: source.id }, reading.error.message);
      else own.push(reading.value);
    }
    // A value that rounds to 0 in dollars is not a price (the aggregate refuses it as invalid).
    const aggregate = aggregatePrice(own, input.aggregate);
    prices.set(symbol, aggregate.ok || skips.length === 0 ? aggregate : withSkips(aggregate.error, skips));
    observations.push(...own);
    skipped.push(...skips);
  }
  return { observations, skipped, prices };
}

function withSkips(error: Failure<'no-fresh-source'>, skips: readonly SkippedSource[]) {
  const reasons = skips.map((skip) => `${skip.source.id}: ${skip.reason}`).join('; ');
  return fail('no-fresh-source', `${error.message}; ${reasons}`);
}
