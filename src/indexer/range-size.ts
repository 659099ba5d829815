import type { LogsRangeTooLarge } from './logs-range-errors.ts';

// How many blocks the next eth_getLogs range spans while backfilling. It starts small and doubles
// after each answer that came back under half the log cap, halves when an answer went over the cap
// (memory stays flat: no answer holds much more than maxLogs) or the node refused the range
// (logs-range-errors.ts), and remembers a refused size as a ceiling until many answers have passed.

export interface RangeSizeLimits {
  /** Most blocks one call may span. */
  maxBlocks: number;
  /** Logs one answer should hold at most. */
  maxLogs: number;
}

export interface RangeSize {
  blocks: number;
  /** No growth past this: below the last size a node refused. */
  ceiling: number;
  /** Answers since the last refusal. */
  successes: number;
}

const INITIAL_BLOCKS = 100;
/** After this many answers without a refusal the ceiling is lifted: providers' result caps depend on the blocks' contents. */
const CEILING_KEPT_FOR = 64;

export function initialRangeSize(limits: RangeSizeLimits): RangeSize {
  return { blocks: Math.min(INITIAL_BLOCKS, limits.maxBlocks), ceiling: limits.maxBlocks, successes: 0 };
}

/** The size after an answer of `logCount` logs. */
export function rangeAfterAnswer(size: RangeSize, logCount: number, limits: RangeSizeLimits): RangeSize {
  if (logCount > limits.maxLogs) return { ...size, blocks: Math.max(1, Math.floor(size.blocks / 2)), successes: size.successes + 1 };
  const successes = size.successes + 1;
  const ceiling = successes >= CEILING_KEPT_FOR ? limits.maxBlocks : size.ceiling;
  const blocks = logCount <= limits.maxLogs / 2 ? Math.min(ceiling, limits.maxBlocks, size.blocks * 2) : size.blocks;
  return { blocks: Math.max(1, blocks), ceiling, successes: successes >= CEILING_KEPT_FOR ? 0 : successes };
}

/** The size after the node refused a range of `size.blocks`; null when it refused a single block (no smaller range exists). */
export function rangeAfterRefusal(size: RangeSize, refusal: LogsRangeTooLarge): RangeSize | null {
  if (size.blocks <= 1) return null;
  const named = refusal.acceptedBlocks;
  const blocks = named !== null && named < size.blocks ? named : Math.floor(size.blocks / 2);
  return { blocks: Math.max(1, blocks), ceiling: Math.max(1, blocks), successes: 0 };
}
