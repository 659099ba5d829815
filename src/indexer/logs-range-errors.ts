// How nodes and providers say an eth_getLogs call asked for too much, as data: each message with
// who sends it and, where the message names one, the block count it would accept. The follower
// halves its range on any of them (or takes the named count) and grows it back after successes
// (range-size.ts). Anvil has no limit of its own; forking, it relays its upstream's message.

interface LogsLimitMessage {
  source: string;
  pattern: RegExp;
  /** Blocks the node would accept, read from the match; absent: halve. */
  blocks?: (match: RegExpMatchArray) => number;
}

const count = (text: string | undefined) => Number((text ?? '').replace(/[,.]/g, ''));
const span = (from: string | undefined, to: string | undefined) => Number.parseInt(to ?? '', 16) - Number.parseInt(from ?? '', 16) + 1;

export const LOGS_LIMIT_MESSAGES: readonly LogsLimitMessage[] = [
  // Alchemy: the response cap names a range that fits; the free tier names its block limit.
  { source: 'Alchemy', pattern: /this block range should work: \[0x([0-9a-f]+),\s*0x([0-9a-f]+)\]/i, blocks: (m) => span(m[1], m[2]) },
  { source: 'Alchemy', pattern: /eth_getLogs requests with up to a ([\d,]+) block range/i, blocks: (m) => count(m[1]) },
  { source: 'Alchemy', pattern: /log response size exceeded/i },
  // Infura: -32005 with a range that fits, or -32602 naming its block limit.
  { source: 'Infura', pattern: /try with this block range \[0x([0-9a-f]+),\s*0x([0-9a-f]+)\]/i, blocks: (m) => span(m[1], m[2]) },
  { source: 'Infura', pattern: /range \d+ exceeds limit of ([\d,]+)/i, blocks: (m) => count(m[1]) },
  { source: 'Infura, ethermint, Polygon zkEVM', pattern: /query returned more than [\d,]+ results/i },
  // reth (and nodes built on it): a block limit, or a result limit with the range that fits.
  { source: 'reth', pattern: /query exceeds max block range ([\d,]+)/i, blocks: (m) => count(m[1]) },
  { source: 'reth', pattern: /query exceeds max results [\d,]+, retry with the range (\d+)-(\d+)/i, blocks: (m) => Number(m[2]) - Number(m[1]) + 1 },
  { source: 'reth, llamarpc', pattern: /query exceeds max results/i },
  // erigon (--rpc.blockrange.limit, --rpc.logs.maxresults).
  { source: 'erigon', pattern: /query block range exceeds server limit, narrow your filter: ([\d,]+)/i, blocks: (m) => count(m[1]) },
  { source: 'erigon', pattern: /query returns too many logs/i },
  // nethermind (JsonRpc.MaxLogsPerResponse), -32005.
  { source: 'nethermind', pattern: /too many logs requested/i },
  // besu (--rpc-max-logs-range), -32005.
  { source: 'besu', pattern: /requested range exceeds maximum range limit/i },
  // geth answers a call over its HTTP deadline with -32002; BSC and other geth forks name a block limit.
  { source: 'geth', pattern: /request timed out/i },
  { source: 'BSC, publicnode', pattern: /exceed maximum block range: ([\d,]+)/i, blocks: (m) => count(m[1]) },
  // Crucible's own gateway (src/node/rpc/block-range.ts).
  { source: 'Crucible', pattern: /eth_getLogs is limited to ([\d,]+) blocks per call/i, blocks: (m) => count(m[1]) },
  { source: 'QuickNode, 1RPC, Blast', pattern: /eth_getLogs is limited to a ([\d,]+) (?:block )?range/i, blocks: (m) => count(m[1]) },
  { source: 'BlockPI', pattern: /limited to ([\d,]+) blocks?/i, blocks: (m) => count(m[1]) },
  { source: 'Moonbeam, Frontier', pattern: /block range is too wide \(maximum (\d+)\)/i, blocks: (m) => count(m[1]) },
  { source: 'Ankr', pattern: /block range is too wide/i },
  { source: 'Cloudflare', pattern: /max range: (\d+)/i, blocks: (m) => count(m[1]) },
  { source: 'Coinbase', pattern: /please limit the query to at most ([\d,]+) blocks/i, blocks: (m) => count(m[1]) },
  { source: 'Chainstack', pattern: /block range limit exceeded/i },
  { source: 'Arbitrum', pattern: /logs matched by query exceeds limit of \d+/i },
  { source: 'Base, OP Stack', pattern: /block range (?:is )?too large/i },
  { source: 'OP Stack', pattern: /backend response too large/i },
  { source: '1RPC', pattern: /response size should not greater than \d+ bytes/i },
  // This process's own JSON-RPC client (viem) refuses an answer over its size cap (chain-reader.ts).
  { source: 'viem', pattern: /response body exceeded the size limit/i },
  // A generic result or response cap, and a call that ran out of time on a large range.
  { source: 'generic', pattern: /too many (?:results|logs)/i },
  { source: 'generic', pattern: /response (?:size )?(?:is )?too large|response size exceeded/i },
  { source: 'generic', pattern: /limit exceeded/i },
  { source: 'generic', pattern: /context deadline exceeded|query timeout exceeded|statement timeout|took too long to respond/i },
];

/** An eth_getLogs failure that a smaller range may avoid. */
export interface LogsRangeTooLarge {
  source: string;
  /** Blocks the node said it would accept; null: halve. */
  acceptedBlocks: number | null;
}

/**
 * Whether `error` (as a JSON-RPC client threw it: its message, `details`, `data` and causes are
 * read) is a node saying the range was too much. Rate limits are not: they name requests, not ranges.
 */
export function classifyLogsError(error: unknown): LogsRangeTooLarge | null {
  const text = errorText(error);
  if (/rate limit|request limit|requests per second|too many requests|daily request count|compute units per second/i.test(text)) return null;
  for (const message of LOGS_LIMIT_MESSAGES) {
    const match = text.match(message.pattern);
    if (!match) continue;
    const blocks = message.blocks?.(match);
    return { source: message.source, acceptedBlocks: blocks !== undefined && Number.isSafeInteger(blocks) && blocks >= 1 ? blocks : null };
  }
  return null;
}

/** Every message along an error's chain (viem nests the node's in `details` and `cause`). */
export function errorText(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 8; depth++) {
    if (typeof current !== 'object') {
      parts.push(String(current));
      break;
    }
    const record = current as Record<string, unknown>;
    for (const key of ['message', 'details', 'shortMessage']) if (typeof record[key] === 'string') parts.push(record[key]);
    if (record.data !== undefined) parts.push(typeof record.data === 'string' ? record.data : (JSON.stringify(record.data) ?? ''));
    current = record.cause;
  }
  return parts.join('\n');
}
