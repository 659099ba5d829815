import { hexToBigInt, numberToHex, type Address, type Hex } from 'viem';
import { ContractReadError, type ContractReader } from '../../chain/contract-reader.ts';
import { NoHealthyUpstreamError, type RetryRule, type UpstreamPool } from '../../node/upstreams/upstream-pool.ts';
import type { RpcOutcome } from '../../node/rpc/jsonrpc.ts';
import type { JsonValue } from '../../node/rpc/method.ts';
import { rpcFailure } from '../../node/rpc/errors.ts';

// A network's chain as the data products read it: plain JSON-RPC reads through the network's
// upstream pool (health, failover of idempotent reads), each at the block the product chose.

export function chainOverPool(pool: UpstreamPool): ContractReader {
  const read = async <T>(method: string, params: unknown[]): Promise<T> => {
    const result = await poolRequest(pool, method, params);
    if (typeof result !== 'string') throw new ContractReadError({ kind: 'unavailable', reason: `the upstream gave no result to ${method}` });
    return result as T;
  };
  const at = (blockNumber: bigint) => numberToHex(blockNumber);
  return {
    blockNumber: async () => hexToBigInt(await read<Hex>('eth_blockNumber', [])),
    call: (request, blockNumber) => read<Hex>('eth_call', [request, at(blockNumber)]),
    getBalance: async (address: Address, blockNumber) => hexToBigInt(await read<Hex>('eth_getBalance', [address, at(blockNumber)])),
    getCode: (address: Address, blockNumber) => read<Hex>('eth_getCode', [address, at(blockNumber)]),
  };
}

/**
 * One JSON-RPC call through the pool (idempotent reads may go to a second upstream): its result as the
 * node gave it, or ContractReadError. `timeoutMs` replaces the pool's deadline (a trace's); `retry`
 * replaces the retry of a read (a broadcast's).
 */
export async function poolRequest(
  pool: UpstreamPool,
  method: string,
  params: unknown[],
  options?: { timeoutMs?: number; retry?: RetryRule },
): Promise<unknown> {
  let text: string;
  try {
    text = await pool.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), options?.retry ?? { kind: 'idempotent' }, options);
  } catch (error) {
    if (error instanceof NoHealthyUpstreamError) throw new ContractReadError({ kind: 'unavailable', reason: error.message });
    throw error;
  }
  let answer: { result?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown } };
  try {
    answer = JSON.parse(text);
  } catch {
    throw new ContractReadError({ kind: 'unavailable', reason: `the upstream answered ${method} with something other than JSON` });
  }
  if (answer.error) {
    const { code, message, data } = answer.error;
    throw new ContractReadError({ kind: 'node-error', code: typeof code === 'number' ? code : -32603, message: String(message ?? 'error'), data });
  }
  if (!('result' in answer)) throw new ContractReadError({ kind: 'unavailable', reason: `the upstream gave no result to ${method}` });
  return answer.result;
}

/** A failed chain read as the gateway answers it: the node's error relayed, or no healthy upstream. */
export function outcomeOfReadError(error: ContractReadError, network: string): RpcOutcome {
  const { failure } = error;
  if (failure.kind === 'unavailable') return { failure: rpcFailure('no_healthy_upstream', { network }) };
  return { nodeError: { code: failure.code, message: failure.message, ...(failure.data === undefined ? {} : { data: failure.data as JsonValue }) } };
}
