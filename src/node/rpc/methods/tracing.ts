import { z } from 'zod';
import { traceFilterRange, MAX_TRACE_FILTER_BLOCK_RANGE } from '../block-range.ts';
import { defineRpcMethod, type RpcParam } from '../method.ts';
import { Hash32 } from '../schemas/primitives.ts';
import { TransactionCall } from '../schemas/requests.ts';
import { durationMs, TraceCallOptions, TraceFilter, TracerOptions, TraceTypes } from '../schemas/tracing.ts';
import { blockHashParam, blockNumberParam, stateBlockParam, transactionHashParam } from './params.ts';

// The read-only traces (docs/tracing-and-simulation.md#tracing-methods), passed through to upstreams that offer them (geth, reth,
// erigon, anvil): debug_trace* with the built-in callTracer and prestateTracer only, and the
// parity-style trace_block, trace_transaction, trace_call and trace_filter. They are the only
// debug_* and trace_* methods served (registry.ts). Each replays execution in the node, so each has
// the trace deadline (NODE_UPSTREAM_TRACE_TIMEOUT_MS) and goes upstream on its own, never in a batch
// with reads; a tracer's own `timeout` is cut to that deadline. Costs follow the incumbent's table.

const tracerParam: RpcParam = {
  name: 'options',
  required: true,
  schema: TracerOptions,
  description:
    'The tracer: {"tracer": "callTracer"} (call frames; tracerConfig {"onlyTopCall", "withLog"}) or {"tracer": "prestateTracer"} (tracerConfig {"diffMode"}).',
};

/** The params with a tracer `timeout` at `index` no longer than the deadline: the node stops when the gateway stops waiting. */
function boundTracerTimeout(index: number) {
  return (params: readonly unknown[], context: { deadlineMs: number }): unknown[] => {
    const options = params[index] as { timeout?: string } | undefined;
    if (options?.timeout === undefined || durationMs(options.timeout) <= context.deadlineMs) return [...params];
    const bounded = [...params];
    bounded[index] = { ...options, timeout: `${context.deadlineMs}ms` };
    return bounded;
  };
}

/** A call frame as geth's callTracer gives it: type, from, to, value, gas, gasUsed, input, output, error, calls. */
const CallFrame = z
  .looseObject({ type: z.string(), from: z.string(), to: z.string().optional(), calls: z.array(z.unknown()).optional() })
  .meta({ title: 'call frame' });
const Trace = z.union([CallFrame, z.record(z.string(), z.unknown()).meta({ title: 'prestate' })]).meta({ title: 'call frame or prestate' });
const BlockTraces = z.array(z.object({ txHash: Hash32.optional(), result: Trace })).meta({ title: 'list of transaction traces' });
const ParityTraces = z.array(z.looseObject({ action: z.record(z.string(), z.unknown()), type: z.string() })).meta({ title: 'list of parity traces' });

const traceShape = {
  category: 'Tracing' as const,
  upstreamDeadline: 'trace' as const,
};

