import { createWalletClient, encodeFunctionData, erc20Abi, http, parseUnits, publicActions, toHex, type Abi, type Address, type Hash, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { fetchPastRateLimits } from '../../net/fetch-past-rate-limits.ts';
import { WORLD_DEPLOYER, WORLD_DEPLOYER_KEY } from './actors.ts';
import { ARTIFACTS } from './artifacts.ts';
import { WORLD_POOLS, WORLD_TOKEN_ADDRESSES, WORLD_WETH, type WorldPool, type WorldTokenId, worldTokenDecimals } from './price-layer.ts';

// A swap on a pool of the world's price layer, as Uniswap V2's router makes one but with the core
// contracts alone: the world deployer transfers what it sells to the pair, then calls swap for what
// getAmountOut says that buys (the 0.3% fee taken from the amount in). It moves the pool's reserves,
// so its quote. Only standard JSON-RPC methods are used (the deployer signs; no anvil method), so
// it works through the node gateway of a running `npm start` as well as on the devnet itself.
//
// The swap's gas is estimated and then raised by what the pair's price accumulators cost. Its
// _update writes them only when block.timestamp differs from the block of the pair's last update,
// and anvil estimates at the pending block's timestamp, which is the latest block's while the clock
// is still in that block's second: a swap estimated then and mined a second later ran out of gas.

export interface WorldSwapRequest {
  pool: string;
  /** The world token id sold into the pool. */
  sell: string;
  /** Whole tokens, as a decimal (`'1000'`, `'0.5'`). */
  amount: string;
}

export interface PairReserves {
  reserve0: bigint;
  reserve1: bigint;
}

export interface WorldSwapResult {
  pool: WorldPool;
  sold: { token: WorldTokenId; amount: bigint };
  bought: { token: WorldTokenId; amount: bigint };
  /** The pair's reserves the swap met, and after it. */
  before: PairReserves;
  after: PairReserves;
  /** The transactions sent, in order (a deposit of ether into WETH when the deployer held too little, the transfer, the swap). */
  transactions: Hash[];
}

type WorldSwapCode = 'unknown_pool' | 'not_in_pool' | 'bad_amount' | 'insufficient_balance' | 'transaction_failed';

/** The swap cannot be made as asked, or one of its transactions failed; nothing is sent after the failure. */
export class WorldSwapError extends Error {
  readonly code: WorldSwapCode;
  constructor(code: WorldSwapCode, message: string) {
    super(message);
    this.code = code;
  }
}

/** UniswapV2Library.getAmountOut: what `amountIn` buys from reserves, after the 0.3% fee, rounded down. */
export function getAmountOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint): bigint {
  if (amountIn <= 0n || reserveIn <= 0n || reserveOut <= 0n) return 0n;
  const amountInWithFee = amountIn * 997n;
  return (amountInWithFee * reserveOut) / (reserveIn * 1000n + amountInWithFee);
}

const pairAbi = ARTIFACTS.UniswapV2Pair.abi;
const WHOLE_AMOUNT = /^\d+(\.\d+)?$/;
/** How long one transaction may take to be mined (the devnets mine every few seconds). */
const RECEIPT_TIMEOUT_MS = 60_000;
/**
 * What UniswapV2Pair's _update spends on price0CumulativeLast and price1CumulativeLast when it
 * writes them: each a cold read and a first write (22,100 gas) and their arithmetic, about 44,600
 * gas on the first swap of a pool; rounded up.
 */
