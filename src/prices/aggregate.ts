import { divRound, type Fixed, fixedMul, formatDecimal, parseDecimal } from './decimal.ts';
import type { Observation, SourceKind, SourceRef } from './observation.ts';
import { fail, ok, type Result } from './result.ts';

// One token's price from its sources' observations (docs/prices.md#aggregation): fresh ones only, outliers dropped by
// median absolute deviation, the median of the rest weighted by what each source reports behind its
// quote. The rules, with the numbers, are in this folder's README and on the site's method page.

export interface AggregateOptions {
  /** The time the price is for, ms since the epoch. */
  now: number;
  /** How old an observation of each kind may be and still count, ms. */
  maxAgeMs: Readonly<Record<SourceKind, number>>;
  /** k, at least 1: an observation is an outlier when |x − median| > k · scale. */
  madThreshold: number;
  /** The least scale, as a fraction of the median (default 0.001): sources that agree this closely are never outliers. */
  relativeFloor?: number;
}

type DropReason = 'stale' | 'outlier' | 'invalid';

interface Dropped {
  source: SourceRef;
  reason: DropReason;
}

export interface AggregatePrice {
  /** A decimal string of at most 18 decimals. */
  value: string;
  /** The newest observation used. */
  observedAt: number;
  used: Observation[];
  dropped: Dropped[];
}

export type AggregateCode = 'no-fresh-source';

const DEFAULT_RELATIVE_FLOOR = 0.001;
/** 1/Φ⁻¹(3/4): MAD × 1.4826 estimates the standard deviation of normally spread quotes. */
const MAD_TO_SIGMA = parseDecimal('1.4826')!;

interface Priced {
  observation: Observation;
  value: Fixed;
  /** Dollars behind the quote, or null when the source reports none. */
  weight: Fixed | null;
}

function positive(text: string | undefined): Fixed | null {
  const value = text === undefined ? null : parseDecimal(text);
  return value !== null && value > 0n ? value : null;
}

function numberOption(value: number, name: string, least: number): Fixed {
  const fixed = Number.isFinite(value) && value >= least ? parseDecimal(String(value)) : null;
  if (fixed === null) throw new RangeError(`${name} must be a number of at least ${least}, got ${value}`);
  return fixed;
}

/** The weighted median of values sorted ascending, all weights positive: where the running weight passes half the total; at exactly half, the mean of the two values either side. */
function weightedMedian(sorted: readonly { value: Fixed; weight: Fixed }[]): Fixed {
  const total = sorted.reduce((sum, item) => sum + item.weight, 0n);
  let running = 0n;
  for (const [index, item] of sorted.entries()) {
    running += item.weight;
    if (2n * running > total) return item.value;
    if (2n * running === total) return divRound(item.value + sorted[index + 1]!.value, 2n);
  }
  throw new Error('weightedMedian of nothing');
}

const median = (values: readonly Fixed[]): Fixed => weightedMedian([...values].sort(compare).map((value) => ({ value, weight: 1n })));

const compare = (a: Fixed, b: Fixed): number => (a < b ? -1 : a > b ? 1 : 0);

/** The aggregate of one token's observations at `options.now`, or `no-fresh-source` when none is fresh and valid. Throws RangeError for options out of range. */
export function aggregatePrice(observations: readonly Observation[], options: AggregateOptions): Result<AggregatePrice, AggregateCode> {
  // With k ≥ 1 the value nearest the median is always kept (its distance is at most the MAD), so something is used.
  const k = numberOption(options.madThreshold, 'madThreshold', 1);
  const floor = numberOption(options.relativeFloor ?? DEFAULT_RELATIVE_FLOOR, 'relativeFloor', 0);
  const dropped: Dropped[] = [];
  const fresh: Priced[] = [];
  for (const observation of observations) {
    const value = positive(observation.value);
    if (value === null || observation.currency !== 'usd' || !Number.isFinite(observation.observedAt)) {
      dropped.push({ source: observation.source, reason: 'invalid' });
    } else if (options.now - observation.observedAt > options.maxAgeMs[observation.source.kind]) {
      dropped.push({ source: observation.source, reason: 'stale' });
    } else {
      fresh.push({ observation, value, weight: positive(observation.liquidityUsd) ?? positive(observation.volumeUsd) });
    }
  }
  if (fresh.length === 0) {
    const message =
      observations.length === 0
        ? 'no source has observed this token'
        : `no fresh price: ${dropped.map((drop) => `${drop.source.id} ${drop.reason}`).join(', ')}`;
    return fail('no-fresh-source', message);
  }

  const center = median(fresh.map((item) => item.value));
  const distance = (item: Priced) => (item.value > center ? item.value - center : center - item.value);
  const mad = median(fresh.map(distance));
  // The scale is the larger of 1.4826·MAD and the floor (Math.max takes no bigint).
  let scale = fixedMul(MAD_TO_SIGMA, mad);
  const floorScale = fixedMul(floor, center);
  if (floorScale > scale) scale = floorScale;
  const limit = fixedMul(k, scale);
  const used: Priced[] = [];
  for (const item of fresh) {
    if (distance(item) > limit) dropped.push({ source: item.observation.source, reason: 'outlier' });
    else used.push(item);
  }

  // Weights count only when every remaining source reports one: a missing weight is not zero.
  const weighted = used.every((item) => item.weight !== null);
  const sorted = [...used].sort((a, b) => compare(a.value, b.value)).map((item) => ({ value: item.value, weight: weighted ? item.weight! : 1n }));
  return ok({
    value: formatDecimal(weightedMedian(sorted)),
    observedAt: Math.max(...used.map((item) => item.observation.observedAt)),
    used: used.map((item) => item.observation),
    dropped,
  });
}
