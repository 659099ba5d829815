import { numberToHex } from 'viem';
import { ContractReadError } from '../chain/contract-reader.ts';
import { type AssetChanges, type AssetFacts, assetChangesOf, type TransferDecoder } from './asset-changes.ts';
import { isPrestateDiff, type StateOverride, withChanges } from './bundle-state.ts';
import { type CallFrame, isCallFrame } from './call-frames.ts';
import { type Execution, executionOf } from './execution.ts';

// The simulation methods (docs/tracing-and-simulation.md#simulation) over one network's upstream: each transaction is run with
// debug_traceCall at the block the caller named, never sent, and read from its call frames. In a
// bundle the block is pinned to a number first (so every transaction runs on the same block while
// the chain moves on), and each transaction but the last is traced a second time with the
// prestateTracer in diff mode, whose changes the next ones run on (bundle-state.ts).

/** The network's node, as the simulations call it. */
interface SimulationNode {
  /** debug_traceCall with the trace deadline; throws ContractReadError (the node's error, or none answered). */
  traceCall(transaction: object, block: unknown, options: object): Promise<unknown>;
  /** The head's number, to pin a bundle's `latest`; throws ContractReadError. */
  blockNumber(): Promise<bigint>;
}

export interface SimulationNetwork {
  node: SimulationNode;
  decodeTransfers: TransferDecoder;
  facts: AssetFacts;
}

const CALL_TRACER = { tracer: 'callTracer', tracerConfig: { withLog: true } };
const DIFF_TRACER = { tracer: 'prestateTracer', tracerConfig: { diffMode: true } };

/** The node answered something that is not what the tracer gives. */
function unexpected(what: string): ContractReadError {
  return new ContractReadError({ kind: 'unavailable', reason: `the upstream's debug_traceCall answered something other than ${what}` });
}

async function traceFrame(node: SimulationNode, transaction: object, block: unknown, override: StateOverride): Promise<CallFrame> {
  const frame = await node.traceCall(transaction, block, withOverride(CALL_TRACER, override));
  if (!isCallFrame(frame)) throw unexpected('a call frame');
  return frame;
}

const withOverride = (options: object, override: StateOverride) => (Object.keys(override).length ? { ...options, stateOverrides: override } : options);

/** Each transaction's call frames, in order, each run on the changes of those before it. */
async function traceBundle(node: SimulationNode, transactions: readonly object[], block: unknown): Promise<CallFrame[]> {
  const pinned = block === 'latest' ? numberToHex(await node.blockNumber()) : block;
  const frames: CallFrame[] = [];
  let override: StateOverride = {};
  for (const [i, transaction] of transactions.entries()) {
    const last = i === transactions.length - 1;
    const [frame, diff] = await Promise.all([
      traceFrame(node, transaction, pinned, override),
      last ? null : node.traceCall(transaction, pinned, withOverride(DIFF_TRACER, override)),
    ]);
    frames.push(frame);
    if (last) break;
    if (!isPrestateDiff(diff)) throw unexpected('a prestate diff');
    override = withChanges(override, diff);
  }
  return frames;
}

/** The four methods, by the registry's names, each over validated params ([transaction(s), blockTag]). */
export function simulationMethods(network: SimulationNetwork) {
  const { node, decodeTransfers, facts } = network;
  const changes = (frame: CallFrame): Promise<AssetChanges> => assetChangesOf(frame, decodeTransfers, facts);
  return {
    crucible_simulateAssetChanges: async ([transaction, block]: readonly unknown[]): Promise<AssetChanges> =>
      changes(await traceFrame(node, transaction as object, block, {})),
    crucible_simulateAssetChangesBundle: async ([transactions, block]: readonly unknown[]): Promise<AssetChanges[]> =>
      Promise.all((await traceBundle(node, transactions as object[], block)).map(changes)),
    crucible_simulateExecution: async ([transaction, block]: readonly unknown[]): Promise<Execution> =>
      executionOf(await traceFrame(node, transaction as object, block, {})),
    crucible_simulateExecutionBundle: async ([transactions, block]: readonly unknown[]): Promise<Execution[]> =>
      (await traceBundle(node, transactions as object[], block)).map(executionOf),
  };
}
