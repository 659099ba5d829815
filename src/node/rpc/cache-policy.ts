import type { RpcMethod } from './method.ts';
import { blockNumberOf } from './schemas/primitives.ts';

// Whether one answer may be kept (platform §3: chain id, lookups by hash of mined data, blocks
// deeper than the network's finality depth, traces of them), by the method's cache policy. Errors are never
// kept; the gateway asks only about results.

export interface FinalityView {
  /** The head the gateway tracks for the network, or null before it knows one. */
  head: bigint | null;
  /** Blocks below the head after which a block is treated as final on this network. */
  finalityDepth: bigint;
}

/** A block named by hash (bare, or EIP-1898 without requireCanonical, which a reorganisation can change). */
function isBlockByHash(block: unknown): boolean {
  if (typeof block === 'string') return /^0x[0-9a-fA-F]{64}$/.test(block);
  return typeof block === 'object' && block !== null && 'blockHash' in block && !('requireCanonical' in block && block.requireCanonical === true);
}

/** A found answer: not null, and if it says which block holds it, that block is set. */
function isFound(result: unknown): boolean {
  if (result === null || result === undefined) return false;
  if (typeof result === 'object' && !Array.isArray(result) && 'blockHash' in result) return result.blockHash !== null;
  return true;
}

/** The block a `when-final` policy names: params[blockParam], or its `field` when that param is an object. */
export function policyBlock(policy: { blockParam: number; field?: string }, params: readonly unknown[]): unknown {
  const param = params[policy.blockParam];
  if (policy.field === undefined) return param;
  return typeof param === 'object' && param !== null ? (param as Record<string, unknown>)[policy.field] : undefined;
}

/** Whether `number` is at least the finality depth below the head the gateway knows. */
function isFinal(number: bigint | null, finality: FinalityView): boolean {
  return number !== null && finality.head !== null && number <= finality.head - finality.finalityDepth;
}

/** A list whose items all name a final block by number (trace_transaction's traces): a block read by hash could still be reorganised away, its number not. */
function isFinalAnswer(result: unknown, finality: FinalityView): boolean {
  if (!Array.isArray(result) || result.length === 0) return false;
  return result.every((item) => {
    const number = typeof item === 'object' && item !== null ? (item as { blockNumber?: unknown }).blockNumber : undefined;
    if (typeof number === 'number' && Number.isSafeInteger(number)) return isFinal(BigInt(number), finality);
    return typeof number === 'string' && isFinal(blockNumberOf(number), finality);
  });
}

/** Whether the gateway may keep `result` of a validated call of `method` with (normalized) `params`. */
export function mayCacheAnswer(method: RpcMethod, params: readonly unknown[], result: unknown, finality: FinalityView): boolean {
  const policy = method.cache;
  switch (policy.kind) {
    case 'none':
      return false;
    case 'forever':
      return result !== null && result !== undefined;
    case 'when-found':
      return isFound(result);
    case 'when-final': {
      if (result === null || result === undefined) return false;
      const block = policyBlock(policy, params);
      // The state of a block named by hash never changes.
      if (isBlockByHash(block)) return true;
      return isFinal(blockNumberOf(block), finality);
    }
    case 'when-answer-final':
      return isFinalAnswer(result, finality);
  }
}
