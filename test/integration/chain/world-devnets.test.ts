import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, createTestClient, createWalletClient, erc20Abi, http, toHex, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PAST_STATES, startAnvil } from '../../../src/chain/anvil.ts';
import { createLocalDevnets, type LocalDevnets } from '../../../src/chain/local-devnets.ts';
import { DEMO_WALLET, WORLD_DEPLOYER, WORLD_DEPLOYER_KEY } from '../../../src/chain/world/actors.ts';
import { deployWorld } from '../../../src/chain/world/deploy.ts';
import { FEED_HEARTBEAT_SECONDS } from '../../../src/chain/world/feed-heartbeat.ts';
import { worldHoldings } from '../../../src/chain/world/history.ts';
import { WORLD_CONTRACTS, worldContract } from '../../../src/chain/world/manifest.ts';
import { WORLD_MARKETPLACE, worldMarket } from '../../../src/chain/world/market.ts';
import { PRICE_LAYER_CONTRACTS, WORLD_FEEDS, WORLD_POOLS, WORLD_TOKEN_ADDRESSES } from '../../../src/chain/world/price-layer.ts';
import { FOLLOWED_TOPICS } from '../../../src/indexer/events.ts';
import { aggregatorV3Abi } from '../../../src/prices/oracle-feed.ts';
import { uniswapV2PairAbi } from '../../../src/prices/uniswap-v2.ts';

const network = { id: 'world-test', chainId: 7357001 };
const siteOrigin = 'http://localhost:4321';

let stateDir: string;
let devnets: LocalDevnets | undefined;

beforeEach(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'crucible-devnet-state-'));
});
afterEach(async () => {
  await devnets?.stop();
  devnets = undefined;
  await rm(stateDir, { recursive: true, force: true });
});

const clientFor = (rpcUrl: string) => createPublicClient({ transport: http(rpcUrl) });
const forgeBalance = (rpcUrl: string, holder: Address, blockNumber?: bigint) =>
  clientFor(rpcUrl).readContract({
    address: worldContract('forge').address,
    abi: worldContract('forge').artifact.abi,
    functionName: 'balanceOf',
    args: [holder],
    ...(blockNumber !== undefined && { blockNumber }),
  });
