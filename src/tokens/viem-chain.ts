import { BaseError, numberToHex, RpcRequestError, type Address, type Client, type Hex } from 'viem';
import { ContractReadError, type ContractReader } from '../chain/contract-reader.ts';

// A ContractReader over a viem client talking to one node: for scripts, tests and benchmarks that read
// a node directly (the gateway implements the port over its upstream pool). Raw JSON-RPC requests, so
// each port call is exactly one request; node errors become ContractReadError.

export function viemTokenChain(client: Client): ContractReader {
  const request = async <T>(method: string, params: unknown[]): Promise<T> => {
    try {
      return (await client.request({ method, params } as never)) as T;
    } catch (error) {
      throw toTokenChainError(error);
    }
  };
  return {
    blockNumber: async () => BigInt(await request<Hex>('eth_blockNumber', [])),
    call: (call, blockNumber) => request<Hex>('eth_call', [call, numberToHex(blockNumber)]),
    getBalance: async (address: Address, blockNumber) => BigInt(await request<Hex>('eth_getBalance', [address, numberToHex(blockNumber)])),
    getCode: (address: Address, blockNumber) => request<Hex>('eth_getCode', [address, numberToHex(blockNumber)]),
  };
}

/** The node's own error when it answered one, else the node is unavailable. */
function toTokenChainError(error: unknown): ContractReadError {
  const answered = error instanceof BaseError ? error.walk((cause) => cause instanceof RpcRequestError) : null;
  if (answered instanceof RpcRequestError) {
    const { code, data } = answered;
    return new ContractReadError({ kind: 'node-error', code, message: answered.details, ...(data !== undefined && { data }) });
  }
  return new ContractReadError({ kind: 'unavailable', reason: error instanceof BaseError ? error.shortMessage : String(error) });
}
