import type { Kysely } from 'kysely';
import type { LRUCache } from 'lru-cache';
import type { DatabaseSchema } from '../db/schema.ts';
import type { ChainReader } from './chain-reader.ts';
import { ChainReadError } from './chain-reader.ts';
import { checkLinks, logsMatchBlocks, newestCommonBlock } from './chain-continuity.ts';
import { createCheckpoint, INDEX_VERSION, readCheckpoint, recentBlocks, recordHead, type Checkpoint } from './checkpoints.ts';
import { decodeTransferLogs } from './decode-logs.ts';
import { isTracingUnsupported, nativeTransfersOfTraces, nativeTransfersOfTransactions, type BlockTraces } from './native-moves.ts';
import { FOLLOWED_TOPICS } from './events.ts';
import type { IndexHooks, IndexReset } from '../transfers/index-events.ts';
import { applyStep, resetIndex, rollbackTo, type WriterLease } from './index-writes.ts';
import { classifyLogsError } from './logs-range-errors.ts';
import { rangeAfterAnswer, rangeAfterRefusal, type RangeSize, type RangeSizeLimits } from './range-size.ts';
import { planStep } from './step-plan.ts';
import type { BlockHeader, BlockRef, ChainLog, NativeTransfer } from '../transfers/transfer.ts';

// One step of one network's follower (docs/token-data.md#transfer-indexer): read the head, check the
// checkpoint block is still the node's (else find the common ancestor and roll back, or reset; an
// index of an older version is reset too), then read and store the next planned blocks (their
// transfer logs and native transfers) in one transaction. The decisions are the pure functions it calls; this
// module only sequences the reads and the writes.

export interface FollowSettings {
  confirmations: number;
  reorgWindow: number;
  blocksPerStep: number;
  range: RangeSizeLimits;
  leaseMs: number;
}

/** What a network's follower remembers between steps, in memory. */
interface FollowMemory {
  range: RangeSize;
  /** Block 0 was compared with the checkpoint's genesis since this process took the lease. */
  genesisChecked: boolean;
  /** The head last written to the checkpoint row. */
  recordedHead: number | null;
  /** An error is shown in the checkpoint row and must be cleared by the next success. */
  errorShown: boolean;
  /** The next range, read while the last one was written; only the very next step may use it. */
  readAhead?: { from: number; to: number; read: Promise<BlocksRead | null> } | null;
  /** Holder-token pairs stored while this process led (emptied when it rolls back, resets or leads anew). */
  knownHolderTokens?: LRUCache<string, true>;
}

export interface FollowContext {
  db: Kysely<DatabaseSchema>;
  network: string;
  reader: ChainReader;
  /** The EIP-155 chain id the node must serve; undefined: not checked. */
  chainId?: number;
  startBlock: number;
  holder: string;
  settings: FollowSettings;
  memory: FollowMemory;
  hooks: IndexHooks;
  now: () => number;
}

export type StepOutcome =
  | { kind: 'indexed'; from: number; to: number; head: number; transfers: number; nativeTransfers: number; skippedLogs: number }
  | { kind: 'idle'; head: number; indexed: number | null }
  | { kind: 'rolled-back'; ancestor: BlockRef; removed: number }
  | { kind: 'reset'; reason: IndexReset['reason'] }
  /** Nothing stored; `wait`: pause before the next step (the node's view was moving). */
  | { kind: 'retry'; reason: string; wait: boolean };

const TRANSFER_TOPICS: ReadonlySet<string> = new Set(FOLLOWED_TOPICS);

/** Stored blocks compared with the node's at once while looking for a reorg's ancestor. */
const ANCESTOR_BATCH = 32;

