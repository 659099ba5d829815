import { createWalletClient, decodeEventLog, encodeFunctionData, erc20Abi, http, parseEther, parseTransaction, type Abi, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORLD_DEPLOYER, WORLD_DEPLOYER_KEY } from '../../../src/chain/world/actors.ts';
import { ARTIFACTS } from '../../../src/chain/world/artifacts.ts';
import { deployWorld } from '../../../src/chain/world/deploy.ts';
import { FEED_HEARTBEAT_SECONDS, refreshStaleFeeds } from '../../../src/chain/world/feed-heartbeat.ts';
import { worldHoldings } from '../../../src/chain/world/history.ts';
import {
  PRICE_LAYER_CONTRACTS,
  UNISWAP_V2_FACTORY,
  WORLD_FEEDS,
  WORLD_POOLS,
  WORLD_TOKEN_ADDRESSES,
  WORLD_WETH,
  worldErc20Address,
  worldTokenDecimals,
  type WorldFeedId,
  type WorldPool,
  type WorldPoolId,
} from '../../../src/chain/world/price-layer.ts';
import { getAmountOut, swapOnWorldPool, WorldSwapError, type PairReserves } from '../../../src/chain/world/swap.ts';
import { formatDecimal } from '../../../src/prices/decimal.ts';
import { readOracleFeed, type RoundData } from '../../../src/prices/oracle-feed.ts';
import { uniswapV2Quote } from '../../../src/prices/uniswap-v2.ts';
import { startRpcProxy, startTestAnvil, THIRD_PARTY_KEY, type TestAnvil } from '../../support/anvil.ts';

// The price layer of the local world on a real anvil: Uniswap V2 pairs from the published
// artifacts, seeded as the table says and priced by the price core's own Uniswap V2 math; the
// AggregatorV3Interface feeds; swaps that move a pool's quote; the feeds' heartbeat.

const siteOrigin = 'http://localhost:4321';
let anvil: TestAnvil;

const pool = (id: WorldPoolId) => WORLD_POOLS.find((candidate) => candidate.id === id)!;
const feed = (id: WorldFeedId) => WORLD_FEEDS.find((candidate) => candidate.id === id)!;
const read = (address: Address, abi: Abi, functionName: string, args: readonly unknown[] = []) =>
  anvil.client.readContract({ address, abi, functionName, args, blockTag: 'latest' });
const pairAbi = ARTIFACTS.UniswapV2Pair.abi;
const feedAbi = ARTIFACTS.WorldPriceFeed.abi;

async function reserves(of: WorldPool): Promise<PairReserves> {
  const [reserve0, reserve1] = (await read(of.address, pairAbi, 'getReserves')) as readonly [bigint, bigint, number];
  return { reserve0, reserve1 };
}

/** The pool's price, its base in its quote, as the price core computes it from getReserves. */
function priceAt(of: WorldPool, { reserve0, reserve1 }: PairReserves): number {
  const quote = uniswapV2Quote({ reserve0, reserve1 }, { decimals0: worldTokenDecimals(of.token0), decimals1: worldTokenDecimals(of.token1) });
  if (!quote.ok) throw new Error(quote.error.message);
  return Number(formatDecimal(of.base === of.token0 ? quote.value.token0InToken1 : quote.value.token1InToken0));
}

async function latestRound(id: WorldFeedId): Promise<RoundData> {
  const [roundId, answer, startedAt, updatedAt, answeredInRound] = (await read(feed(id).address, feedAbi, 'latestRoundData')) as readonly bigint[];
  return { roundId: roundId!, answer: answer!, startedAt: startedAt!, updatedAt: updatedAt!, answeredInRound: answeredInRound! };
}

const deployerWallet = () => createWalletClient({ account: privateKeyToAccount(WORLD_DEPLOYER_KEY), transport: http(anvil.rpcUrl) });

/** Sends a transaction and waits for its receipt, which must be a success. */
async function sendAndMine(hash: Promise<`0x${string}`>) {
  const receipt = await anvil.client.waitForTransactionReceipt({ hash: await hash, pollingInterval: 100 });
  expect(receipt.status).toBe('success');
  return receipt;
}