describe('local devnets with the world', () => {
  it('carry the world from their first start', async () => {
    devnets = createLocalDevnets({ blockTimeSeconds: 1, stateDir: null });
    const rpcUrl = await devnets.rpcUrlFor(network);
    for (const contract of WORLD_CONTRACTS) expect(await clientFor(rpcUrl).getCode({ address: contract.address }), contract.id).toMatch(/^0x[0-9a-f]+$/);
    expect(await forgeBalance(rpcUrl, DEMO_WALLET)).toBe(worldHoldings().get(DEMO_WALLET)!.erc20.forge);
    // No state directory, no file.
    await devnets.stop();
    expect(await readdir(stateDir)).toEqual([]);
  });

  it('keep their chain across a restart with the same state file, without deploying again', async () => {
    devnets = createLocalDevnets({ blockTimeSeconds: 1, stateDir });
    const first = await devnets.rpcUrlFor(network);
    const client = clientFor(first);
    const head = await client.getBlock();
    const deployerNonce = await client.getTransactionCount({ address: WORLD_DEPLOYER });
    await devnets.stop();
    expect(await readdir(stateDir)).toEqual([`${network.id}.json`]);

    devnets = createLocalDevnets({ blockTimeSeconds: 1, stateDir, siteOrigin: 'https://crucible.example' });
    const again = clientFor(await devnets.rpcUrlFor(network));
    expect((await again.getBlock({ blockNumber: head.number })).hash).toBe(head.hash);
    expect(await forgeBalance(await devnets.rpcUrlFor(network), DEMO_WALLET)).toBe(worldHoldings().get(DEMO_WALLET)!.erc20.forge);
    // The only transactions of the second start point the base URIs at the new origin.
    expect(await again.getTransactionCount({ address: WORLD_DEPLOYER })).toBe(deployerNonce + 3);
    const relics = worldContract('relics');
    expect(await again.readContract({ address: relics.address, abi: relics.artifact.abi, functionName: 'tokenURI', args: [1n] })).toBe(
      'https://crucible.example/world/nft/relics/1.json',
    );
  });

  it('keep few past states on disk and none once stopped, and their chain, world and every log across a restart', async () => {
    const pastStates = join(stateDir, `${network.id}.states`);
    // None until anvil first writes one.
    const stateFiles = async () => (await readdir(pastStates, { recursive: true }).catch(() => [])).filter((name) => name.endsWith('.json'));
    // What a devnet killed without stop() leaves behind is cleared at the next start.
    await mkdir(join(pastStates, 'anvil-state-left-over'), { recursive: true });
    await writeFile(join(pastStates, 'anvil-state-left-over', '0x01.json'), '{}');
    devnets = createLocalDevnets({ blockTimeSeconds: 1, stateDir });
    const rpcUrl = await devnets.rpcUrlFor(network);
    expect(await stateFiles()).toEqual([]);
    // Past the 1,500 states anvil holds in memory at blocks of 2 s or less: older ones go to disk, at most PAST_STATES of them.
    // Mining 500 blocks writes past states to disk and can take long on a busy machine: the answer is
    // waited for (no per-request deadline; the test's own bounds it) and never retried, which would mine again.
    const anvil = createTestClient({ mode: 'anvil', transport: http(rpcUrl, { timeout: 0, retryCount: 0 }) });
    for (let round = 0; round < 4; round++) await anvil.mine({ blocks: 500 });
    const written = await stateFiles();
    expect(written.length).toBeGreaterThan(0);
    expect(written.filter((name) => !name.endsWith('.post.json')).length).toBeLessThanOrEqual(PAST_STATES);
    const head = await clientFor(rpcUrl).getBlock();
    expect(await forgeBalance(rpcUrl, DEMO_WALLET, head.number - 20n)).toBe(worldHoldings().get(DEMO_WALLET)!.erc20.forge);
    const logsFromGenesis = (url: string) =>
      clientFor(url).request({ method: 'eth_getLogs', params: [{ fromBlock: '0x0', toBlock: toHex(head.number), topics: [FOLLOWED_TOPICS] }] });
    const logs = await logsFromGenesis(rpcUrl);
    expect(logs.length).toBeGreaterThan(500);
    await devnets.stop();
    expect(await readdir(stateDir)).toEqual([`${network.id}.json`]);

    devnets = createLocalDevnets({ blockTimeSeconds: 1, stateDir });
    const again = await devnets.rpcUrlFor(network);
    expect((await clientFor(again).getBlock({ blockNumber: head.number })).hash).toBe(head.hash);
    expect(await forgeBalance(again, DEMO_WALLET)).toBe(worldHoldings().get(DEMO_WALLET)!.erc20.forge);
    expect(await logsFromGenesis(again)).toEqual(logs);
  });

  it('install the price layer and the marketplace at the next start of a devnet whose state file holds the world from before them', async () => {
    // A devnet of before the price layer, stopped mid-way through a seeding: the weth-cusd pair's address already holds some cUSD.
    const file = join(stateDir, `${network.id}.json`);
    const old = await startAnvil({ chainId: network.chainId, blockTimeSeconds: 1, extraArgs: ['--state', file] });
    expect(await deployWorld(old.rpcUrl, { siteOrigin, priceLayer: false, market: false })).toMatchObject({
      status: 'installed',
      priceLayer: 'left-out',
      market: 'left-out',
    });
    const wethCusd = WORLD_POOLS.find((pool) => pool.id === 'weth-cusd')!;
    const deployer = createWalletClient({ account: privateKeyToAccount(WORLD_DEPLOYER_KEY), transport: http(old.rpcUrl) });
    const hash = await deployer.writeContract({
      chain: null,
      address: WORLD_TOKEN_ADDRESSES.cusd,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [wethCusd.address, 1234n],
    });
    await clientFor(old.rpcUrl).waitForTransactionReceipt({ hash, pollingInterval: 100 });
    for (const contract of [...PRICE_LAYER_CONTRACTS, ...WORLD_POOLS, WORLD_MARKETPLACE])
      expect(await clientFor(old.rpcUrl).getCode({ address: contract.address })).toBeUndefined();
    await old.stop();

    devnets = createLocalDevnets({ blockTimeSeconds: 1, stateDir, siteOrigin });
    const client = clientFor(await devnets.rpcUrlFor(network));
    for (const pool of WORLD_POOLS) {
      const [reserve0, reserve1] = await client.readContract({ address: pool.address, abi: uniswapV2PairAbi, functionName: 'getReserves' });
      expect({ pool: pool.id, reserve0, reserve1 }).toEqual({ pool: pool.id, reserve0: pool.seed0, reserve1: pool.seed1 });
    }
    for (const feed of WORLD_FEEDS)
      expect((await client.readContract({ address: feed.address, abi: aggregatorV3Abi, functionName: 'latestRoundData' }))[1]).toBe(feed.answer);
    expect(await forgeBalance(await devnets.rpcUrlFor(network), DEMO_WALLET)).toBe(worldHoldings().get(DEMO_WALLET)!.erc20.forge);
    // The marketplace with its whole history: every listing of the plan made, the last of them as the plan leaves it.
    const { listings } = worldMarket();
    const read = (functionName: string, args: readonly unknown[] = []) =>
      client.readContract({ address: WORLD_MARKETPLACE.address, abi: WORLD_MARKETPLACE.artifact.abi, functionName, args });
    expect(await read('listingCount')).toBe(BigInt(listings.length));
    for (const listing of listings) {
      const [, , , , , sold, , , cancelled] = (await read('listings', [listing.id])) as readonly unknown[];
      expect({ id: listing.id, sold, cancelled }).toEqual({ id: listing.id, sold: listing.sold, cancelled: listing.cancelled });
    }
  });

  it('keep the feeds’ heartbeat while they run', async () => {
    devnets = createLocalDevnets({ blockTimeSeconds: 1, stateDir: null, feedCheckSeconds: 1 });
    const rpcUrl = await devnets.rpcUrlFor(network);
    const feed = WORLD_FEEDS[0]!;
    const round = async () => (await clientFor(rpcUrl).readContract({ address: feed.address, abi: aggregatorV3Abi, functionName: 'latestRoundData' }))[0];
    expect(await round()).toBe(1n);
    const anvil = createTestClient({ mode: 'anvil', transport: http(rpcUrl) });
    await anvil.increaseTime({ seconds: FEED_HEARTBEAT_SECONDS + 60 });
    await anvil.mine({ blocks: 1 });
    await expect.poll(round, { timeout: 30_000, interval: 200 }).toBe(2n);
  });

  it('refuse a state file anvil cannot read, naming it, and leave it as it was', async () => {
    const file = join(stateDir, `${network.id}.json`);
    await writeFile(file, '{"block": ');
    devnets = createLocalDevnets({ blockTimeSeconds: 1, stateDir });
    await expect(devnets.rpcUrlFor(network)).rejects.toThrow(file);
    expect(await readdir(stateDir)).toEqual([`${network.id}.json`]);
  });

  it('refuse a network id that cannot name a state file', async () => {
    devnets = createLocalDevnets({ blockTimeSeconds: 1, stateDir });
    await expect(devnets.rpcUrlFor({ id: '../escape', chainId: 1 })).rejects.toThrow(/cannot name a state file/);
  });
});
