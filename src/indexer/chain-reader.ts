import { http, numberToHex, type Address, type Hex } from 'viem';
import { z } from 'zod';
import { FOLLOWED_TOPICS } from './events.ts';
import { callFrameOf, type BlockTraces, type BlockTransaction } from './native-moves.ts';
import type { BlockHeader, ChainLog } from '../transfers/transfer.ts';

// The follower's view of a network over JSON-RPC: the head, headers by number, the followed
// events' logs (topic-filtered, no address filter) by range or by block hash, and what moved the
// native coin in blocks named by hash: their call traces (debug_traceBlockByHash with the built-in
// callTracer), or, from a node without them, their transactions and receipts. Answers are
// validated; one that does not parse is a ChainReadError. Node errors pass through unchanged, for
// logs-range-errors.ts and native-moves.ts to read. Calls made together go out as one JSON-RPC
// batch over HTTP.

/** Sends one JSON-RPC call and resolves with its result, or throws the node's error. */
type JsonRpcRequest = (method: string, params: unknown[]) => Promise<unknown>;

/** A node's URL (or how to get it: a local devnet starts on first use), or a call function. */
export type ChainSource = { rpcUrl: string | (() => Promise<string>) } | { request: JsonRpcRequest };

export interface ChainReader {
  chainId(): Promise<number>;
  blockNumber(): Promise<number>;
  /** Headers by number, null where the node has no such block. */
  headers(numbers: readonly number[]): Promise<Array<BlockHeader | null>>;
  /** The followed events' logs of blocks from..to. */
  logsInRange(from: number, to: number): Promise<ChainLog[]>;
  /** The followed events' logs of each block, by hash (a node that does not know the hash answers an error). */
  logsOfBlocks(hashes: readonly Hex[]): Promise<ChainLog[][]>;
  /**
   * Each block's call traces, a transaction's each, by block hash; or the node's refusal of the block
   * (no such method, or no state left to trace it on). A call the node did not answer throws.
   */
  tracesOfBlocks(hashes: readonly Hex[]): Promise<BlockTraces[]>;
  /**
   * Each block's transactions with their value and whether they succeeded, by block hash.
   * `succeeded`: hashes (lowercase) of transactions known to have succeeded (they emitted logs): a
   * block whose every transaction is one is read without its receipts, unless one created a contract.
   */
  transactionsOfBlocks(blocks: ReadonlyArray<Pick<BlockHeader, 'hash' | 'transactions'>>, succeeded?: ReadonlySet<string>): Promise<BlockTransaction[][]>;
}

export class ChainReadError extends Error {
  override name = 'ChainReadError';
}

/** Calls sent at once: one HTTP batch. */
const CALLS_PER_BATCH = 50;
/** An eth_getLogs answer over this is refused by the client and read as "range too large". */
const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

const quantity = z
  .string()
  .regex(/^0x[0-9a-fA-F]+$/)
  .transform((value) => Number(BigInt(value)))
  .refine(Number.isSafeInteger, 'beyond the integers a number holds');
const hash = z.string().regex(/^0x[0-9a-fA-F]{64}$/) as unknown as z.ZodType<Hex>;
const headerSchema = z.object({ number: quantity, hash, parentHash: hash, timestamp: quantity, transactions: z.array(hash) });
const lowerAddress = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/)
  .transform((value) => value.toLowerCase() as Address);
const amount = z.string().regex(/^0x[0-9a-fA-F]+$/);
const fullBlockSchema = z.object({
  hash,
  transactions: z.array(z.object({ hash, transactionIndex: quantity, from: lowerAddress, to: lowerAddress.nullable(), value: amount })),
});
const receiptsSchema = z.array(z.object({ transactionHash: hash, status: z.string().optional(), contractAddress: lowerAddress.nullish(), blockHash: hash }));
const tracesSchema = z.array(z.object({ txHash: hash.optional(), result: z.unknown().optional(), error: z.string().optional() }));
const logSchema = z.object({
  address: z.string().regex(/^0x[0-9a-fA-F]{40}$/) as unknown as z.ZodType<Address>,
  topics: z.array(z.string().regex(/^0x[0-9a-fA-F]*$/) as unknown as z.ZodType<Hex>),
  data: z.string().regex(/^0x[0-9a-fA-F]*$/) as unknown as z.ZodType<Hex>,
  blockNumber: quantity,
  blockHash: hash,
  blockTimestamp: quantity.nullish(),
  transactionHash: hash,
  transactionIndex: quantity,
  logIndex: quantity,
  removed: z.boolean().optional(),
});
const logsSchema = z.array(logSchema);

