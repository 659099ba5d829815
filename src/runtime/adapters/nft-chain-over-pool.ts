import { numberToHex, type Hex } from 'viem';
import type { NftChain } from '../../nfts/contracts/chain.ts';
import { ContractReadError } from '../../chain/contract-reader.ts';
import { chainOverPool, poolRequest } from './contract-reader-over-pool.ts';
import type { UpstreamPool } from '../../node/upstreams/upstream-pool.ts';

// The chain the NFT contract reader reads (src/nfts/contracts/chain.ts) over a network's upstream
// pool: the token core's reads as chainOverPool makes them, and the block, receipt and trace calls
// that find a contract's creation, each answer returned as the node gave it.

export function nftChainOverPool(pool: UpstreamPool): NftChain {
  const request = (method: string, params: unknown[]) => poolRequest(pool, method, params);
  return {
    ...chainOverPool(pool),
    genesisHash: async () => {
      const block = await request('eth_getBlockByNumber', ['0x0', false]);
      const hash = (block as { hash?: unknown } | null)?.hash;
      if (typeof hash !== 'string') throw new ContractReadError({ kind: 'unavailable', reason: 'the upstream gave no block 0' });
      return hash as Hex;
    },
    blockReceipts: (blockNumber) => request('eth_getBlockReceipts', [numberToHex(blockNumber)]),
    callTracesOfBlock: (blockNumber) => request('debug_traceBlockByNumber', [numberToHex(blockNumber), { tracer: 'callTracer' }]),
    parityTracesOfBlock: (blockNumber) => request('trace_block', [numberToHex(blockNumber)]),
    contractCreator: (address) => request('ots_getContractCreator', [address]),
    transaction: (hash) => request('eth_getTransactionByHash', [hash]),
  };
}