export const tracingMethods = [
  defineRpcMethod({
    ...traceShape,
    name: 'debug_traceTransaction',
    summary: 'Replays a mined transaction and returns its trace.',
    description:
      'The node re-executes the transaction at its place in its block. With callTracer the answer is the call frames (type, from, to, value, gas, gasUsed, input, output, error, calls); with prestateTracer the accounts it touched as they were before (with diffMode, before and after). Only these two built-in tracers are served: a JavaScript tracer or no tracer is refused with -32602 before any node is asked.',
    params: [transactionHashParam, tracerParam],
    result: { name: 'trace', description: 'The call frames or the prestate.', schema: Trace },
    computeUnits: 309,
    cache: { kind: 'when-found' },
    upstreamParams: boundTracerTimeout(1),
  }),
  defineRpcMethod({
    ...traceShape,
    name: 'debug_traceCall',
    summary: 'Runs a call against the state of a block and returns its trace, without sending a transaction.',
    description:
      'Like eth_call, traced: the call frames (callTracer) or the accounts it touches (prestateTracer). The options may also carry stateOverrides and blockOverrides. Nothing is signed or broadcast.',
    params: [
      {
        name: 'transaction',
        required: true,
        schema: TransactionCall,
        description: 'The call to trace: to, data, and optionally from, value, gas and fee fields.',
      },
      { ...stateBlockParam, required: true, default: undefined, description: 'The block whose state the call runs on: a tag, a hex number or a block hash.' },
      { ...tracerParam, schema: TraceCallOptions },
    ],
    result: { name: 'trace', description: 'The call frames or the prestate.', schema: Trace },
    computeUnits: 309,
    cache: { kind: 'when-final', blockParam: 1 },
    upstreamParams: boundTracerTimeout(2),
  }),
  defineRpcMethod({
    ...traceShape,
    name: 'debug_traceBlockByNumber',
    summary: 'Replays every transaction of a block and returns their traces.',
    description: 'One entry per transaction, in block order: { txHash, result } with result as debug_traceTransaction gives it.',
    params: [blockNumberParam, tracerParam],
    result: { name: 'traces', description: 'The traces of the block’s transactions, in order.', schema: BlockTraces },
    computeUnits: 497,
    cache: { kind: 'when-final', blockParam: 0 },
    upstreamParams: boundTracerTimeout(1),
  }),
  defineRpcMethod({
    ...traceShape,
    name: 'debug_traceBlockByHash',
    summary: 'Replays every transaction of a block named by hash and returns their traces.',
    description: 'As debug_traceBlockByNumber, for the block with this hash.',
    params: [blockHashParam, tracerParam],
    result: { name: 'traces', description: 'The traces of the block’s transactions, in order.', schema: BlockTraces },
    computeUnits: 497,
    cache: { kind: 'when-final', blockParam: 0 },
    upstreamParams: boundTracerTimeout(1),
  }),
  defineRpcMethod({
    ...traceShape,
    name: 'trace_block',
    summary: 'Returns the parity-style traces of every call in a block.',
    description: 'Each trace names its action (call, create, suicide, reward), result, traceAddress, subtraces, transactionHash and block.',
    params: [blockNumberParam],
    result: { name: 'traces', description: 'The block’s traces.', schema: ParityTraces },
    computeUnits: 24,
    cache: { kind: 'when-final', blockParam: 0 },
  }),
  defineRpcMethod({
    ...traceShape,
    name: 'trace_transaction',
    summary: 'Returns the parity-style traces of every call in a mined transaction.',
    description: 'As trace_block, for one transaction. An unknown hash answers an empty list or null, as the node gives it.',
    params: [transactionHashParam],
    result: { name: 'traces', description: 'The transaction’s traces.', schema: ParityTraces },
    computeUnits: 26,
    cache: { kind: 'when-found' },
  }),
  defineRpcMethod({
    ...traceShape,
    name: 'trace_call',
    summary: 'Runs a call against the state of a block and returns its parity-style traces.',
    description: 'The call is not sent. "trace" gives the calls it makes, "stateDiff" what it would change; "vmTrace" (an opcode trace) is refused.',
    params: [
      { name: 'transaction', required: true, schema: TransactionCall, description: 'The call to trace.' },
      { name: 'traceTypes', required: true, schema: TraceTypes, description: 'Which traces: "trace", "stateDiff" or both.' },
      stateBlockParam,
    ],
    result: {
      name: 'traces',
      description: '{ output, trace, stateDiff, vmTrace: null }.',
      schema: z.looseObject({ output: z.string() }).meta({ title: 'call traces' }),
    },
    computeUnits: 75,
    cache: { kind: 'when-final', blockParam: 2 },
  }),
  defineRpcMethod({
    ...traceShape,
    name: 'trace_filter',
    summary: 'Returns the parity-style traces of a range of blocks, filtered by caller and callee.',
    description: `fromBlock is required and the range spans at most ${MAX_TRACE_FILTER_BLOCK_RANGE.toLocaleString('en-US')} blocks, tags counted from the chain’s head as for eth_getLogs; a wider or unbounded range is refused with -32602 before any node is asked. The node gets the range as block numbers.`,
    params: [{ name: 'filter', required: true, schema: TraceFilter, description: 'fromBlock, toBlock, fromAddress, toAddress, after, count.' }],
    result: { name: 'traces', description: 'The matching traces, oldest first.', schema: ParityTraces },
    computeUnits: 75,
    blockRange: traceFilterRange,
  }),
];