/** `extraTopics`: the topic0s of events a consumer follows beside the transfers (IndexHooks.followedLogs), asked for in the same eth_getLogs. */
export function createChainReader(source: ChainSource, options: { timeoutMs?: number; extraTopics?: readonly Hex[] } = {}): ChainReader {
  const request = 'request' in source ? source.request : httpRequest(source.rpcUrl, options.timeoutMs ?? 10_000);
  const logsFilter = { topics: [[...FOLLOWED_TOPICS, ...(options.extraTopics ?? [])]] };
  return {
    async chainId() {
      return parse(quantity, await request('eth_chainId', []), 'eth_chainId');
    },
    async blockNumber() {
      return parse(quantity, await request('eth_blockNumber', []), 'eth_blockNumber');
    },
    async headers(numbers) {
      const answers = await inBatches(numbers, (number) => request('eth_getBlockByNumber', [numberToHex(number), false]));
      return answers.map((answer, index) => (answer === null ? null : parse(headerSchema, answer, `eth_getBlockByNumber(${numbers[index]})`)));
    },
    async logsInRange(from, to) {
      const answer = await request('eth_getLogs', [{ ...logsFilter, fromBlock: numberToHex(from), toBlock: numberToHex(to) }]);
      return parseLogs(answer, `eth_getLogs(${from}..${to})`);
    },
    async logsOfBlocks(hashes) {
      const answers = await inBatches(hashes, (blockHash) => request('eth_getLogs', [{ ...logsFilter, blockHash }]));
      return answers.map((answer, index) => parseLogs(answer, `eth_getLogs(${hashes[index]})`));
    },
    async tracesOfBlocks(hashes) {
      // The node's own error is an answer about the block; a call it did not answer fails the step.
      const answers = await inBatches(hashes, (blockHash) =>
        request('debug_traceBlockByHash', [blockHash, { tracer: 'callTracer' }]).then(
          (answer) => ({ answer }),
          (error: unknown) => (answeredByNode(error) ? { refused: error } : Promise.reject(error)),
        ),
      );
      return answers.map((outcome, index): BlockTraces => {
        if ('refused' in outcome) return outcome;
        const what = `debug_traceBlockByHash(${hashes[index]})`;
        const traces = parse(tracesSchema, outcome.answer, what);
        // A transaction the node could not trace (anvil: "Resource not found" for a block whose state it dropped).
        const failed = traces.find((trace) => trace.result === undefined);
        if (failed) return { refused: new ChainReadError(`${what}: ${failed.error ?? 'no trace'} (transaction ${failed.txHash ?? '?'})`) };
        return {
          traces: traces.map((trace) => {
            const frame = callFrameOf(trace.result);
            if (!frame) throw new ChainReadError(`${what} answered a call trace of another shape than callTracer's`);
            return { transactionHash: trace.txHash ?? null, frame };
          }),
        };
      });
    },
    async transactionsOfBlocks(blocks, succeeded = new Set()) {
      // Receipts repeat every log of their block: asked for only where a transaction's success is not known.
      const known = (hash: string) => succeeded.has(hash.toLowerCase());
      const answers = await inBatches(blocks, async ({ hash: blockHash, transactions }) => {
        const withReceipts = !transactions.every(known);
        const [block, receipts] = await Promise.all([
          request('eth_getBlockByHash', [blockHash, true]),
          withReceipts ? request('eth_getBlockReceipts', [blockHash]) : null,
        ]);
        return { blockHash, block, receipts };
      });
      const created = answers.filter((answer) => answer.receipts === null && answer.block !== null && creates(answer.block));
      // A creation's address is in its receipt only (rare among transactions that emitted logs).
      const late = await inBatches(created, (answer) => request('eth_getBlockReceipts', [answer.blockHash]));
      for (const [index, answer] of created.entries()) answer.receipts = late[index];
      return answers.map(({ blockHash, block, receipts }) => {
        if (block === null) throw new ChainReadError(`eth_getBlockByHash(${blockHash}) answered null: the node has no such block`);
        const { transactions } = parse(fullBlockSchema, block, `eth_getBlockByHash(${blockHash})`);
        const byHash = new Map(
          receipts === null
            ? []
            : parse(receiptsSchema, receipts, `eth_getBlockReceipts(${blockHash})`).map((receipt) => [receipt.transactionHash.toLowerCase(), receipt]),
        );
        return transactions.map((transaction) => {
          const common = { hash: transaction.hash, index: transaction.transactionIndex, from: transaction.from, value: BigInt(transaction.value) };
          if (receipts === null) return { ...common, to: transaction.to, succeeded: true };
          const receipt = byHash.get(transaction.hash.toLowerCase());
          if (!receipt || receipt.blockHash.toLowerCase() !== blockHash.toLowerCase())
            throw new ChainReadError(`eth_getBlockReceipts(${blockHash}) has no receipt of ${transaction.hash} in that block`);
          return {
            ...common,
            to: transaction.to ?? receipt.contractAddress ?? null,
            // Receipts before Byzantium have a state root, no status: their transactions count as succeeded.
            succeeded: receipt.status === undefined || BigInt(receipt.status) === 1n,
          };
        });
      });
    },
  };
}

