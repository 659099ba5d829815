import { LRUCache } from 'lru-cache';
import { ContractReadError } from '../../chain/contract-reader.ts';
import type { ServedMethod } from '../../node/execute-calls.ts';
import type { RpcOutcome } from '../../node/rpc/jsonrpc.ts';
import type { JsonValue } from '../../node/rpc/method.ts';
import { blockNumberOf } from '../../node/rpc/schemas/primitives.ts';
import type { UpstreamPool } from '../../node/upstreams/upstream-pool.ts';
import { outcomeOfReadError, poolRequest } from './contract-reader-over-pool.ts';

// eth_getCode on a local devnet at any block (docs/json-rpc.md#contract-code-at-old-blocks). Anvil
// keeps the state of its last few hundred blocks, and none from before its last start, so
// alchemy-sdk's findContractDeployer (a binary search over eth_getCode at past blocks) would stop at
// anvil's `BlockOutOfRangeError`. Where anvil refuses, the answer comes from the contract's creation
// (anvil's `ots_getContractCreator`, which reads the blocks and traces it does keep): no code before
// its creation block, its present code from then on. A devnet runs by Cancun's rules from its first
// block, so a created contract's code never changes; an address without a creator (code set
// directly, an EIP-7702 delegation) keeps anvil's refusal.

/** Contracts whose creation block is remembered (an address and a number each). */
const REMEMBERED_CREATIONS = 10_000;

export function devnetGetCode(network: string, pool: UpstreamPool): ServedMethod {
  // A creation never moves; an address not created yet may be later, so only found ones are kept.
  const creations = new LRUCache<string, bigint>({ max: REMEMBERED_CREATIONS });

  const read = async (method: string, params: unknown[]): Promise<unknown> => poolRequest(pool, method, params);

  /** The block the contract was created in, or null when it was not (or anvil cannot say). */
  const creationBlock = async (address: string): Promise<bigint | null> => {
    const known = creations.get(address);
    if (known !== undefined) return known;
    const creator = (await read('ots_getContractCreator', [address]).catch(() => null)) as { hash?: string } | null;
    const receipt = creator?.hash ? ((await read('eth_getTransactionReceipt', [creator.hash])) as { blockNumber?: string } | null) : null;
    if (!receipt?.blockNumber) return null;
    const block = BigInt(receipt.blockNumber);
    creations.set(address, block);
    return block;
  };

  /** The number of the block a (normalized) block param names, asking for a hash's header. */
  const numberOf = async (block: unknown): Promise<bigint | null> => {
    const number = blockNumberOf(block);
    if (number !== null) return number;
    const hash = typeof block === 'string' ? block : typeof block === 'object' && block !== null && 'blockHash' in block ? block.blockHash : null;
    if (typeof hash !== 'string') return null;
    const header = (await read('eth_getBlockByHash', [hash, false])) as { number?: string } | null;
    return header?.number ? BigInt(header.number) : null;
  };

  /** The code anvil gives, or where it refuses the block, the code the contract's creation says. */
  const codeAt = async (address: string, block: unknown): Promise<unknown> => {
    try {
      return await read('eth_getCode', [address, block]);
    } catch (error) {
      if (!isPrunedState(error)) throw error;
      const [number, created] = await Promise.all([numberOf(block), creationBlock(address.toLowerCase())]);
      if (number === null || created === null) throw error;
      return number < created ? '0x' : read('eth_getCode', [address, 'latest']);
    }
  };

  return async (params): Promise<RpcOutcome> => {
    const [address, block] = params as [string, unknown];
    try {
      return { result: (await codeAt(address, block)) as JsonValue };
    } catch (error) {
      if (!(error instanceof ContractReadError)) throw error;
      return outcomeOfReadError(error, network);
    }
  };
}

/** Anvil's refusal of a block whose state it no longer holds. */
function isPrunedState(error: unknown): boolean {
  return error instanceof ContractReadError && error.failure.kind === 'node-error' && error.failure.message.startsWith('BlockOutOfRangeError');
}