export async function followStep(context: FollowContext): Promise<StepOutcome> {
  const { reader, memory, settings } = context;
  const readAhead = memory.readAhead ?? null;
  memory.readAhead = null;
  // Once per leadership: the node serves the network's chain, and the chain is the one indexed.
  if (!memory.genesisChecked && context.chainId !== undefined) {
    const served = await reader.chainId();
    if (served !== context.chainId) throw new ChainReadError(`the node serves chain ${served}, not ${context.network}'s ${context.chainId}: nothing indexed`);
  }
  const head = await reader.blockNumber();
  const checkpoint = await currentCheckpoint(context, head);
  if (!memory.genesisChecked) {
    const genesis = await blockZero(reader);
    if (genesis.hash.toLowerCase() !== checkpoint.genesisHash.toLowerCase())
      return reset(context, { genesisHash: genesis.hash, head, reason: 'genesis-changed' });
    memory.genesisChecked = true;
  }
  if (checkpoint.version < INDEX_VERSION) return reset(context, { genesisHash: checkpoint.genesisHash, head, reason: 'index-upgraded' });

  const plan = planFrom(context, checkpoint.nextBlock, head);
  // One batch: the checkpoint block (is it still the node's?) and, block by block, the headers the plan needs.
  const planned = plan?.kind === 'blocks' ? numbersFrom(plan.from, plan.to) : [];
  const headers = await reader.headers([...(checkpoint.block ? [checkpoint.block.number] : []), ...planned]);
  if (checkpoint.block) {
    const nodeBlock = headers.shift();
    if (nodeBlock?.hash.toLowerCase() !== checkpoint.block.hash.toLowerCase()) return rollBack(context, checkpoint, head);
  }
  if (plan === null) {
    if (memory.recordedHead !== head || memory.errorShown) {
      await recordHead(context.db, context.network, { head, state: 'following', now: context.now() });
      memory.recordedHead = head;
      memory.errorShown = false;
    }
    return { kind: 'idle', head, indexed: checkpoint.block?.number ?? null };
  }

  let read: BlocksRead | null;
  if (plan.kind === 'blocks') {
    if (headers.some((header) => header === null)) return missingBlocks(plan.to);
    const links = checkLinks(checkpoint.block, headers as BlockHeader[]);
    if (!links.ok)
      return links.reason === 'checkpoint-replaced'
        ? rollBack(context, checkpoint, head)
        : { kind: 'retry', reason: 'the node switched forks while answering', wait: true };
    read = await readBlocks(reader, headers as BlockHeader[], checkpoint.internalTransfers);
  } else {
    try {
      // Read ahead for exactly this range, or read now; a read ahead that failed is read again here,
      // where a refusal is classified.
      const early = readAhead?.from === plan.from && readAhead.to === plan.to ? await readAhead.read.catch(() => undefined) : undefined;
      read = early !== undefined ? early : await readRange(reader, plan, checkpoint.internalTransfers);
    } catch (error) {
      const refusal = classifyLogsError(error);
      const smaller = refusal && rangeAfterRefusal(memory.range, refusal);
      if (!smaller) throw error;
      memory.range = smaller;
      return { kind: 'retry', reason: `${refusal.source} refused ${plan.to - plan.from + 1} blocks of logs; next range ${smaller.blocks}`, wait: false };
    }
    if (read === null) return missingBlocks(plan.to);
    memory.range = rangeAfterAnswer(memory.range, read.logs.length, settings.range);
  }
  const byNumber = new Map(read.headers.map((header) => [header.number, header]));
  if (!logsMatchBlocks(read.logs, plan, byNumber)) return { kind: 'retry', reason: 'logs and headers came from different forks', wait: true };

  const dated = read.logs.map((log) => (log.blockTimestamp === null ? { ...log, blockTimestamp: byNumber.get(log.blockNumber)?.timestamp ?? null } : log));
  // The transfers' logs are decoded here; a consumer's own events (hooks.followedLogs) go to it as they are.
  const isTransferLog = (log: ChainLog) => TRANSFER_TOPICS.has(log.topics[0]?.toLowerCase() ?? '');
  const { transfers, skipped } = decodeTransferLogs(dated.filter(isTransferLog));
  const followed = dated.filter((log) => !log.removed && !isTransferLog(log)).sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
  const last = read.headers.at(-1)!;
  if (plan.kind === 'range') await readNextRangeAhead(context, plan.to + 1, head, read.natives.internal);
  await applyStep(
    context.db,
    {
      lease: lease(context),
      after: checkpoint.nextBlock - 1,
      from: plan.from,
      to: { number: last.number, hash: last.hash, timestamp: last.timestamp },
      blocks: read.headers.map((header) => ({ number: header.number, hash: header.hash, timestamp: header.timestamp })),
      transfers,
      nativeTransfers: read.natives.transfers,
      internalTransfers: read.natives.internal,
      internalFromBlock: internalFromBlock(checkpoint, read.natives),
      logs: followed,
      head,
      state: plan.kind === 'range' ? 'backfilling' : 'following',
      reorgWindow: settings.reorgWindow,
      knownHolderTokens: memory.knownHolderTokens,
    },
    context.hooks,
  );
  memory.recordedHead = head;
  memory.errorShown = false;
  return {
    kind: 'indexed',
    from: plan.from,
    to: plan.to,
    head,
    transfers: transfers.length,
    nativeTransfers: read.natives.transfers.length,
    skippedLogs: skipped,
  };
}