/** Whether a full block (as the node answered it) holds a contract creation: a transaction without `to`. */
function creates(block: unknown): boolean {
  const transactions = (block as { transactions?: unknown }).transactions;
  return Array.isArray(transactions) && transactions.some((transaction) => (transaction as { to?: unknown } | null)?.to == null);
}

function httpRequest(rpcUrl: string | (() => Promise<string>), timeoutMs: number): JsonRpcRequest {
  // No retries here: the follower retries a whole step, and halves a range the node refused.
  const transportOf = (url: string) =>
    http(url, { batch: { batchSize: CALLS_PER_BATCH }, retryCount: 0, timeout: timeoutMs, maxResponseBodySize: MAX_ANSWER_BYTES })({});
  let transport: Promise<ReturnType<typeof transportOf>> | null = typeof rpcUrl === 'string' ? Promise.resolve(transportOf(rpcUrl)) : null;
  return async (method, params) => {
    if (!transport) {
      transport = (rpcUrl as () => Promise<string>)().then(transportOf);
      // A URL that could not be had is asked for again by the next call.
      transport.catch(() => (transport = null));
    }
    return (await transport).request({ method, params } as never);
  };
}

/** Whether a call's failure is the node's JSON-RPC error (it has the code the node answered), not a failed exchange. */
function answeredByNode(error: unknown): boolean {
  for (let current = error, depth = 0; typeof current === 'object' && current !== null && depth < 8; depth++) {
    if (typeof (current as { code?: unknown }).code === 'number') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

async function inBatches<T, R>(items: readonly T[], call: (item: T) => Promise<R>): Promise<R[]> {
  const answers: R[] = [];
  for (let offset = 0; offset < items.length; offset += CALLS_PER_BATCH) {
    answers.push(...(await Promise.all(items.slice(offset, offset + CALLS_PER_BATCH).map(call))));
  }
  return answers;
}

function parse<T>(schema: z.ZodType<T>, answer: unknown, what: string): T {
  const parsed = schema.safeParse(answer);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new ChainReadError(`${what} answered something else than expected (${issue?.path.join('.') || 'result'}: ${issue?.message ?? 'invalid'})`);
}

/**
 * Logs checked by hand with the schema's rules, which costs a tenth of the schema on a range of
 * thousands; the schema reads an answer that fails them, for its message.
 */
function parseLogs(answer: unknown, what: string): ChainLog[] {
  if (!Array.isArray(answer)) return parse(logsSchema, answer, what).map(chainLogOf);
  const logs: ChainLog[] = new Array(answer.length);
  for (let index = 0; index < answer.length; index++) {
    const log = plainLogOf(answer[index]);
    if (!log) return parse(logsSchema, answer, what).map(chainLogOf);
    logs[index] = log;
  }
  return logs;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HASH = /^0x[0-9a-fA-F]{64}$/;
const HEX = /^0x[0-9a-fA-F]*$/;
const QUANTITY = /^0x[0-9a-fA-F]{1,13}$/;

/** A log that meets every rule of `logSchema` with quantities below 2^52, or null for the schema to judge. */
function plainLogOf(value: unknown): ChainLog | null {
  if (typeof value !== 'object' || value === null) return null;
  const log = value as Record<string, unknown>;
  const { address, topics, data, blockNumber, blockHash, blockTimestamp, transactionHash, transactionIndex, logIndex, removed } = log;
  if (typeof address !== 'string' || !ADDRESS.test(address)) return null;
  if (!Array.isArray(topics) || !topics.every((topic) => typeof topic === 'string' && HEX.test(topic))) return null;
  if (typeof data !== 'string' || !HEX.test(data)) return null;
  if (typeof blockNumber !== 'string' || !QUANTITY.test(blockNumber)) return null;
  if (typeof blockHash !== 'string' || !HASH.test(blockHash)) return null;
  if (blockTimestamp != null && (typeof blockTimestamp !== 'string' || !QUANTITY.test(blockTimestamp))) return null;
  if (typeof transactionHash !== 'string' || !HASH.test(transactionHash)) return null;
  if (typeof transactionIndex !== 'string' || !QUANTITY.test(transactionIndex)) return null;
  if (typeof logIndex !== 'string' || !QUANTITY.test(logIndex)) return null;
  if (removed !== undefined && typeof removed !== 'boolean') return null;
  return {
    address: address as Address,
    topics: topics as Hex[],
    data: data as Hex,
    blockNumber: Number.parseInt(blockNumber, 16),
    blockHash: blockHash as Hex,
    blockTimestamp: blockTimestamp == null ? null : Number.parseInt(blockTimestamp as string, 16),
    transactionHash: transactionHash as Hex,
    transactionIndex: Number.parseInt(transactionIndex, 16),
    logIndex: Number.parseInt(logIndex, 16),
    removed: removed ?? false,
  };
}

function chainLogOf(log: z.output<typeof logSchema>): ChainLog {
  return { ...log, blockTimestamp: log.blockTimestamp ?? null, removed: log.removed ?? false };
}
