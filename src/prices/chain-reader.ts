import { decodeFunctionResult, encodeFunctionData, multicall3Abi, type Hex } from 'viem';
import { MULTICALL3_ADDRESS } from '../chain/multicall3.ts';
import { readInOneCall, type ContractRead, type ReadOutcome } from '../chain/multicall-reads.ts';
import type { ContractReader } from '../chain/contract-reader.ts';
import type { Fixed } from './decimal.ts';
import { aggregatorV3Abi, readOracleFeed } from './oracle-feed.ts';
import type { ChainSource } from './plan.ts';
import { fail, ok, type Result } from './result.ts';
import { uniswapV2PairAbi, uniswapV2Quote } from './uniswap-v2.ts';

// One network's price contracts read at one block in one eth_call (Multicall3 aggregate3), with the
// block's time: a pool's quote holds at that block, a feed's at its round's updatedAt.

/** What one source said: its value in its quote currency (dollars for a feed), and for a pool its worth in the same. */
export interface ChainReading {
  value: Fixed;
  observedAt: number;
  liquidity?: Fixed;
}

export type ChainReadCode =
  | 'call-failed'
  | 'empty-pool'
  | 'bad-decimals'
  | 'below-precision'
  | 'non-positive-answer'
  | 'carried-over-round'
  | 'not-updated'
  | 'bad-updated-at';

/** Every source's reading, by source id. Throws ContractReadError or MulticallError when the network cannot be read at all. */
export async function readChainSources(chain: ContractReader, sources: readonly ChainSource[]): Promise<Map<string, Result<ChainReading, ChainReadCode>>> {
  const reads: ContractRead[] = [
    { target: MULTICALL3_ADDRESS, callData: encodeFunctionData({ abi: multicall3Abi, functionName: 'getCurrentBlockTimestamp' }) },
  ];
  for (const source of sources) {
    if (source.kind === 'amm-v2') reads.push({ target: source.pair, callData: encodeFunctionData({ abi: uniswapV2PairAbi, functionName: 'getReserves' }) });
    else
      reads.push(
        { target: source.feed, callData: encodeFunctionData({ abi: aggregatorV3Abi, functionName: 'decimals' }) },
        { target: source.feed, callData: encodeFunctionData({ abi: aggregatorV3Abi, functionName: 'latestRoundData' }) },
      );
  }
  const outcomes = await readInOneCall(chain, reads, await chain.blockNumber());
  const blockTime = Number(decodeFunctionResult({ abi: multicall3Abi, functionName: 'getCurrentBlockTimestamp', data: outcomes[0]!.returnData })) * 1000;
  const readings = new Map<string, Result<ChainReading, ChainReadCode>>();
  let next = 1;
  for (const source of sources) {
    if (source.kind === 'amm-v2') {
      const reserves = decoded(outcomes[next++]!, (data) => decodeFunctionResult({ abi: uniswapV2PairAbi, functionName: 'getReserves', data }));
      if (!reserves.ok) {
        readings.set(source.id, reserves);
        continue;
      }
      const [reserve0, reserve1] = reserves.value;
      const quote = uniswapV2Quote({ reserve0, reserve1 }, source.decimals);
      if (!quote.ok) readings.set(source.id, quote);
      else {
        const { token0InToken1, token1InToken0, liquidityInToken0, liquidityInToken1 } = quote.value;
        readings.set(
          source.id,
          ok({
            value: source.pricedIsToken0 ? token0InToken1 : token1InToken0,
            liquidity: source.pricedIsToken0 ? liquidityInToken1 : liquidityInToken0,
            observedAt: blockTime,
          }),
        );
      }
    } else {
      const decimals = decoded(outcomes[next++]!, (data) => decodeFunctionResult({ abi: aggregatorV3Abi, functionName: 'decimals', data }));
      const round = decoded(outcomes[next++]!, (data) => decodeFunctionResult({ abi: aggregatorV3Abi, functionName: 'latestRoundData', data }));
      if (!decimals.ok) readings.set(source.id, decimals);
      else if (!round.ok) readings.set(source.id, round);
      else {
        const [roundId, answer, startedAt, updatedAt, answeredInRound] = round.value;
        readings.set(source.id, readOracleFeed({ roundId, answer, startedAt, updatedAt, answeredInRound }, decimals.value));
      }
    }
  }
  return readings;
}

/** A call's answer decoded, or `call-failed` when it reverted, had no code, or answered another shape. */
function decoded<T>(outcome: ReadOutcome, decode: (data: Hex) => T): Result<T, 'call-failed'> {
  if (!outcome.success) return fail('call-failed', 'the call reverted');
  try {
    return ok(decode(outcome.returnData));
  } catch {
    return fail('call-failed', outcome.returnData === '0x' ? 'no contract answered (no code at the address?)' : 'the answer is not of the expected shape');
  }
}
