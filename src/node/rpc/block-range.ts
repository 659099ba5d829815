import type { BlockRangeLimit, RpcMethod } from './method.ts';
import { blockNumberOf } from './schemas/primitives.ts';
import type { LogFilter } from './schemas/requests.ts';

// The block-range limit of filters over a range of blocks (docs/json-rpc.md#eth_getlogs-range-limit):
// eth_getLogs, eth_newFilter (whose
// eth_getFilterLogs would otherwise read any range for one call) and trace_filter. A range of more
// blocks is refused with -32602 naming the limit. validateCall refuses ranges it can measure from the
// params alone (numbers, `earliest`); the gateway measures the rest once it has resolved the tags
// against the head.

/** The most blocks one log filter may span, both ends counted. */
export const MAX_LOGS_BLOCK_RANGE = 10_000;

/** The most blocks one trace_filter call may span, both ends counted: as many as a log filter, its own limit all the same. */
export const MAX_TRACE_FILTER_BLOCK_RANGE = 10_000;

const hexNumber = (number: bigint) => `0x${number.toString(16)}`;

/** The tags the head must resolve: `pending` is one past `latest`. */
type HeadTag = 'latest' | 'safe' | 'finalized' | 'pending';

/** The chain's head: latest as the gateway tracks it; safe and finalized as the node names them (absent: it did not). */
export interface ChainHead {
  latest: bigint;
  safe?: bigint;
  finalized?: bigint;
}

export type BlockRange =
  /** One block, named by hash: no range. */
  | { kind: 'block-hash' }
  /** `blocks` is 0 when the start is above the end (the node answers that itself). */
  | { kind: 'range'; from: bigint; to: bigint; blocks: bigint }
  /** Tags, and no head to resolve them against. */
  | { kind: 'needs-head'; tags: HeadTag[] };

/** eth_getLogs and eth_newFilter: both ends default to `latest`; a blockHash filter has no range. */
export const logsFilterRange: BlockRangeLimit = {
  maxBlocks: MAX_LOGS_BLOCK_RANGE,
  ends: (filter) => {
    const { blockHash, fromBlock, toBlock } = filter as LogFilter;
    return blockHash === undefined ? { from: fromBlock ?? 'latest', to: toBlock ?? 'latest' } : null;
  },
};

/** trace_filter: fromBlock is required (its schema says so: from genesis would be unbounded); toBlock defaults to `latest`. */
export const traceFilterRange: BlockRangeLimit = {
  maxBlocks: MAX_TRACE_FILTER_BLOCK_RANGE,
  ends: (filter) => {
    const { fromBlock, toBlock } = filter as { fromBlock?: string; toBlock?: string };
    return { from: fromBlock ?? 'earliest', to: toBlock ?? 'latest' };
  },
  withNumbers: (filter, from, to) => ({ ...(filter as object), fromBlock: hexNumber(from), toBlock: hexNumber(to) }),
};

/** The tags of a range's ends that only the head resolves; none for a block-hash filter. */
export function headTags(limit: BlockRangeLimit, filter: unknown): HeadTag[] {
  const ends = limit.ends(filter);
  if (ends === null) return [];
  return [ends.from, ends.to].filter((end) => blockNumberOf(end) === null) as HeadTag[];
}

function resolve(end: 'from' | 'to', value: string, head: ChainHead | null): bigint | null {
  const number = blockNumberOf(value);
  if (number !== null || head === null) return number;
  // pending logs are those of the block being built: one past the head.
  if (value === 'pending') return head.latest + 1n;
  if (value === 'latest') return head.latest;
  // safe and finalized lie between genesis and the head: where the node names neither, the range is measured to those bounds.
  return head[value as 'safe' | 'finalized'] ?? (end === 'from' ? 0n : head.latest);
}

/** How many blocks a filter spans, once its tags are resolved against `head`. */
export function blockRangeOf(limit: BlockRangeLimit, filter: unknown, head: ChainHead | null): BlockRange {
  const ends = limit.ends(filter);
  if (ends === null) return { kind: 'block-hash' };
  const from = resolve('from', ends.from, head);
  const to = resolve('to', ends.to, head);
  if (from === null || to === null) return { kind: 'needs-head', tags: headTags(limit, filter) };
  return { kind: 'range', from, to, blocks: to >= from ? to - from + 1n : 0n };
}

/** The -32602 problem of a range over the method's limit (after the param's name), or null when within it. */
export function blockRangeProblem(method: RpcMethod, range: BlockRange): string | null {
  const max = method.blockRange?.maxBlocks;
  if (max === undefined || range.kind !== 'range' || range.blocks <= BigInt(max)) return null;
  const per = method.filterAffinity === 'creates' ? 'filter' : 'call';
  return `spans ${range.blocks} blocks; ${method.name} is limited to ${max} blocks per ${per} (split the range)`;
}
