import { parseAbi } from 'viem';
import { type Fixed, fixedRatio, tokenUnit } from './decimal.ts';
import { fail, ok, type Result } from './result.ts';

// An on-chain price feed's answer (docs/prices.md#sources) through Chainlink's AggregatorV3Interface: the value is
// `answer / 10^decimals()`, its time the round's `updatedAt`. A round that is not a real answer is refused.

/** What a reader calls on a feed. */
export const aggregatorV3Abi = parseAbi([
  'function decimals() view returns (uint8)',
  'function description() view returns (string)',
  'function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)',
]);

/** 9999-12-31T23:59:59Z in unix seconds: a later updatedAt is not a time. */
const LAST_SECOND = 253402300799n;

export interface RoundData {
  roundId: bigint;
  answer: bigint;
  startedAt: bigint;
  updatedAt: bigint;
  answeredInRound: bigint;
}

export interface FeedReading {
  value: Fixed;
  /** `updatedAt` in ms since the epoch. */
  observedAt: number;
}

export type OracleFeedCode = 'bad-decimals' | 'non-positive-answer' | 'carried-over-round' | 'not-updated' | 'bad-updated-at' | 'below-precision';

/** `latestRoundData()` and `decimals()` as a value and its time; refuses an answer ≤ 0, an answer carried from an earlier round, and a round never updated. */
export function readOracleFeed(round: RoundData, decimals: number): Result<FeedReading, OracleFeedCode> {
  const unit = tokenUnit(decimals);
  if (unit === null) return fail('bad-decimals', `feed decimals must be a whole number from 0 to 77, got ${decimals}`);
  if (round.answer <= 0n) return fail('non-positive-answer', `round ${round.roundId} answered ${round.answer}, not a price`);
  if (round.answeredInRound < round.roundId) {
    return fail('carried-over-round', `round ${round.roundId} carries the answer of round ${round.answeredInRound}`);
  }
  if (round.updatedAt === 0n) return fail('not-updated', `round ${round.roundId} has never been updated (updatedAt 0)`);
  if (round.updatedAt > LAST_SECOND) return fail('bad-updated-at', `round ${round.roundId} says it was updated at ${round.updatedAt}, after the year 9999`);
  const value = fixedRatio(round.answer, unit);
  if (value === 0n) return fail('below-precision', `answer ${round.answer} at ${decimals} decimals is below 10^-18`);
  return ok({ value, observedAt: Number(round.updatedAt) * 1000 });
}
