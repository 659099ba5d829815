import { getAssetTransfers } from '../../tokens/asset-transfers.ts';
import { getTokenAllowance, NotAnAllowanceError } from '../../tokens/allowance.ts';
import { getTokenBalances } from '../../tokens/balances.ts';
import type { TokenLogos } from '../../token-list/token-list.ts';
import type { TokenMetadataReader } from '../../tokens/metadata.ts';
import { MulticallError } from '../../chain/multicall-reads.ts';
import { parseTokenMetadataParams, TokenParamsError } from '../../node/rpc/methods/token-params.ts';
import { ContractReadError, type ContractReader } from '../../chain/contract-reader.ts';
import { outcomeOfReadError } from './contract-reader-over-pool.ts';
import type { TokenIndex } from '../../tokens/token-index.ts';
import type { ServedMethod } from '../../node/execute-calls.ts';
import { IndexNotReadyError } from './database-token-index.ts';
import type { RpcOutcome } from '../../node/rpc/jsonrpc.ts';
import { rpcFailure } from '../../node/rpc/errors.ts';

// The token data methods (docs/token-data.md#failures), crucible_getAssetTransfers among them, as one
// network's gateway serves them: the token core over the network's chain (its upstream pool), its
// transfer index and the token list, with the core's typed errors turned into JSON-RPC answers.

export interface NetworkTokenData {
  network: string;
  /** The network's coin, what external and internal transfers move. */
  nativeCurrency: { symbol: string; decimals: number };
  chain: ContractReader;
  /** The network's transfer index ("erc20" balances are refused while it holds nothing for the network). */
  index: TokenIndex;
  metadata: TokenMetadataReader;
  logos: TokenLogos;
}

export function tokenMethods(data: NetworkTokenData): Map<string, ServedMethod> {
  return new Map<string, ServedMethod>([
    ['crucible_getTokenBalances', (params) => answer(data.network, () => getTokenBalances(data.chain, data.index, params))],
    [
      'crucible_getTokenMetadata',
      (params) => answer(data.network, () => data.metadata.getTokenMetadata(data.network, data.chain, data.logos, parseTokenMetadataParams(params))),
    ],
    ['crucible_getAssetTransfers', (params) => answer(data.network, () => getAssetTransfers(data, params))],
    ['crucible_getTokenAllowance', (params) => answer(data.network, () => getTokenAllowance(data.chain, params))],
  ]);
}

async function answer(network: string, read: () => Promise<unknown>): Promise<RpcOutcome> {
  try {
    return { result: await read() };
  } catch (error) {
    if (error instanceof TokenParamsError) return { failure: rpcFailure('invalid_params', { detail: error.message }) };
    if (error instanceof IndexNotReadyError) return { failure: rpcFailure('index_unavailable', { network }) };
    if (error instanceof MulticallError || error instanceof NotAnAllowanceError) return { nodeError: { code: -32000, message: error.message } };
    if (error instanceof ContractReadError) return outcomeOfReadError(error, network);
    throw error;
  }
}
