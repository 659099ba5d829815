import type { Address, Hex } from 'viem';
import type { ContractReader } from '../../chain/contract-reader.ts';

// What the contract reader asks of a network's chain (docs/nft-data.md#contract-facts): the token core's reads (calls
// at a block through Multicall3, code at a block), and the few calls that find where a contract was
// created. Node answers are returned as given (`unknown`) and checked by the pure readers in
// creation.ts, since nodes differ in what they support and how they spell it.

/** One network's chain. Every method throws ContractReadError when the node fails or does not support the call. */
export interface NftChain extends ContractReader {
  /** Block 0's hash: the chain's identity (a reset devnet has another). */
  genesisHash(): Promise<Hex>;
  /** eth_getBlockReceipts: every receipt of the block. */
  blockReceipts(blockNumber: bigint): Promise<unknown>;
  /** debug_traceBlockByNumber with the callTracer: every transaction's call frames (geth, reth, anvil). */
  callTracesOfBlock(blockNumber: bigint): Promise<unknown>;
  /** trace_block: every transaction's traces, parity style (erigon, nethermind, reth, anvil). */
  parityTracesOfBlock(blockNumber: bigint): Promise<unknown>;
  /** ots_getContractCreator (Otterscan's API: erigon, anvil): the creating transaction's hash, from the node's own traces. */
  contractCreator(address: Address): Promise<unknown>;
  /** eth_getTransactionByHash. */
  transaction(hash: Hex): Promise<unknown>;
}