beforeAll(async () => {
  anvil = await startTestAnvil({ chainId: 31337, blockTimeSeconds: 1 });
  expect(await deployWorld(anvil.rpcUrl, { siteOrigin })).toMatchObject({ status: 'installed', priceLayer: 'installed' });
});
afterAll(() => anvil?.stop());

describe('the price layer on a fresh devnet', () => {
  it('puts code at every contract, and the factory made each pair where the table computes it', async () => {
    for (const contract of [...PRICE_LAYER_CONTRACTS, ...WORLD_POOLS])
      expect(await anvil.client.getCode({ address: contract.address }), contract.id).toMatch(/^0x[0-9a-f]{100,}$/);
    const factoryAbi = UNISWAP_V2_FACTORY.artifact.abi;
    expect(await read(UNISWAP_V2_FACTORY.address, factoryAbi, 'allPairsLength')).toBe(BigInt(WORLD_POOLS.length));
    expect(await read(UNISWAP_V2_FACTORY.address, factoryAbi, 'feeToSetter')).toBe(WORLD_DEPLOYER);
    for (const of of WORLD_POOLS) {
      const [token0, token1] = [WORLD_TOKEN_ADDRESSES[of.token0], WORLD_TOKEN_ADDRESSES[of.token1]];
      expect(await read(UNISWAP_V2_FACTORY.address, factoryAbi, 'getPair', [token1, token0])).toBe(of.address);
      expect(await read(of.address, pairAbi, 'token0')).toBe(token0);
      expect(await read(of.address, pairAbi, 'token1')).toBe(token1);
    }
  });

  it('holds each pool’s seeds as its reserves, priced by the price core at 3000, 2.5, 1.2 and 0.1', async () => {
    for (const of of WORLD_POOLS) expect(await reserves(of), of.id).toEqual({ reserve0: of.seed0, reserve1: of.seed1 });
    expect(priceAt(pool('weth-cusd'), await reserves(pool('weth-cusd')))).toBe(3000);
    expect(priceAt(pool('forge-cusd'), await reserves(pool('forge-cusd')))).toBe(2.5);
    expect(priceAt(pool('ember-cusd'), await reserves(pool('ember-cusd')))).toBe(1.2);
    expect(priceAt(pool('slag-forge'), await reserves(pool('slag-forge')))).toBe(0.1);
  });

  it('leaves the deployer, the pairs and the wrapped ether with the balances of the world’s holdings', async () => {
    const holdings = worldHoldings();
    for (const holder of [WORLD_DEPLOYER, ...WORLD_POOLS.map((of) => of.address)]) {
      for (const [id, amount] of Object.entries(holdings.get(holder)!.erc20)) {
        const balance = await read(worldErc20Address(id as WorldPoolId), erc20Abi, 'balanceOf', [holder]);
        expect({ holder, id, balance }).toEqual({ holder, id, balance: amount });
      }
    }
    expect(await read(WORLD_WETH.address, erc20Abi, 'totalSupply')).toBe(pool('weth-cusd').seed1);
    expect(await anvil.client.getBalance({ address: WORLD_WETH.address })).toBe(pool('weth-cusd').seed1);
  });

  it('answers each feed through AggregatorV3Interface: 8 decimals, Chainlink’s description, the table’s answer in round 1', async () => {
    for (const { id, address, description, answer } of WORLD_FEEDS) {
      expect(await read(address, feedAbi, 'decimals')).toBe(8);
      expect(await read(address, feedAbi, 'description')).toBe(description);
      expect(await read(address, feedAbi, 'version')).toBe(1n);
      expect(await read(address, feedAbi, 'owner')).toBe(WORLD_DEPLOYER);
      const round = await latestRound(id);
      expect(round).toMatchObject({ roundId: 1n, answer, answeredInRound: 1n });
      expect(round.startedAt).toBe(round.updatedAt);
      expect(await read(address, feedAbi, 'getRoundData', [1n])).toEqual([1n, answer, round.startedAt, round.updatedAt, 1n]);
      await expect(read(address, feedAbi, 'getRoundData', [2n])).rejects.toThrow(/No data present/);
    }
    const reading = readOracleFeed(await latestRound('eth-usd'), 8);
    expect(reading.ok && formatDecimal(reading.value.value)).toBe('3000');
  });

  it('sends nothing when deployed again', async () => {
    const nonce = await anvil.client.getTransactionCount({ address: WORLD_DEPLOYER });
    expect(await deployWorld(anvil.rpcUrl, { siteOrigin })).toEqual({
      status: 'present',
      priceLayer: 'present',
      market: 'present',
      nativeLayer: 'present',
      transactions: 0,
    });
    expect(await anvil.client.getTransactionCount({ address: WORLD_DEPLOYER })).toBe(nonce);
  });
});

