import { encodeFunctionData, erc20Abi, type Address } from 'viem';
import { WORLD_DEPLOYER } from './actors.ts';
import { ARTIFACTS, type ContractArtifact } from './artifacts.ts';
import type { WorldCall } from './history.ts';
import { PRICE_LAYER_CONTRACTS, UNISWAP_V2_FACTORY, WORLD_POOLS, WORLD_WETH, WORLD_TOKEN_ADDRESSES, type WorldTokenId } from './price-layer.ts';
import { type AnvilClient, create2Call } from './sender.ts';

// What installing the price layer (price-layer.ts) still takes on a devnet, read from its state, so a
// devnet made before the layer, or one whose start stopped half-way through it, is completed and one
// that has it gets nothing: contracts without code are created, pairs the factory has not made are
// made, and a pair with no liquidity yet gets what it lacks of its seeds and mints.

const pairAbi = ARTIFACTS.UniswapV2Pair.abi;

/** The rounds of calls still needed, in order (each mined before the next is estimated); none when the layer is whole. */
export async function priceLayerRounds(client: AnvilClient): Promise<WorldCall[][]> {
  const hasCode = async (address: Address) => ((await client.getCode({ address })) ?? '0x') !== '0x';
  const [contractCode, pairCode] = await Promise.all([
    Promise.all(PRICE_LAYER_CONTRACTS.map((c) => hasCode(c.address))),
    Promise.all(WORLD_POOLS.map((p) => hasCode(p.address))),
  ]);
  const wethDeployed = contractCode[PRICE_LAYER_CONTRACTS.indexOf(WORLD_WETH)]!;
  // A token not created yet (WETH, in this same install) holds nothing for anyone.
  const balanceOf = (token: WorldTokenId, holder: Address) =>
    token === 'weth' && !wethDeployed
      ? Promise.resolve(0n)
      : client.readContract({ address: WORLD_TOKEN_ADDRESSES[token], abi: erc20Abi, functionName: 'balanceOf', args: [holder] });

  const deploys = PRICE_LAYER_CONTRACTS.filter((_, i) => !contractCode[i]).map(create2Call);
  const pairs: WorldCall[] = WORLD_POOLS.filter((_, i) => !pairCode[i]).map((pool) =>
    call(UNISWAP_V2_FACTORY, 'createPair', [WORLD_TOKEN_ADDRESSES[pool.token0], WORLD_TOKEN_ADDRESSES[pool.token1]], `create pair ${pool.id}`),
  );

  const supplies = await Promise.all(
    WORLD_POOLS.map((pool, i) =>
      pairCode[i] ? (client.readContract({ address: pool.address, abi: pairAbi, functionName: 'totalSupply' }) as Promise<bigint>) : 0n,
    ),
  );
  const unseeded = WORLD_POOLS.filter((_, i) => supplies[i] === 0n);
  // What each unseeded pair lacks of its seeds: what an interrupted seeding already moved there counts.
  const lacking = (
    await Promise.all(
      unseeded.flatMap((pool) =>
        [[pool.token0, pool.seed0] as const, [pool.token1, pool.seed1] as const].map(async ([token, seed]) => ({
          pool,
          token,
          amount: seed - (await balanceOf(token, pool.address)),
        })),
      ),
    )
  ).filter(({ amount }) => amount > 0n);
  // The deployer wraps the ether the WETH seeds take.
  const wethShort = lacking.filter(({ token }) => token === 'weth').reduce((sum, { amount }) => sum + amount, 0n) - (await balanceOf('weth', WORLD_DEPLOYER));
  const wraps: WorldCall[] = wethShort > 0n ? [{ ...call(WORLD_WETH, 'deposit', [], 'wrap ether for the WETH seeds'), value: wethShort }] : [];
  const transfers = lacking.map(
    ({ pool, token, amount }): WorldCall => ({
      from: WORLD_DEPLOYER,
      to: WORLD_TOKEN_ADDRESSES[token],
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [pool.address, amount] }),
      label: `seed ${pool.id} with ${token}`,
    }),
  );
  const mints = unseeded.map((pool) =>
    call({ address: pool.address, artifact: ARTIFACTS.UniswapV2Pair }, 'mint', [WORLD_DEPLOYER], `mint ${pool.id}'s first liquidity`),
  );
  return [deploys, [...pairs, ...wraps], transfers, mints].filter((round) => round.length > 0);
}

/** A call of the world deployer's to a contract with its own ABI. */
function call(contract: { address: Address; artifact: ContractArtifact }, functionName: string, args: readonly unknown[], label: string): WorldCall {
  return { from: WORLD_DEPLOYER, to: contract.address, data: encodeFunctionData({ abi: contract.artifact.abi, functionName, args }), label };
}
