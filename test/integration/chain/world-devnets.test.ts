import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, createTestClient, http, toHex, type Address } from 'viem';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PAST_STATES } from '../../../src/chain/anvil.ts';
import { createLocalDevnets, type LocalDevnets } from '../../../src/chain/local-devnets.ts';
import { DEMO_WALLET, WORLD_DEPLOYER } from '../../../src/chain/world/actors.ts';
import { worldHoldings } from '../../../src/chain/world/history.ts';
import { WORLD_CONTRACTS, worldContract } from '../../../src/chain/world/manifest.ts';
import { FOLLOWED_TOPICS } from '../../../src/indexer/events.ts';

const network = { id: 'world-test', chainId: 7357001 };
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
    const anvil = createTestClient({ mode: 'anvil', transport: http(rpcUrl) });
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