describe('the contracts of the price layer', () => {
  it('let only the owner submit, each submission a new round answered in itself, every past round kept', async () => {
    const stranger = privateKeyToAccount(generatePrivateKey());
    await anvil.setBalance(stranger.address, parseEther('1'));
    const strangerWallet = createWalletClient({ account: stranger, transport: http(anvil.rpcUrl) });
    await expect(
      strangerWallet.writeContract({ chain: null, address: feed('forge-usd').address, abi: feedAbi, functionName: 'submit', args: [1n] }),
    ).rejects.toThrow(/OwnableUnauthorizedAccount/);

    const first = await latestRound('forge-usd');
    const receipt = await sendAndMine(
      deployerWallet().writeContract({ chain: null, address: feed('forge-usd').address, abi: feedAbi, functionName: 'submit', args: [260_000_000n] }),
    );
    const { timestamp } = await anvil.client.getBlock({ blockNumber: receipt.blockNumber });
    expect(await latestRound('forge-usd')).toEqual({ roundId: 2n, answer: 260_000_000n, startedAt: timestamp, updatedAt: timestamp, answeredInRound: 2n });
    expect(await read(feed('forge-usd').address, feedAbi, 'getRoundData', [1n])).toEqual([1n, first.answer, first.startedAt, first.updatedAt, 1n]);
    expect(await read(feed('forge-usd').address, feedAbi, 'latestRound')).toBe(2n);
    const events = receipt.logs.map((log) => decodeEventLog({ abi: feedAbi, ...log }));
    expect(events.map(({ eventName, args }) => ({ eventName, args }))).toEqual([
      { eventName: 'NewRound', args: { roundId: 2n, startedBy: WORLD_DEPLOYER, startedAt: timestamp } },
      { eventName: 'AnswerUpdated', args: { current: 260_000_000n, roundId: 2n, updatedAt: timestamp } },
    ]);
  });

  it('wrap ether and unwrap it again, with WETH9’s Deposit and Withdrawal', async () => {
    const holder = privateKeyToAccount(generatePrivateKey());
    await anvil.setBalance(holder.address, parseEther('2'));
    const wallet = createWalletClient({ account: holder, transport: http(anvil.rpcUrl) });
    const abi = WORLD_WETH.artifact.abi;
    const deposit = await sendAndMine(wallet.sendTransaction({ chain: null, to: WORLD_WETH.address, value: parseEther('1') }));
    expect(await read(WORLD_WETH.address, abi, 'balanceOf', [holder.address])).toBe(parseEther('1'));
    expect(deposit.logs.map((log) => decodeEventLog({ abi, ...log }).eventName)).toEqual(['Transfer', 'Deposit']);
    const withdrawal = await sendAndMine(
      wallet.writeContract({ chain: null, address: WORLD_WETH.address, abi, functionName: 'withdraw', args: [parseEther('0.25')] }),
    );
    expect(withdrawal.logs.map((log) => decodeEventLog({ abi, ...log }).eventName)).toEqual(['Transfer', 'Withdrawal']);
    expect(await read(WORLD_WETH.address, abi, 'balanceOf', [holder.address])).toBe(parseEther('0.75'));
    expect(await read(WORLD_WETH.address, abi, 'name')).toBe('Wrapped Ether');
    expect(await read(WORLD_WETH.address, abi, 'symbol')).toBe('WETH');
    await expect(wallet.writeContract({ chain: null, address: WORLD_WETH.address, abi, functionName: 'withdraw', args: [parseEther('1')] })).rejects.toThrow(
      /ERC20InsufficientBalance/,
    );
  });
});

