import type { RpcMethod } from './method.ts';
import { blockNumberOf } from './schemas/primitives.ts';

// Whether one answer may be kept (docs/json-rpc.md#answer-cache: chain id, lookups by hash of mined data, blocks
// deeper than the network's finality depth), by the method's cache policy. Errors are never
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

/** A found answer: not null nor an empty list (trace_transaction of an unknown hash), and if it says which block holds it, that block is set. */
function isFound(result: unknown): boolean {
  if (result === null || result === undefined) return false;
  if (Array.isArray(result)) return result.length > 0;
  if (typeof result === 'object' && !Array.isArray(result) && 'blockHash' in result) return result.blockHash !== null;
  return true;
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
      const block = params[policy.blockParam];
      // The state of a block named by hash never changes.
      if (isBlockByHash(block)) return true;
      const number = blockNumberOf(block);
      return number !== null && finality.head !== null && number <= finality.head - finality.finalityDepth;
    }
  }
}
