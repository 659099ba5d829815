import { decodeEventLog, hexToString, parseAbi, type Abi, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { airdropRecipients, DEMO_WALLET, WORLD_DEPLOYER, WORLD_HOLDERS } from '../../../src/chain/world/actors.ts';
import { deployWorld, PartialWorldError } from '../../../src/chain/world/deploy.ts';
import { AIRDROP_SIZE, WORLD_HISTORY, worldHoldings, type Erc20Id } from '../../../src/chain/world/history.ts';
import { WORLD_CONTRACTS, worldContract, type WorldContractId } from '../../../src/chain/world/manifest.ts';
import { RELIC_FIRST_ONCHAIN_ID, worldBaseUri } from '../../../src/chain/world/metadata.ts';
import { erc1155UriId } from '../../../src/chain/erc1155-uri.ts';
import { NATIVE_HISTORY, VALUE_FORWARDER } from '../../../src/chain/world/native-layer.ts';
import { startTestAnvil, type TestAnvil } from '../../support/anvil.ts';

const siteOrigin = 'http://localhost:4321';
let anvil: TestAnvil;

/** Reads a world contract with its own ABI. */
const read = (id: WorldContractId, functionName: string, args: readonly unknown[] = []) => {
  const { address, artifact } = worldContract(id);
  return anvil.client.readContract({ address, abi: artifact.abi, functionName, args });
};

/** Every transaction mined so far, counted block by block. */
async function transactionCount(): Promise<number> {
  const head = await anvil.client.getBlockNumber({ cacheTime: 0 });
  const counts = await Promise.all(Array.from({ length: Number(head) + 1 }, (_, n) => anvil.client.getBlockTransactionCount({ blockNumber: BigInt(n) })));
  return counts.reduce((sum, count) => sum + count, 0);
}

function decodeDataUri(uri: string): string {
  const prefix = /^data:[\w/+]+;base64,/.exec(uri)?.[0];
  expect(prefix).toBeDefined();
  return Buffer.from(uri.slice(prefix!.length), 'base64').toString('utf8');
}

beforeAll(async () => {
  // Interval mining, as the devnets run: the world must not wait for the interval.
  anvil = await startTestAnvil({ chainId: 31337, blockTimeSeconds: 1 });
  expect(await deployWorld(anvil.rpcUrl, { siteOrigin })).toMatchObject({ status: 'installed' });
});
afterAll(() => anvil?.stop());

describe('deployWorld on a fresh anvil', () => {
  it('puts code at every address of the manifest, Multicall3 as its artifact', async () => {
    for (const contract of WORLD_CONTRACTS) expect(await anvil.client.getCode({ address: contract.address }), contract.id).toMatch(/^0x[0-9a-f]{100,}$/);
    // Contracts with immutables differ from their artifact's runtime code; Multicall3 has none.
    expect(await anvil.client.getCode({ address: worldContract('multicall3').address })).toBe(worldContract('multicall3').artifact.deployedBytecode);
  });

  it("gives the demo wallet the ERC-20 balances of the world's history, read through Multicall3 at one block", async () => {
    const expected = worldHoldings().get(DEMO_WALLET)!.erc20;
    // The demo wallet holds the manifest's ERC-20s only (none of the price layer's).
    const ids = Object.keys(expected) as Erc20Id[];
    const results = await anvil.client.multicall({
      multicallAddress: worldContract('multicall3').address,
      contracts: ids.map((id) => ({
        address: worldContract(id).address,
        abi: parseAbi(['function balanceOf(address) view returns (uint256)']),
        functionName: 'balanceOf',
        args: [DEMO_WALLET],
      })),
    });
    expect(results.map((result) => result.result)).toEqual(ids.map((id) => expected[id]));
    for (const id of ids) expect(await read(id, 'balanceOf', [DEMO_WALLET])).toBe(expected[id]);
  });

  it('gives every holder the NFTs of the history: ERC-721 owners, ERC-1155 balances, legacy punks', async () => {
    for (const [holder, held] of worldHoldings()) {
      if (holder !== DEMO_WALLET && !Object.values(WORLD_HOLDERS).includes(holder)) continue;
      for (const id of held.items.relics ?? []) expect(await read('relics', 'ownerOf', [id])).toBe(holder);
      for (const id of held.items.punks ?? []) expect(await read('punks', 'punkIndexToAddress', [id])).toBe(holder);
      for (const [id, amount] of held.materials) expect(await read('materials', 'balanceOf', [holder, id])).toBe(amount);
    }
  });

  it('decodes the bytes32 name and symbol, and has no metadata functions on the bare token', async () => {
    expect(hexToString((await read('ember', 'name')) as `0x${string}`, { size: 32 })).toBe('Ember');
    expect(hexToString((await read('ember', 'symbol')) as `0x${string}`, { size: 32 })).toBe('EMBR');
    await expect(
      anvil.client.readContract({ address: worldContract('bare').address, abi: parseAbi(['function name() view returns (string)']), functionName: 'name' }),
    ).rejects.toThrow();
    expect(await read('forge', 'decimals')).toBe(18);
    expect(await read('cusd', 'decimals')).toBe(6);
  });

  it('reverts balanceOf of the reverting token for holders ending in 0xff, and only for them', async () => {
    await expect(read('slag', 'balanceOf', [WORLD_HOLDERS.fay])).rejects.toThrow(/BalanceUnavailable/);
    await expect(read('slag', 'balanceOf', ['0x00000000000000000000000000000000000000ff'])).rejects.toThrow(/BalanceUnavailable/);
    expect(await read('slag', 'balanceOf', [WORLD_HOLDERS.ada])).toBe(worldHoldings().get(WORLD_HOLDERS.ada)!.erc20.slag);
  });

  it('gives hosted relics a tokenURI under the site and the others data: URIs with on-chain JSON', async () => {
    expect(await read('relics', 'FIRST_ONCHAIN_ID')).toBe(RELIC_FIRST_ONCHAIN_ID);
    expect(await read('relics', 'tokenURI', [1n])).toBe(`${worldBaseUri(siteOrigin, 'relics')}1.json`);
    const metadata = JSON.parse(decodeDataUri((await read('relics', 'tokenURI', [100n])) as string)) as { name: string; image: string };
    expect(metadata.name).toBe('Crucible Relics #100');
    expect(decodeDataUri(metadata.image)).toMatch(/^<svg .*>100<\/text><\/svg>$/);
    expect(await read('relics', 'supportsInterface', ['0x49064906'])).toBe(true);
  });

  it('gives the ERC-1155 a uri template with {id}, and the airdrop one shared document', async () => {
    const template = (await read('materials', 'uri', [2n])) as string;
    expect(template).toBe(`${worldBaseUri(siteOrigin, 'materials')}{id}.json`);
    expect(template.replace('{id}', erc1155UriId(2n))).toMatch(/\/0{63}2\.json$/);
    expect(await read('airdrop', 'tokenURI', [AIRDROP_SIZE])).toBe(`${worldBaseUri(siteOrigin, 'airdrop')}pass.json`);
  });

  it('minted the airdrop to every recipient in one transaction', async () => {
    const recipients = [DEMO_WALLET, ...airdropRecipients(AIRDROP_SIZE - 1)];
    expect(await read('airdrop', 'totalSupply')).toBe(BigInt(AIRDROP_SIZE));
    expect(await read('airdrop', 'ownerOf', [BigInt(AIRDROP_SIZE)])).toBe(recipients.at(-1));
    const logs = await anvil.client.getLogs({ address: worldContract('airdrop').address, fromBlock: 0n, toBlock: 'latest' });
    const transfers = logs.filter((log) => decodeEventLog({ abi: worldContract('airdrop').artifact.abi, ...log }).eventName === 'Transfer');
    expect(transfers).toHaveLength(AIRDROP_SIZE);
    expect(new Set(transfers.map((log) => log.transactionHash)).size).toBe(1);
    const owners = transfers.map((log) => decodeEventLog({ abi: worldContract('airdrop').artifact.abi, ...log }).args as unknown as { to: Address });
    expect(owners.map((owner) => owner.to)).toEqual(recipients);
  });

  it('emits the legacy events for punks: Assign on hand-out, Transfer and PunkTransfer on a transfer', async () => {
    const {
      artifact: { abi },
      address,
    } = worldContract('punks');
    const names = (await anvil.client.getLogs({ address, fromBlock: 0n, toBlock: 'latest' })).map((log) => decodeEventLog({ abi, ...log }).eventName);
    expect(names.filter((name) => name === 'Assign')).toHaveLength(5);
    expect(names.filter((name) => name === 'PunkTransfer')).toHaveLength(2);
    expect(names.filter((name) => name === 'Transfer')).toHaveLength(2);
  });
});

describe("the world's native layer", () => {
  it('deployed the forwarder and sent every ether transfer: what the forwarder was refused stays in it', async () => {
    expect(await anvil.client.getCode({ address: VALUE_FORWARDER.address })).toMatch(/^0x[0-9a-f]{100,}$/);
    // FORGE refused its 0.4 ether (no receive function) inside a transaction that succeeded.
    expect(await anvil.client.getBalance({ address: VALUE_FORWARDER.address })).toBe(400_000_000_000_000_000n);
    // Each of the layer's senders (holders, who send nothing else) sent its history's transactions and its steps of the layer.
    for (const sender of new Set(sent().map((step) => step.from))) {
      const count = [...WORLD_HISTORY.flat(), ...sent()].filter((step) => step.from === sender).length;
      expect(await anvil.client.getTransactionCount({ address: sender }), sender).toBe(count);
    }
  });

  it('a devnet made before the layer gets it at its next start, and one that has it gets nothing', async () => {
    const old = await startTestAnvil({ chainId: 31337, blockTimeSeconds: 1 });
    try {
      expect(await deployWorld(old.rpcUrl, { siteOrigin, nativeLayer: false })).toMatchObject({ status: 'installed', nativeLayer: 'left-out' });
      expect(await old.client.getCode({ address: VALUE_FORWARDER.address })).toBeUndefined();
      expect(await deployWorld(old.rpcUrl, { siteOrigin })).toMatchObject({ status: 'present', nativeLayer: 'installed', transactions: 1 + sent().length });
      expect(await old.client.getBalance({ address: VALUE_FORWARDER.address })).toBe(400_000_000_000_000_000n);
      expect(await deployWorld(old.rpcUrl, { siteOrigin })).toMatchObject({ nativeLayer: 'present', transactions: 0 });
    } finally {
      await old.stop();
    }
  });
});

const sent = () => NATIVE_HISTORY.flat();

describe('deployWorld where the world is already there', () => {
  it('sends nothing when the base URIs already point at the site', async () => {
    const before = await transactionCount();
    const nonce = await anvil.client.getTransactionCount({ address: WORLD_DEPLOYER });
    expect(await deployWorld(anvil.rpcUrl, { siteOrigin })).toEqual({
      status: 'present',
      priceLayer: 'present',
      market: 'present',
      nativeLayer: 'present',
      transactions: 0,
    });
    await anvil.client.mine({ blocks: 1 });
    expect(await transactionCount()).toBe(before);
    expect(await anvil.client.getTransactionCount({ address: WORLD_DEPLOYER })).toBe(nonce);
  });

  it('points the base URIs at a new origin, announcing it with ERC-4906 and URI events', async () => {
    const origin = 'https://crucible.example';
    const head = await anvil.client.getBlockNumber({ cacheTime: 0 });
    expect(await deployWorld(anvil.rpcUrl, { siteOrigin: `${origin}/` })).toEqual({
      status: 'present',
      priceLayer: 'present',
      market: 'present',
      nativeLayer: 'present',
      transactions: 3,
    });
    expect(await read('relics', 'tokenURI', [2n])).toBe(`${origin}/world/nft/relics/2.json`);
    expect(await read('materials', 'uri', [1n])).toBe(`${origin}/world/nft/materials/{id}.json`);
    const events = async (id: WorldContractId, abi: Abi) =>
      (await anvil.client.getLogs({ address: worldContract(id).address, fromBlock: head + 1n, toBlock: 'latest' })).map(
        (log) => decodeEventLog({ abi, ...log }).eventName,
      );
    expect(await events('relics', worldContract('relics').artifact.abi)).toEqual(['BatchMetadataUpdate']);
    expect(await events('materials', worldContract('materials').artifact.abi)).toEqual(['URI', 'URI', 'URI']);
  });

  it('refuses a devnet that holds only part of the world, naming what is missing', async () => {
    const partial = await startTestAnvil({ chainId: 31337 });
    try {
      await partial.client.setCode({ address: worldContract('forge').address, bytecode: worldContract('forge').artifact.deployedBytecode });
      const error = await deployWorld(partial.rpcUrl, { siteOrigin }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(PartialWorldError);
      expect((error as PartialWorldError).missing).toContain('cusd');
      expect((error as PartialWorldError).missing).not.toContain('forge');
    } finally {
      await partial.stop();
    }
  });
});