describe('swapOnWorldPool', () => {
  it('selling FORGE for cUSD lowers FORGE’s price by what getAmountOut says the pair pays', async () => {
    const of = pool('forge-cusd');
    const cusdBefore = (await read(WORLD_TOKEN_ADDRESSES.cusd, erc20Abi, 'balanceOf', [WORLD_DEPLOYER])) as bigint;
    const result = await swapOnWorldPool(anvil.rpcUrl, { pool: 'forge-cusd', sell: 'forge', amount: '1000' });
    const sold = 1000n * 10n ** 18n;
    expect(result.sold).toEqual({ token: 'forge', amount: sold });
    expect(result.bought).toEqual({ token: 'cusd', amount: getAmountOut(sold, result.before.reserve0, result.before.reserve1) });
    expect(result.after).toEqual({ reserve0: result.before.reserve0 + sold, reserve1: result.before.reserve1 - result.bought.amount });
    expect(await reserves(of)).toEqual(result.after);
    expect(priceAt(of, result.after)).toBeLessThan(priceAt(of, result.before));
    expect(await read(WORLD_TOKEN_ADDRESSES.cusd, erc20Abi, 'balanceOf', [WORLD_DEPLOYER])).toBe(cusdBefore + result.bought.amount);
    expect(result.transactions).toHaveLength(2);
  });

  it('selling cUSD for WETH raises WETH’s price; selling WETH wraps the deployer’s ether first and lowers it', async () => {
    const of = pool('weth-cusd');
    const start = priceAt(of, await reserves(of));
    const bought = await swapOnWorldPool(anvil.rpcUrl, { pool: 'weth-cusd', sell: 'cusd', amount: '30000' });
    expect(bought.bought.token).toBe('weth');
    expect(priceAt(of, bought.after)).toBeGreaterThan(start);
    // The deployer seeded all the WETH it wrapped, and holds what it just bought: selling more wraps the difference.
    const sold = await swapOnWorldPool(anvil.rpcUrl, { pool: 'weth-cusd', sell: 'weth', amount: formatDecimal(bought.bought.amount + parseEther('1')) });
    expect(sold.transactions).toHaveLength(3);
    expect(priceAt(of, sold.after)).toBeLessThan(priceAt(of, sold.before));
  });

  it('swaps with the gas the pair spends when it is mined a second after its estimate, in the second of the pool’s last update', async () => {
    // The pair's _update writes its price accumulators only in a block of a later second than its last
    // update; anvil estimates at the latest block's second while the clock is still in it. Made exact
    // here: the pool is updated (sync) and the swap estimated with every block held at one timestamp,
    // and the swap's own broadcast lets the next block have a later one.
    const of = pool('ember-cusd');
    const third = privateKeyToAccount(THIRD_PARTY_KEY);
    const proxy = await startRpcProxy(anvil.rpcUrl, async (call) => {
      if (call.method === 'eth_sendRawTransaction' && parseTransaction(call.params[0] as Hex).to?.toLowerCase() === of.address.toLowerCase())
        await anvil.client.removeBlockTimestampInterval();
      return undefined;
    });
    try {
      await anvil.client.setBlockTimestampInterval({ interval: 0 });
      await sendAndMine(
        anvil.client.sendTransaction({ account: third, chain: null, to: of.address, data: encodeFunctionData({ abi: pairAbi, functionName: 'sync' }) }),
      );
      const result = await swapOnWorldPool(proxy.url, { pool: 'ember-cusd', sell: 'ember', amount: '500' });
      expect(result.after).toEqual(await reserves(of));
      expect(priceAt(of, result.after)).toBeLessThan(priceAt(of, result.before));
      const [transfer, swap] = await Promise.all(result.transactions.map((hash) => anvil.client.getTransactionReceipt({ hash })));
      const [transferBlock, swapBlock] = await Promise.all([transfer!, swap!].map(({ blockNumber }) => anvil.client.getBlock({ blockNumber })));
      expect(swapBlock!.timestamp).toBeGreaterThan(transferBlock!.timestamp);
    } finally {
      await anvil.client.removeBlockTimestampInterval();
      await proxy.close();
    }
  });

  it('refuses what it cannot do before sending anything', async () => {
    const nonce = await anvil.client.getTransactionCount({ address: WORLD_DEPLOYER });
    const refusal = (request: { pool: string; sell: string; amount: string }) =>
      swapOnWorldPool(anvil.rpcUrl, request).then(
        () => null,
        (error: unknown) => (error instanceof WorldSwapError ? error.code : error),
      );
    expect(await refusal({ pool: 'forge-usd', sell: 'forge', amount: '1' })).toBe('unknown_pool');
    expect(await refusal({ pool: 'forge-cusd', sell: 'weth', amount: '1' })).toBe('not_in_pool');
    for (const amount of ['0', '-1', '1e3', '', '0.0000001']) expect(await refusal({ pool: 'forge-cusd', sell: 'cusd', amount }), amount).toBe('bad_amount');
    expect(await refusal({ pool: 'forge-cusd', sell: 'forge', amount: '0.000000000000000001' })).toBe('bad_amount');
    expect(await refusal({ pool: 'forge-cusd', sell: 'forge', amount: '100000000' })).toBe('insufficient_balance');
    expect(await anvil.client.getTransactionCount({ address: WORLD_DEPLOYER })).toBe(nonce);
  });

  it('leaves the layer whole: the next deploy sends nothing', async () => {
    expect(await deployWorld(anvil.rpcUrl, { siteOrigin })).toMatchObject({ priceLayer: 'present', transactions: 0 });
  });
});

