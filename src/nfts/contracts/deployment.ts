import type { Address } from 'viem';
import { ContractReadError } from '../../chain/contract-reader.ts';
import type { NftChain } from './chain.ts';
import { creationFromOtterscan, creatorFromCallTraces, creatorFromParityTraces, creatorFromReceipts, minedSender } from './creation.ts';

// Where and by whom a contract was deployed, found on chain (docs/nft-data.md#contract-facts): the first block with code
// at the address (a binary search of eth_getCode by block, which needs archive state), then the
// transaction in that block that created it (receipts, else the callTracer, else parity traces).
// A node that keeps no old state may still know the creation from its own traces (Otterscan's
// ots_getContractCreator: erigon, and anvil, whose devnets keep few past states). What the node
// cannot answer stays unknown: null, never a guess.

export interface Deployment {
  /** The first block with code at the address; null when the node could not say. */
  blockNumber: number | null;
  /** The sender of the creating transaction; null for code present at genesis or when not found. */
  deployer: Address | null;
  /** Both facts are settled (they never change): found, or code at genesis, which no transaction created. */
  settled: boolean;
}

/** Finds the deployment of `contract`, which has code at `head`. Throws ContractReadError only when no node answered. */
export async function findDeployment(chain: NftChain, contract: Address, head: bigint): Promise<Deployment> {
  const block = await firstBlockWithCode(chain, contract, head);
  if (block === 0n) return { blockNumber: 0, deployer: null, settled: true };
  const deployer = block === null ? null : await creatorIn(chain, contract, block);
  if (deployer) return { blockNumber: Number(block), deployer, settled: true };
  const created = await createdByNodeIndex(chain, contract);
  if (created && (block === null || created.blockNumber === Number(block))) return { blockNumber: created.blockNumber, deployer: created.from, settled: true };
  return { blockNumber: block === null ? null : Number(block), deployer: null, settled: false };
}

/** The lowest block with code, by halving [0, head]; null when the node refuses an old block's state. */
async function firstBlockWithCode(chain: NftChain, contract: Address, head: bigint): Promise<bigint | null> {
  const hasCode = async (block: bigint) => (await chain.getCode(contract, block)) !== '0x';
  return whenSupported(async () => {
    if (await hasCode(0n)) return 0n;
    // Invariant: no code at `low`, code at `high`.
    let low = 0n;
    let high = head;
    while (high - low > 1n) {
      const middle = (low + high) / 2n;
      if (await hasCode(middle)) high = middle;
      else low = middle;
    }
    return high;
  });
}

/** The creating transaction's sender, by the first way the node supports that names one. */
async function creatorIn(chain: NftChain, contract: Address, block: bigint): Promise<Address | null> {
  const ways = [
    async () => creatorFromReceipts(await chain.blockReceipts(block), contract),
    async () => creatorFromCallTraces(await chain.callTracesOfBlock(block), contract),
    async () => creatorFromParityTraces(await chain.parityTracesOfBlock(block), contract),
  ];
  for (const way of ways) {
    const creator = await whenSupported(way);
    if (creator) return creator;
  }
  return null;
}

async function createdByNodeIndex(chain: NftChain, contract: Address): Promise<{ from: Address; blockNumber: number } | null> {
  return whenSupported(async () => {
    const hash = creationFromOtterscan(await chain.contractCreator(contract));
    return hash ? minedSender(await chain.transaction(hash)) : null;
  });
}

/**
 * The answer, or null when the node answered with an error (an unknown method, state it does not
 * keep): that way says nothing. No answer at all (no node reachable) is thrown on.
 */
async function whenSupported<T>(read: () => Promise<T | null>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ContractReadError && error.failure.kind === 'node-error') return null;
    throw error;
  }
}
