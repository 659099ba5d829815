import { decodeFunctionResult, encodeFunctionData, multicall3Abi, type Address, type Hex } from 'viem';
import { MULTICALL3_ADDRESS } from './multicall3.ts';
import type { ContractReader } from './contract-reader.ts';

// Many reads in one eth_call (docs/token-data.md#crucible_gettokenbalances): Multicall3's aggregate3 at its canonical address, each
// call allowed to fail on its own, all of them at one block.

export interface ContractRead {
  target: Address;
  callData: Hex;
}

/** One read's outcome. A call to an address without code succeeds with empty data. */
export interface ReadOutcome {
  success: boolean;
  returnData: Hex;
}

/** Multicall3 missing or answering something that is not aggregate3's result. */
export class MulticallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MulticallError';
  }
}

/** Every read in one aggregate3 eth_call at `blockNumber`, outcomes in read order. Throws ContractReadError, MulticallError. */
export async function readInOneCall(chain: ContractReader, reads: readonly ContractRead[], blockNumber: bigint): Promise<ReadOutcome[]> {
  if (reads.length === 0) return [];
  const data = encodeFunctionData({
    abi: multicall3Abi,
    functionName: 'aggregate3',
    args: [reads.map((read) => ({ target: read.target, allowFailure: true, callData: read.callData }))],
  });
  const answer = await chain.call({ to: MULTICALL3_ADDRESS, data }, blockNumber);
  let outcomes: readonly ReadOutcome[];
  try {
    outcomes = decodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', data: answer });
  } catch {
    const deployed = (await chain.getCode(MULTICALL3_ADDRESS, blockNumber)) !== '0x';
    throw new MulticallError(
      deployed
        ? `Multicall3 at ${MULTICALL3_ADDRESS} gave an answer that is not aggregate3's result`
        : `Multicall3 is not deployed at ${MULTICALL3_ADDRESS} on this network at block ${blockNumber}`,
    );
  }
  if (outcomes.length !== reads.length) throw new MulticallError(`Multicall3 answered ${outcomes.length} results for ${reads.length} calls`);
  return outcomes.map(({ success, returnData }) => ({ success, returnData }));
}