describe('the feeds’ heartbeat', () => {
  it('submits the latest answer again, as a new round, for a feed older than the heartbeat, and nothing for a fresh one', async () => {
    const before = { eth: await latestRound('eth-usd'), cusd: await latestRound('cusd-usd'), forge: await latestRound('forge-usd') };
    expect(await refreshStaleFeeds(anvil.rpcUrl)).toEqual([]);
    await anvil.client.increaseTime({ seconds: FEED_HEARTBEAT_SECONDS + 60 });
    await anvil.client.mine({ blocks: 1 });
    // cUSD / USD gets an answer of its own after the chain moved on: it is fresh.
    await sendAndMine(
      deployerWallet().writeContract({ chain: null, address: feed('cusd-usd').address, abi: feedAbi, functionName: 'submit', args: [99_900_000n] }),
    );

    expect(await refreshStaleFeeds(anvil.rpcUrl)).toEqual(['eth-usd', 'forge-usd']);
    const eth = await latestRound('eth-usd');
    expect(eth).toMatchObject({ roundId: before.eth.roundId + 1n, answer: before.eth.answer, answeredInRound: before.eth.roundId + 1n });
    expect(eth.updatedAt - before.eth.updatedAt).toBeGreaterThan(FEED_HEARTBEAT_SECONDS);
    // The answer submitted again is the latest one, not the one the feed was deployed with.
    expect(await latestRound('forge-usd')).toMatchObject({ roundId: before.forge.roundId + 1n, answer: before.forge.answer });
    expect(await latestRound('cusd-usd')).toMatchObject({ roundId: before.cusd.roundId + 1n, answer: 99_900_000n });
    expect(await refreshStaleFeeds(anvil.rpcUrl)).toEqual([]);
  });

  it('beats at every deploy: a devnet whose feeds went stale gets a round for each', async () => {
    await anvil.client.increaseTime({ seconds: FEED_HEARTBEAT_SECONDS + 60 });
    await anvil.client.mine({ blocks: 1 });
    const rounds = await Promise.all(WORLD_FEEDS.map((of) => latestRound(of.id)));
    expect(await deployWorld(anvil.rpcUrl, { siteOrigin })).toEqual({
      status: 'present',
      priceLayer: 'present',
      market: 'present',
      nativeLayer: 'present',
      transactions: WORLD_FEEDS.length,
    });
    for (const [i, of] of WORLD_FEEDS.entries()) expect((await latestRound(of.id)).roundId).toBe(rounds[i]!.roundId + 1n);
  });

  it('judges age by the clock too: a chain whose head is older than the clock’s now has stale feeds', async () => {
    const head = await anvil.client.getBlock();
    const later = () => (Number(head.timestamp) + FEED_HEARTBEAT_SECONDS + 60) * 1000;
    expect(await deployWorld(anvil.rpcUrl, { siteOrigin, now: later })).toMatchObject({ transactions: WORLD_FEEDS.length });
  });
});
