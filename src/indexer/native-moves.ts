import type { Address, Hex } from 'viem';
import { errorText } from './logs-range-errors.ts';
import type { BlockHeader, NativeTransfer } from '../transfers/transfer.ts';

// What moved the native coin in a block (docs/token-data.md#crucible_getassettransfers), as pure functions over what the node said.
// From call traces (callTracer's frames): each successful transaction's own value (external, zero
// value included: every successful transaction is one), and the value of every call, creation or
// self-destruct inside it that neither reverted nor sits inside a call that reverted (internal,
// never zero). Without traces, from the block's transactions and receipts: external only. A failed
// transaction moved nothing, so it gives nothing.

/** One frame of the built-in callTracer (geth's shape; anvil, reth, erigon and nethermind answer it too). */
export interface CallFrame {
  /** CALL, CREATE, CREATE2, SELFDESTRUCT, DELEGATECALL, STATICCALL, CALLCODE. */
  type: string;
  from: Address;
  /** The callee, the contract created, or the self-destruct's beneficiary; absent for a creation that failed. */
  to: Address | null;
  value: bigint;
  /** Set when this frame reverted (or ran out of gas): it and every frame inside it undone. */
  error: string | null;
  calls: CallFrame[];
}

/** A transaction's call trace: its top frame, and its hash where the node named it. */
export interface TransactionTrace {
  transactionHash: Hex | null;
  frame: CallFrame;
}

/** What a node said of a block's traces: each transaction's, or its refusal (its own error). */
export type BlockTraces = { traces: TransactionTrace[] } | { refused: unknown };

/** A transaction as the block and its receipt give it, for a node without traces. */
export interface BlockTransaction {
  hash: Hex;
  index: number;
  from: Address;
  /** The receiver, or the contract it created. */
  to: Address | null;
  value: bigint;
  succeeded: boolean;
}

/** Frame types that move value from `from` to another account. */
const MOVING_FRAMES = new Set(['CALL', 'CREATE', 'CREATE2', 'SELFDESTRUCT']);
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const QUANTITY = /^0x[0-9a-fA-F]+$/;
/** Frames below this depth are not read (the EVM's own call depth limit is 1024). */
const MAX_DEPTH = 1100;

/** A callTracer frame checked and parsed, or null when it has another shape. */
export function callFrameOf(value: unknown, depth = 0): CallFrame | null {
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return null;
  const frame = value as Record<string, unknown>;
  const { type, from, to, error, calls } = frame;
  const rawValue = frame.value;
  if (typeof type !== 'string' || typeof from !== 'string' || !ADDRESS.test(from)) return null;
  if (to !== undefined && to !== null && (typeof to !== 'string' || !ADDRESS.test(to))) return null;
  if (rawValue !== undefined && rawValue !== null && (typeof rawValue !== 'string' || !QUANTITY.test(rawValue))) return null;
  if (error !== undefined && error !== null && typeof error !== 'string') return null;
  if (calls !== undefined && calls !== null && !Array.isArray(calls)) return null;
  const children: CallFrame[] = [];
  for (const call of (calls as unknown[] | undefined | null) ?? []) {
    const child = callFrameOf(call, depth + 1);
    if (!child) return null;
    children.push(child);
  }
  return {
    type: type.toUpperCase(),
    from: from.toLowerCase() as Address,
    to: typeof to === 'string' ? (to.toLowerCase() as Address) : null,
    value: typeof rawValue === 'string' ? BigInt(rawValue) : 0n,
    error: typeof error === 'string' ? error : null,
    calls: children,
  };
}

/** The native transfers of one block's traces; `block.transactions` names a trace whose node did not. */
export function nativeTransfersOfTraces(block: BlockHeader, traces: readonly TransactionTrace[]): NativeTransfer[] {
  if (traces.length !== block.transactions.length)
    throw new Error(`block ${block.number} has ${block.transactions.length} transactions and ${traces.length} traces`);
  const transfers: NativeTransfer[] = [];
  traces.forEach((trace, transactionIndex) => {
    const transactionHash = block.transactions[transactionIndex]!;
    if (trace.transactionHash !== null && trace.transactionHash.toLowerCase() !== transactionHash.toLowerCase())
      throw new Error(`block ${block.number}'s trace ${transactionIndex} is of ${trace.transactionHash}, not of ${transactionHash}`);
    const top = trace.frame;
    if (top.error !== null) return;
    const common = { blockNumber: block.number, blockHash: block.hash, blockTimestamp: block.timestamp, transactionHash, transactionIndex };
    transfers.push({ ...common, traceIndex: 0, kind: 'external', from: top.from, to: top.to ?? top.from, amount: top.value.toString() });
    // Depth first, numbering every frame (moving or not), so a frame's index is its place in the trace.
    let traceIndex = 0;
    const visit = (frame: CallFrame) => {
      for (const call of frame.calls) {
        traceIndex++;
        // A reverted frame undid everything inside it: its numbers are skipped with it.
        if (call.error !== null) {
          traceIndex += frameCount(call) - 1;
          continue;
        }
        if (MOVING_FRAMES.has(call.type) && call.value > 0n && call.to !== null)
          transfers.push({ ...common, traceIndex, kind: 'internal', from: call.from, to: call.to, amount: call.value.toString() });
        visit(call);
      }
    };
    visit(top);
  });
  return transfers;
}

function frameCount(frame: CallFrame): number {
  return 1 + frame.calls.reduce((sum, call) => sum + frameCount(call), 0);
}

/** The external transfers of one block from its transactions and their receipts (no internal ones: a node without traces cannot say). */
export function nativeTransfersOfTransactions(block: BlockHeader, transactions: readonly BlockTransaction[]): NativeTransfer[] {
  return transactions
    .filter((transaction) => transaction.succeeded)
    .map((transaction) => ({
      blockNumber: block.number,
      blockHash: block.hash,
      blockTimestamp: block.timestamp,
      transactionHash: transaction.hash,
      transactionIndex: transaction.index,
      traceIndex: 0,
      kind: 'external' as const,
      from: transaction.from,
      to: transaction.to ?? transaction.from,
      amount: transaction.value.toString(),
    }));
}

/**
 * Whether a trace call's failure says the node has no such method (geth without the debug API,
 * a provider that refuses it): then internal transfers cannot be recorded. Any other failure is
 * a failed step, tried again.
 */
export function isTracingUnsupported(error: unknown): boolean {
  for (let current = error, depth = 0; typeof current === 'object' && current !== null && depth < 8; depth++) {
    const code = (current as { code?: unknown }).code;
    if (code === -32601 || code === -32004) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return /method .*(?:not found|not supported|does not exist|is not available|unsupported)|unsupported method|method not (?:found|allowed|supported)|not whitelisted/i.test(
    errorText(error),
  );
}
