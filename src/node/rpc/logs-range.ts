import type { RpcMethod } from './method.ts';
import { blockNumberOf } from './schemas/primitives.ts';
import type { LogFilter } from './schemas/requests.ts';

// The block-range limit of log filters (docs/json-rpc.md#eth_getlogs-range-limit): eth_getLogs, and eth_newFilter, whose
// eth_getFilterLogs would otherwise read any range for one call. A range of more blocks is refused
// with -32602 naming the limit. validateCall refuses ranges it can measure from the params alone
// (numbers, `earliest`); the gateway measures the rest once it has resolved the tags against the head.

/** The most blocks one filter may span, both ends counted. */
export const MAX_LOGS_BLOCK_RANGE = 10_000;

/** The tags the head must resolve: `pending` is one past `latest`. */
type HeadTag = 'latest' | 'safe' | 'finalized' | 'pending';

/** The chain's head: latest as the gateway tracks it; safe and finalized as the node names them (absent: it did not). */
export interface ChainHead {
  latest: bigint;
  safe?: bigint;
  finalized?: bigint;
}

export type LogsBlockRange =
  /** One block, named by hash: no range. */
  | { kind: 'block-hash' }
  /** `blocks` is 0 when fromBlock is above toBlock (the node answers that itself). */
  | { kind: 'range'; from: bigint; to: bigint; blocks: bigint }
  /** Tags, and no head to resolve them against. */
  | { kind: 'needs-head'; tags: HeadTag[] };

/** The tags of a filter's ends (an omitted end is `latest`); none for a block-hash filter. */
export function logsHeadTags(filter: LogFilter): HeadTag[] {
  if (filter.blockHash !== undefined) return [];
  const ends = [filter.fromBlock ?? 'latest', filter.toBlock ?? 'latest'];
  return ends.filter((end) => blockNumberOf(end) === null) as HeadTag[];
}

function resolve(end: 'from' | 'to', tag: string | undefined, head: ChainHead | null): bigint | null {
  const value = tag ?? 'latest';
  const number = blockNumberOf(value);
  if (number !== null || head === null) return number;
  // pending logs are those of the block being built: one past the head.
  if (value === 'pending') return head.latest + 1n;
  if (value === 'latest') return head.latest;
  // safe and finalized lie between genesis and the head: where the node names neither, the range is measured to those bounds.
  return head[value as 'safe' | 'finalized'] ?? (end === 'from' ? 0n : head.latest);
}

/** How many blocks a log filter spans, once its tags are resolved against `head`. */
export function logsBlockRange(filter: LogFilter, head: ChainHead | null): LogsBlockRange {
  if (filter.blockHash !== undefined) return { kind: 'block-hash' };
  const from = resolve('from', filter.fromBlock, head);
  const to = resolve('to', filter.toBlock, head);
  if (from === null || to === null) return { kind: 'needs-head', tags: logsHeadTags(filter) };
  return { kind: 'range', from, to, blocks: to >= from ? to - from + 1n : 0n };
}

/** The -32602 problem of a range over the limit (after the param's name), or null when within it. */
export function logsRangeProblem(method: RpcMethod, range: LogsBlockRange): string | null {
  if (range.kind !== 'range' || range.blocks <= BigInt(MAX_LOGS_BLOCK_RANGE)) return null;
  const per = method.filterAffinity === 'creates' ? 'filter' : 'call';
  return `spans ${range.blocks} blocks; ${method.name} is limited to ${MAX_LOGS_BLOCK_RANGE} blocks per ${per} (split the range)`;
}
