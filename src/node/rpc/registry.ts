import type { RpcMethod } from './method.ts';
import { accountsStateMethods } from './methods/accounts-state.ts';
import { blockMethods } from './methods/blocks.ts';
import { chainMethods } from './methods/chain.ts';
import { discoveryMethods } from './methods/discovery.ts';
import { executionMethods } from './methods/execution.ts';
import { gasFeesMethods } from './methods/gas-fees.ts';
import { logsFiltersMethods } from './methods/logs-filters.ts';
import { privateTransactionMethods } from './methods/private-transactions.ts';
import { simulationMethods } from './methods/simulation.ts';
import { subscriptionMethods } from './methods/subscriptions.ts';
import { tracingMethods } from './methods/tracing.ts';
import { transactionMethods } from './methods/transactions.ts';
import { vendorMethods } from './methods/vendor.ts';

// The one method registry (docs/json-rpc.md#method-registry): what is not in it is refused with -32601, and so is
// anything that signs with node-held keys or controls the node, whatever an upstream supports.
// Of the debug_ family only the read-only traces of the Tracing methods are served.

/** The debug_ methods served: traces that read, with built-in tracers only (methods/tracing.ts). */
const SERVED_DEBUG_METHODS = ['debug_traceTransaction', 'debug_traceCall', 'debug_traceBlockByNumber', 'debug_traceBlockByHash'] as const;

/** Refused families, for the refusal and the docs: they use node-held accounts or control the node. */
export const blockedMethodFamilies = [
  { pattern: 'eth_sendTransaction', match: 'exact', reason: 'signs with a key held by the node' },
  { pattern: 'eth_sign', match: 'prefix', reason: 'signs with a key held by the node (eth_sign, eth_signTransaction, eth_signTypedData…)' },
  { pattern: 'personal_', match: 'prefix', reason: 'manages accounts held by the node' },
  { pattern: 'admin_', match: 'prefix', reason: 'administers the node' },
  {
    pattern: 'debug_',
    match: 'prefix',
    reason: 'debugs inside the node, but for the read-only traces listed under Tracing',
    except: SERVED_DEBUG_METHODS,
  },
  { pattern: 'miner_', match: 'prefix', reason: 'controls block production' },
  { pattern: 'txpool_', match: 'prefix', reason: 'inspects the node’s mempool' },
  { pattern: 'anvil_', match: 'prefix', reason: 'controls a development node' },
  { pattern: 'hardhat_', match: 'prefix', reason: 'controls a development node' },
  { pattern: 'evm_', match: 'prefix', reason: 'controls a development node' },
  { pattern: 'engine_', match: 'prefix', reason: 'is the consensus client’s API' },
] as const satisfies readonly BlockedFamily[];

interface BlockedFamily {
  pattern: string;
  match: 'exact' | 'prefix';
  reason: string;
  /** Members of the family that are served all the same. */
  except?: readonly string[];
}

/** Whether a method belongs to a refused family (it is refused even if a registry lists it). */
export function isBlockedMethod(name: string): boolean {
  return blockedMethodFamilies.some((family: BlockedFamily) => {
    if (family.except?.includes(name)) return false;
    return family.match === 'exact' ? name === family.pattern : name.startsWith(family.pattern);
  });
}

/** Vendor methods are crucible_<x>; the incumbent's alchemy_<x> names the same method (docs/json-rpc.md#vendor-methods). */
export const VENDOR_PREFIX = 'crucible_';
export const VENDOR_ALIAS_PREFIX = 'alchemy_';

export interface RpcRegistry {
  /** In the docs' order within each family file. */
  readonly methods: readonly RpcMethod[];
  /** A method's `aliases` and alchemy_<x> → crucible_<x> when crucible_<x> is registered; any other name unchanged. */
  resolveName(name: string): string;
  /** The method a name (or its alias) calls, unless unknown or blocked. */
  find(name: string): RpcMethod | undefined;
}

export function createRpcRegistry(methods: readonly RpcMethod[]): RpcRegistry {
  const byName = new Map<string, RpcMethod>();
  /** A method's other names (`aliases`) → its name. */
  const aliased = new Map<string, string>();
  for (const method of methods) {
    if (byName.has(method.name)) throw new Error(`RPC method registered twice: ${method.name}`);
    if (isBlockedMethod(method.name)) throw new Error(`RPC method ${method.name} is in a blocked family`);
    byName.set(method.name, method);
    for (const alias of method.aliases ?? []) aliased.set(alias, method.name);
  }
  for (const alias of aliased.keys()) if (byName.has(alias)) throw new Error(`RPC method ${alias} is also another method's alias`);
  const resolveName = (name: string): string => {
    const named = aliased.get(name);
    if (named !== undefined) return named;
    if (!name.startsWith(VENDOR_ALIAS_PREFIX)) return name;
    const vendorName = VENDOR_PREFIX + name.slice(VENDOR_ALIAS_PREFIX.length);
    return byName.has(vendorName) ? vendorName : name;
  };
  return {
    methods,
    resolveName,
    find: (name) => (isBlockedMethod(name) ? undefined : byName.get(resolveName(name))),
  };
}

export const rpcRegistry = createRpcRegistry([
  ...chainMethods,
  ...blockMethods,
  ...transactionMethods,
  ...privateTransactionMethods,
  ...accountsStateMethods,
  ...executionMethods,
  ...gasFeesMethods,
  ...logsFiltersMethods,
  ...subscriptionMethods,
  ...tracingMethods,
  ...simulationMethods,
  ...vendorMethods,
  ...discoveryMethods,
]);

/** The registered method a name calls (aliases resolved), or undefined for unknown and blocked names. */
export function findRpcMethod(name: string): RpcMethod | undefined {
  return rpcRegistry.find(name);
}

/** alchemy_<x> → crucible_<x> when crucible_<x> is registered; any other name unchanged. */
export function resolveMethodName(name: string): string {
  return rpcRegistry.resolveName(name);
}

/**
 * The cheapest paid method's compute units (10): what a JSON-RPC message, or an MCP message, is
 * charged at least unless NODE_MIN_REQUEST_COMPUTE_UNITS says otherwise (docs/keys-and-limits.md#compute-units).
 */
export const CHEAPEST_PAID_COMPUTE_UNITS = Math.min(...rpcRegistry.methods.map((method) => method.computeUnits).filter((units) => units > 0));
