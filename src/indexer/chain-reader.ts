import { http, numberToHex, type Address, type Hex } from 'viem';
import { z } from 'zod';
import { FOLLOWED_TOPICS } from './events.ts';
import type { BlockHeader, ChainLog } from '../transfers/transfer.ts';

// The follower's view of a network over JSON-RPC: the head, headers by number, and the followed
// events' logs (topic-filtered, no address filter) by range or by block hash. Answers are
// validated; one that does not parse is a ChainReadError. Node errors pass through unchanged, for
// logs-range-errors.ts to read. Calls made together go out as one JSON-RPC batch over HTTP.

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
const headerSchema = z.object({ number: quantity, hash, parentHash: hash, timestamp: quantity });
const logSchema = z.object({
  address: z.string().regex(/^0x[0-9a-fA-F]{40}$/) as unknown as z.ZodType<Address>,
  topics: z.array(z.string().regex(/^0x[0-9a-fA-F]*$/) as unknown as z.ZodType<Hex>),
  data: z.string().regex(/^0x[0-9a-fA-F]*$/) as unknown as z.ZodType<Hex>,
  blockNumber: quantity,
  blockHash: hash,
  blockTimestamp: quantity.nullish(),
  transactionHash: hash,
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
  };
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
  const { address, topics, data, blockNumber, blockHash, blockTimestamp, transactionHash, logIndex, removed } = log;
  if (typeof address !== 'string' || !ADDRESS.test(address)) return null;
  if (!Array.isArray(topics) || !topics.every((topic) => typeof topic === 'string' && HEX.test(topic))) return null;
  if (typeof data !== 'string' || !HEX.test(data)) return null;
  if (typeof blockNumber !== 'string' || !QUANTITY.test(blockNumber)) return null;
  if (typeof blockHash !== 'string' || !HASH.test(blockHash)) return null;
  if (blockTimestamp != null && (typeof blockTimestamp !== 'string' || !QUANTITY.test(blockTimestamp))) return null;
  if (typeof transactionHash !== 'string' || !HASH.test(transactionHash)) return null;
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
    logIndex: Number.parseInt(logIndex, 16),
    removed: removed ?? false,
  };
}

function chainLogOf(log: z.output<typeof logSchema>): ChainLog {
  return { ...log, blockTimestamp: log.blockTimestamp ?? null, removed: log.removed ?? false };
}