/** What a step stores of its blocks: their headers, the followed logs, the native transfers. */
interface BlocksRead {
  headers: BlockHeader[];
  logs: ChainLog[];
  natives: NativesRead;
}

interface NativesRead {
  transfers: NativeTransfer[];
  /** Whether they include the internal ones: 'unavailable' once the node said it has no call traces. */
  internal: 'recorded' | 'unavailable';
  /** The last block whose traces the node refused (no state left to trace it on): its internal transfers are missing. */
  untraced: number | null;
}

/**
 * From which block the index holds every internal transfer once this step is stored: null while
 * every block it indexed was traced; after a block the node refused to trace, the block after it.
 */
function internalFromBlock(checkpoint: Checkpoint, natives: NativesRead): number | null {
  if (natives.internal === 'unavailable') return null;
  return natives.untraced !== null ? natives.untraced + 1 : checkpoint.internalFromBlock;
}

function missingBlocks(to: number): StepOutcome {
  return { kind: 'retry', reason: `the node has no block up to ${to} yet`, wait: true };
}

/** Blocks inside the reorg window, their headers read and linked: logs and natives by block hash. */
async function readBlocks(reader: ChainReader, headers: BlockHeader[], internal: Checkpoint['internalTransfers']): Promise<BlocksRead> {
  const logs = reader.logsOfBlocks(headers.map((header) => header.hash)).then((answers) => answers.flat());
  const [natives] = await Promise.all([readNatives(reader, headers, logs, internal), logs]);
  return { headers, logs: await logs, natives };
}

/**
 * Old blocks: every header of the range (for its hash, timestamp and transactions), the range's
 * logs in one eth_getLogs, then the native transfers of the blocks that have transactions, by
 * hash. null when the node has no block up to the range's end yet.
 */
async function readRange(reader: ChainReader, range: { from: number; to: number }, internal: Checkpoint['internalTransfers']): Promise<BlocksRead | null> {
  const [headers, logs] = await Promise.all([reader.headers(numbersFrom(range.from, range.to)), reader.logsInRange(range.from, range.to)]);
  if (headers.some((header) => header === null)) return null;
  const read = headers as BlockHeader[];
  return { headers: read, logs, natives: await readNatives(reader, read, Promise.resolve(logs), internal) };
}

/**
 * The native transfers of blocks that have transactions: from their call traces, unless the node
 * once said it has none (`internal` 'unavailable'); a node that says so now gives the external ones
 * from its transactions and receipts, and the index records internal transfers no more. A block the
 * node refuses to trace (a full node past the state it keeps) gives its external ones likewise.
 * The newest block is traced first: internal transfers are served only after the last block the
 * node refused (`internalFromBlock`), so when it refuses the newest, the older ones' traces would
 * never be served and are not asked for (a backfill on a full node: one refused call a range, not one a block).
 * A transaction that emitted one of `logs` succeeded, so a block of only such transactions is read without receipts.
 */
async function readNatives(
  reader: ChainReader,
  headers: readonly BlockHeader[],
  logs: Promise<readonly ChainLog[]>,
  internal: Checkpoint['internalTransfers'],
): Promise<NativesRead> {
  const busy = headers.filter((header) => header.transactions.length > 0);
  const traced = internal === 'unavailable' || busy.length === 0 ? null : await tracesNewestFirst(reader, busy);
  const unsupported = traced?.some((answer) => 'refused' in answer && isTracingUnsupported(answer.refused)) ?? internal === 'unavailable';
  const fromTransactions = traced === null || unsupported ? busy : busy.filter((_, index) => !('traces' in traced[index]!));
  // A transaction that emitted logs succeeded (a failed one's logs are dropped): its receipt is not needed.
  const logged = new Set((await logs).filter((log) => !log.removed).map((log) => log.transactionHash.toLowerCase()));
  const transactions = await reader.transactionsOfBlocks(fromTransactions, logged);
  const transfers = busy.flatMap((header, index) => {
    const answer = unsupported ? null : (traced?.[index] ?? null);
    if (answer && 'traces' in answer) return nativeTransfersOfTraces(header, answer.traces);
    return nativeTransfersOfTransactions(header, transactions[fromTransactions.indexOf(header)]!);
  });
  return {
    transfers,
    internal: unsupported ? 'unavailable' : 'recorded',
    untraced: unsupported ? null : (fromTransactions.at(-1)?.number ?? null),
  };
}

