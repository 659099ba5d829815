import type { Address, Hex } from 'viem';

// A transaction's execution as the upstream's callTracer gives it (with `withLog`), walked in the
// order it happened: the native value each call moves as it enters, then its logs and inner calls
// interleaved by each log's `position` (how many inner calls came before it). A call that failed
// took back everything it and its inner calls did, so it and its subtree are passed over.

export interface CallLog {
  address: Address;
  topics: Hex[];
  data: Hex;
  /** How many of the frame's inner calls ran before the log (hex or a number, by node). */
  position?: Hex | number;
}

export interface CallFrame {
  type: string;
  from: Address;
  to?: Address;
  value?: Hex;
  gas?: Hex;
  gasUsed?: Hex;
  input?: Hex;
  output?: Hex;
  error?: string;
  revertReason?: string;
  calls?: CallFrame[];
  logs?: CallLog[];
}

/** What the execution did, in order: native value moved by a call, or a log emitted. */
export type ExecutionEvent = { kind: 'value'; from: Address; to: Address; value: bigint } | { kind: 'log'; log: CallLog };

/** Calls that move their value to `to`: a DELEGATECALL or STATICCALL carries none of its own. */
const VALUE_CALLS = new Set(['CALL', 'CREATE', 'CREATE2', 'SELFDESTRUCT']);

const positionOf = (log: CallLog): number => (typeof log.position === 'number' ? log.position : Number(log.position ?? 0));

/** The value moves and logs of the frames that did not fail, in execution order. */
export function executionEvents(frame: CallFrame): ExecutionEvent[] {
  const events: ExecutionEvent[] = [];
  const walk = (call: CallFrame) => {
    if (call.error !== undefined) return;
    const value = call.value ? BigInt(call.value) : 0n;
    if (value > 0n && call.to && VALUE_CALLS.has(call.type.toUpperCase())) events.push({ kind: 'value', from: call.from, to: call.to, value });
    const inner = call.calls ?? [];
    let next = 0;
    for (const log of [...(call.logs ?? [])].sort((a, b) => positionOf(a) - positionOf(b))) {
      while (next < Math.min(positionOf(log), inner.length)) walk(inner[next++]!);
      events.push({ kind: 'log', log });
    }
    while (next < inner.length) walk(inner[next++]!);
  };
  walk(frame);
  return events;
}

/** Every frame, outermost first and depth first, failed ones included (they show what was tried). */
export function flattenFrames(frame: CallFrame): CallFrame[] {
  return [frame, ...(frame.calls ?? []).flatMap(flattenFrames)];
}

/** Whether the value is a call frame as callTracer gives one. */
export function isCallFrame(value: unknown): value is CallFrame {
  return typeof value === 'object' && value !== null && typeof (value as CallFrame).type === 'string' && typeof (value as CallFrame).from === 'string';
}

/** The failure of the transaction as a whole, from its outermost frame: the node's error and its revert reason. */
export function frameError(frame: CallFrame): { message: string; data?: Hex } | null {
  if (frame.error === undefined) return null;
  const message = frame.revertReason ? `${frame.error}: ${frame.revertReason}` : frame.error;
  return { message, ...(frame.output && frame.output !== '0x' ? { data: frame.output } : {}) };
}