const PRICE_ACCUMULATORS_GAS = 50_000n;
/** Sells `amount` of `sell` into the world pool `pool` at `rpcUrl`, as the world deployer. */
export async function swapOnWorldPool(rpcUrl: string, request: WorldSwapRequest): Promise<WorldSwapResult> {
  const { pool, sell, amountIn } = checkRequest(request);
  const buy = sell === pool.token0 ? pool.token1 : pool.token0;
  const client = createWalletClient({ account: privateKeyToAccount(WORLD_DEPLOYER_KEY), transport: http(rpcUrl, { fetchFn: fetchPastRateLimits }) }).extend(
    publicActions,
  );
  const transactions: Hash[] = [];
  /** Sends a transaction and waits for it to be mined; `extraGas` over its estimate, or viem's estimate alone. */
  const send = async (to: Address, data: Hex, label: string, { value, extraGas }: { value?: bigint; extraGas?: bigint } = {}) => {
    const failed = (error: unknown): never => {
      throw new WorldSwapError('transaction_failed', `${label} failed: ${error instanceof Error ? error.message : String(error)}`);
    };
    // eth_estimateGas alone (viem's estimateGas first reads the nonce and fees it does not need here).
    const estimate = () =>
      client.request({ method: 'eth_estimateGas', params: [{ from: WORLD_DEPLOYER, to, data, value: value === undefined ? undefined : toHex(value) }] });
    const gas = extraGas === undefined ? undefined : BigInt(await estimate().catch(failed)) + extraGas;
    const hash = await client.sendTransaction({ chain: null, to, data, value, gas }).catch(failed);
    transactions.push(hash);
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 250, timeout: RECEIPT_TIMEOUT_MS }).catch(failed);
    if (receipt.status !== 'success') throw new WorldSwapError('transaction_failed', `${label} reverted (transaction ${hash})`);
    return receipt.blockNumber;
  };
  const reservesAt = async (blockNumber: bigint): Promise<PairReserves> => {
    const [reserve0, reserve1] = (await client.readContract({ address: pool.address, abi: pairAbi, functionName: 'getReserves', blockNumber })) as readonly [
      bigint,
      bigint,
      number,
    ];
    return { reserve0, reserve1 };
  };

  const sellIs0 = sell === pool.token0;
  const buys = ({ reserve0, reserve1 }: PairReserves) => (sellIs0 ? getAmountOut(amountIn, reserve0, reserve1) : getAmountOut(amountIn, reserve1, reserve0));
  const [held, head] = await Promise.all([
    client.readContract({ address: WORLD_TOKEN_ADDRESSES[sell], abi: erc20Abi, functionName: 'balanceOf', args: [WORLD_DEPLOYER] }),
    client.getBlockNumber({ cacheTime: 0 }),
  ]);
  if (buys(await reservesAt(head)) === 0n) throw new WorldSwapError('bad_amount', `${request.amount} ${sell} buys no ${buy} from ${pool.id}`);
  if (held < amountIn) {
    // Ether is wrapped as needed; any other token the deployer holds or does not.
    const short = amountIn - held;
    if (sell !== 'weth' || (await client.getBalance({ address: WORLD_DEPLOYER })) <= short)
      throw new WorldSwapError('insufficient_balance', `the world deployer holds ${held} base units of ${sell}, less than the ${amountIn} to sell`);
    await send(WORLD_WETH.address, encode(WORLD_WETH.artifact.abi, 'deposit', []), 'wrapping ether', { value: short });
  }
  const transferred = await send(WORLD_TOKEN_ADDRESSES[sell], encode(erc20Abi, 'transfer', [pool.address, amountIn]), `the transfer of ${sell} to ${pool.id}`);
  // What the swap meets: the reserves once the transfer is in (another trade may have come between).
  const before = await reservesAt(transferred);
  const amountOut = buys(before);
  const [amount0Out, amount1Out] = sellIs0 ? [0n, amountOut] : [amountOut, 0n];
  const swapped = await send(pool.address, encode(pairAbi, 'swap', [amount0Out, amount1Out, WORLD_DEPLOYER, '0x']), `the swap on ${pool.id}`, {
    extraGas: PRICE_ACCUMULATORS_GAS,
  });
  return { pool, sold: { token: sell, amount: amountIn }, bought: { token: buy, amount: amountOut }, before, after: await reservesAt(swapped), transactions };
}

function checkRequest(request: WorldSwapRequest): { pool: WorldPool; sell: WorldTokenId; amountIn: bigint } {
  const pool = WORLD_POOLS.find((candidate) => candidate.id === request.pool);
  if (!pool)
    throw new WorldSwapError('unknown_pool', `no world pool ${JSON.stringify(request.pool)}; the pools: ${WORLD_POOLS.map(({ id }) => id).join(', ')}`);
  const sell = [pool.token0, pool.token1].find((token) => token === request.sell);
  if (!sell) throw new WorldSwapError('not_in_pool', `${pool.id} trades ${pool.token0} and ${pool.token1}, not ${JSON.stringify(request.sell)}`);
  const decimals = worldTokenDecimals(sell);
  const places = request.amount.split('.')[1]?.length ?? 0;
  if (!WHOLE_AMOUNT.test(request.amount) || places > decimals)
    throw new WorldSwapError(
      'bad_amount',
      `the amount must be a positive decimal of at most ${decimals} places (${sell}'s decimals), got ${JSON.stringify(request.amount)}`,
    );
  const amountIn = parseUnits(request.amount, decimals);
  if (amountIn === 0n) throw new WorldSwapError('bad_amount', 'the amount must be more than 0');
  return { pool, sell, amountIn };
}

const encode = (abi: Abi, functionName: string, args: readonly unknown[]): Hex => encodeFunctionData({ abi, functionName, args });
