import type { Address } from 'viem';
import { ContractReadError, type ContractReader } from '../../chain/contract-reader.ts';
import { decodeTransferLogs } from '../../indexer/decode-logs.ts';
import type { ServedMethod } from '../../node/execute-calls.ts';
import { rpcFailure } from '../../node/rpc/errors.ts';
import type { RpcOutcome } from '../../node/rpc/jsonrpc.ts';
import type { JsonValue } from '../../node/rpc/method.ts';
import type { UpstreamPool } from '../../node/upstreams/upstream-pool.ts';
import type { TokenFacts } from '../../simulation/asset-changes.ts';
import { erc1155ByInterface } from '../../simulation/nft-standard.ts';
import { simulationMethods as simulate } from '../../simulation/simulate.ts';
import { poolRequest } from './contract-reader-over-pool.ts';

// The simulation methods (docs/tracing-and-simulation.md#simulation) as one network's gateway serves them: the simulation core
// over the network's upstream pool (debug_traceCall with the trace deadline), the transfer index's
// log decoder, and the token metadata cache for the tokens' facts; the core's failures as JSON-RPC answers.

export interface NetworkSimulation {
  network: string;
  pool: UpstreamPool;
  chain: ContractReader;
  traceTimeoutMs: number;
  /** A token contract's metadata through the token product's cache. */
  tokenMetadata(contract: Address): Promise<TokenFacts>;
  native: TokenFacts & { decimals: number };
}

const NO_FACTS: TokenFacts = { name: null, symbol: null, decimals: null, logo: null };

export function simulationMethods(data: NetworkSimulation): Map<string, ServedMethod> {
  const methods = simulate({
    node: {
      // The node may trace as long as the gateway waits (geth's own default is 5 s).
      traceCall: (transaction, block, options) =>
        poolRequest(data.pool, 'debug_traceCall', [transaction, block, { ...options, timeout: `${data.traceTimeoutMs}ms` }], {
          timeoutMs: data.traceTimeoutMs,
        }),
      blockNumber: () => data.chain.blockNumber(),
    },
    decodeTransfers: decodeTransferLogs,
    facts: {
      native: data.native,
      // A token whose metadata cannot be read still moved: its change is listed without its facts.
      token: (contract) => data.tokenMetadata(contract).catch(() => NO_FACTS),
      isErc1155: erc1155ByInterface(data.chain),
    },
  });
  return new Map(Object.entries(methods).map(([name, run]) => [name, (params) => answer(data.network, () => run(params))]));
}

async function answer(network: string, run: () => Promise<unknown>): Promise<RpcOutcome> {
  try {
    return { result: await run() };
  } catch (error) {
    if (!(error instanceof ContractReadError)) throw error;
    const { failure } = error;
    if (failure.kind === 'unavailable') return { failure: rpcFailure('no_healthy_upstream', { network }) };
    return { nodeError: { code: failure.code, message: failure.message, ...(failure.data === undefined ? {} : { data: failure.data as JsonValue }) } };
  }
}
