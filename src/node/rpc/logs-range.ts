import { blockNumberOf } from './schemas/primitives.ts';
import type { LogFilter } from './schemas/requests.ts';

// The eth_getLogs block-range limit (platform §3): a range of more blocks is refused with -32602
// naming the limit. validateCall refuses ranges it can measure from the params alone; the gateway
// measures the rest with the head it tracks.

/** The most blocks one eth_getLogs call may span, both ends counted. */
export const MAX_LOGS_BLOCK_RANGE = 10_000;

/** The chain's head as the gateway tracks it; safe and finalized where the network has them. */
export interface ChainHead {
  latest: bigint;
  safe?: bigint;
  finalized?: bigint;
}

export type LogsBlockRange =
  /** One block, named by hash. */
  | { kind: 'block-hash' }
  /** `blocks` is 0 when fromBlock is above toBlock (the node answers that itself). */
  | { kind: 'range'; from: bigint; to: bigint; blocks: bigint }
  /** A tag the head must resolve, and no head (or not that tag of it) was given. */
  | { kind: 'needs-head'; tags: string[] };

function resolve(tag: LogFilter['fromBlock'], head: ChainHead | null): bigint | string {
  const value = tag ?? 'latest';
  const number = blockNumberOf(value);
  if (number !== null) return number;
  // pending logs are those of the block being built: one past the head.
  const resolved = value === 'pending' ? (head ? head.latest + 1n : undefined) : head?.[value as 'latest' | 'safe' | 'finalized'];
  return resolved ?? value;
}

/** How many blocks an eth_getLogs filter spans, once its tags are resolved against `head`. */
export function logsBlockRange(filter: LogFilter, head: ChainHead | null): LogsBlockRange {
  if (filter.blockHash !== undefined) return { kind: 'block-hash' };
  const from = resolve(filter.fromBlock, head);
  const to = resolve(filter.toBlock, head);
  if (typeof from === 'string' || typeof to === 'string') {
    return { kind: 'needs-head', tags: [from, to].filter((end): end is string => typeof end === 'string') };
  }
  return { kind: 'range', from, to, blocks: to >= from ? to - from + 1n : 0n };
}

/** The -32602 problem of a range over the limit (after the param's name), or null when within it. */
export function logsRangeProblem(range: LogsBlockRange): string | null {
  if (range.kind !== 'range' || range.blocks <= BigInt(MAX_LOGS_BLOCK_RANGE)) return null;
  return `spans ${range.blocks} blocks; eth_getLogs is limited to ${MAX_LOGS_BLOCK_RANGE} blocks per call (split the range)`;
}