/** The traces of `busy` (oldest first), or, when the node refuses the newest, that refusal alone and `{ skipped }` for the others. */
async function tracesNewestFirst(reader: ChainReader, busy: readonly BlockHeader[]): Promise<Array<BlockTraces | { skipped: true }>> {
  const [newest] = await reader.tracesOfBlocks([busy.at(-1)!.hash]);
  if ('refused' in newest!) return [...busy.slice(0, -1).map(() => ({ skipped: true as const })), newest!];
  return [...(await reader.tracesOfBlocks(busy.slice(0, -1).map((header) => header.hash))), newest!];
}

function planFrom(context: FollowContext, next: number, head: number) {
  const { settings } = context;
  return planStep({
    next,
    head,
    confirmations: settings.confirmations,
    reorgWindow: settings.reorgWindow,
    rangeBlocks: context.memory.range.blocks,
    blocksPerStep: settings.blocksPerStep,
  });
}

/**
 * Backfilling, the node prepares the next range while this process writes the last one: without it
 * one thread alternated between waiting for the node and writing (BENCHMARKS.md). The next step
 * checks it against the checkpoint like anything it reads.
 */
async function readNextRangeAhead(context: FollowContext, next: number, head: number, internal: NativesRead['internal']): Promise<void> {
  const plan = planFrom(context, next, head);
  if (plan?.kind !== 'range') return;
  const read = readRange(context.reader, plan, internal);
  // Unread when the next step plans otherwise: its failure is nobody's.
  read.catch(() => {});
  context.memory.readAhead = { from: plan.from, to: plan.to, read };
  // Node:sqlite writes synchronously: let the request go out before the write holds the thread.
  await new Promise((resolve) => setImmediate(resolve));
}

/** The network's checkpoint, made (with block 0's hash) when the network was never indexed. */
async function currentCheckpoint(context: FollowContext, head: number): Promise<Checkpoint> {
  const existing = await readCheckpoint(context.db, context.network);
  if (existing) return existing;
  const genesis = await blockZero(context.reader);
  await createCheckpoint(context.db, { network: context.network, genesisHash: genesis.hash, startBlock: context.startBlock, head, now: context.now() });
  context.memory.genesisChecked = true;
  const created = await readCheckpoint(context.db, context.network);
  if (!created) throw new Error(`the checkpoint of ${context.network} was not stored`);
  return created;
}

/** The checkpoint block is not the node's: roll back to the newest kept block the node still has, or reset when none is. */
async function rollBack(context: FollowContext, checkpoint: Checkpoint, head: number): Promise<StepOutcome> {
  const stored = await recentBlocks(context.db, context.network);
  for (let offset = 0; offset < stored.length; offset += ANCESTOR_BATCH) {
    const batch = stored.slice(offset, offset + ANCESTOR_BATCH);
    const nodeHeaders = await context.reader.headers(batch.map((block) => block.number));
    const ancestor = newestCommonBlock(batch, new Map(batch.map((block, index) => [block.number, nodeHeaders[index]?.hash ?? null])));
    if (!ancestor) continue;
    const kept = batch.find((block) => block.number === ancestor.number)!;
    context.memory.knownHolderTokens?.clear();
    const removed = await rollbackTo(context.db, { lease: lease(context), ancestor: kept }, context.hooks);
    return { kind: 'rolled-back', ancestor, removed: removed.length };
  }
  const genesis = await blockZero(context.reader);
  const reason = genesis.hash.toLowerCase() === checkpoint.genesisHash.toLowerCase() ? 'reorg-beyond-window' : 'genesis-changed';
  return reset(context, { genesisHash: genesis.hash, head, reason });
}

async function reset(context: FollowContext, input: { genesisHash: BlockRef['hash']; head: number; reason: IndexReset['reason'] }): Promise<StepOutcome> {
  context.memory.knownHolderTokens?.clear();
  await resetIndex(
    context.db,
    { lease: lease(context), genesisHash: input.genesisHash, startBlock: context.startBlock, head: input.head, reason: input.reason },
    context.hooks,
  );
  context.memory.genesisChecked = true;
  return { kind: 'reset', reason: input.reason };
}

async function blockZero(reader: ChainReader): Promise<BlockHeader> {
  const [genesis] = await reader.headers([0]);
  if (!genesis) throw new ChainReadError('the node has no block 0');
  return genesis;
}

function lease(context: FollowContext): WriterLease {
  return { network: context.network, holder: context.holder, now: context.now(), leaseMs: context.settings.leaseMs };
}

function numbersFrom(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, index) => from + index);
}
