import { createPublicClient, erc20Abi, getAddress, http, zeroAddress, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_WALLET, WORLD_DEPLOYER, WORLD_HOLDERS } from '../../../src/chain/world/actors.ts';
import { worldHoldings } from '../../../src/chain/world/history.ts';
import { WORLD_ADDRESSES } from '../../../src/chain/world/manifest.ts';
import { getTokenBalances, type TokenBalancesResult } from '../../../src/tokens/balances.ts';
import { MulticallError } from '../../../src/chain/multicall-reads.ts';
import { TokenParamsError } from '../../../src/node/rpc/methods/token-params.ts';
import { ContractReadError } from '../../../src/chain/contract-reader.ts';
import { viemTokenChain } from '../../../src/tokens/viem-chain.ts';
import { randomAddress, startTestAnvil } from '../../support/anvil.ts';
import { startWorldChain } from './world-chain.ts';

// crucible_getTokenBalances on a devnet with the local world (docs/token-data.md#crucible_gettokenbalances): every balance checked
// against viem's readContract at the answer's block, one eth_call per answer counted at the proxy.

const { forge, cusd, ember, bare, slag } = WORLD_ADDRESSES;
const erc20s = [forge, cusd, ember, bare, slag];
const lower = (address: Address) => address.toLowerCase() as Address;

let world: Awaited<ReturnType<typeof startWorldChain>>;
beforeAll(async () => {
  world = await startWorldChain();
});
afterAll(() => world?.stop());

/** Every balance of the answer against readContract at `blockNumber`: equal where read, reverting where not. */
async function crossCheck(answer: TokenBalancesResult, blockNumber: bigint) {
  for (const entry of answer.tokenBalances) {
    const read = world.direct.readContract({ address: entry.contractAddress, abi: erc20Abi, functionName: 'balanceOf', args: [answer.address], blockNumber });
    if (entry.tokenBalance === null) await expect(read).rejects.toThrow();
    else expect(BigInt(entry.tokenBalance)).toBe(await read);
  }
}

describe('a list of contracts', () => {
  it("reads the demo wallet's balances in one eth_call, in the order asked, duplicates kept, each as readContract reads it", async () => {
    world.take();
    const blockNumber = await world.direct.getBlockNumber();
    const asked = [cusd, forge, ember, bare, slag, forge];
    const answer = await getTokenBalances(world.chain, world.index, [DEMO_WALLET, asked]);
    expect(world.take()).toEqual({ eth_blockNumber: 1, eth_call: 1 });
    expect(answer.address).toBe(lower(DEMO_WALLET));
    expect(answer.pageKey).toBeUndefined();
    expect(answer.tokenBalances.map((entry) => entry.contractAddress)).toEqual(asked.map(lower));
    for (const entry of answer.tokenBalances) {
      expect(entry.error).toBeNull();
      expect(entry.tokenBalance).toMatch(/^0x[0-9a-f]{64}$/);
    }
    await crossCheck(answer, blockNumber);
    // And against what the world's history says the wallet holds.
    const held = worldHoldings().get(getAddress(DEMO_WALLET))!.erc20;
    expect(answer.tokenBalances.map((entry) => BigInt(entry.tokenBalance!))).toEqual([held.cusd, held.forge, held.ember, held.bare, held.slag, held.forge]);
  });

  it('gives the reverting token an error for its documented holder and a balance for the others', async () => {
    const { fay, ada } = WORLD_HOLDERS;
    expect(fay.toLowerCase().endsWith('ff')).toBe(true);
    const forFay = await getTokenBalances(world.chain, world.index, [fay, [slag, cusd]]);
    expect(forFay.tokenBalances[0]).toEqual({
      contractAddress: lower(slag),
      tokenBalance: null,
      error: expect.stringMatching(/^the contract reverted balanceOf/),
    });
    expect(forFay.tokenBalances[1]!.error).toBeNull();
    expect(BigInt(forFay.tokenBalances[1]!.tokenBalance!)).toBe(worldHoldings().get(getAddress(fay))!.erc20.cusd);
    const forAda = await getTokenBalances(world.chain, world.index, [ada, [slag]]);
    expect(forAda.tokenBalances[0]!.error).toBeNull();
    expect(BigInt(forAda.tokenBalances[0]!.tokenBalance!)).toBe(worldHoldings().get(getAddress(ada))!.erc20.slag);
  });

  it('answers "not a contract" for an address without code, still in one eth_call', async () => {
    const eoa = randomAddress();
    world.take();
    const answer = await getTokenBalances(world.chain, world.index, [DEMO_WALLET, [forge, eoa, WORLD_DEPLOYER]]);
    expect(world.take()).toMatchObject({ eth_call: 1 });
    expect(answer.tokenBalances.slice(1)).toEqual([
      { contractAddress: lower(eoa), tokenBalance: null, error: 'not a contract: no code at this address' },
      { contractAddress: lower(WORLD_DEPLOYER), tokenBalance: null, error: 'not a contract: no code at this address' },
    ]);
    expect(answer.tokenBalances[0]!.error).toBeNull();
  });

  it('says why a contract without a fitting balanceOf has no balance: it reverted, answered nothing, or too little', async () => {
    // Real code on the devnet: STOP (answers nothing), and RETURN of one byte.
    const silent = randomAddress();
    const short = randomAddress();
    await world.direct.setCode({ address: silent, bytecode: '0x00' });
    await world.direct.setCode({ address: short, bytecode: '0x60016000f3' });
    const answer = await getTokenBalances(world.chain, world.index, [DEMO_WALLET, [WORLD_ADDRESSES.multicall3, silent, short]]);
    expect(answer.tokenBalances.map((entry) => [entry.tokenBalance, entry.error])).toEqual([
      [null, 'the contract reverted balanceOf'],
      [null, 'bad answer: balanceOf returned 0 bytes, not a 32-byte uint256'],
      [null, 'bad answer: balanceOf returned 1 byte, not a 32-byte uint256'],
    ]);
  });

  it('reads 100 contracts in one eth_call and refuses 101, and a bad address, before reading anything', async () => {
    const hundred = Array.from({ length: 100 }, (_, i) => erc20s[i % erc20s.length]!);
    world.take();
    const answer = await getTokenBalances(world.chain, world.index, [DEMO_WALLET, hundred]);
    expect(world.take()).toEqual({ eth_blockNumber: 1, eth_call: 1 });
    expect(answer.tokenBalances).toHaveLength(100);
    expect(answer.tokenBalances.filter((entry) => entry.tokenBalance === null)).toHaveLength(0);

    await expect(getTokenBalances(world.chain, world.index, [DEMO_WALLET, [...hundred, forge]])).rejects.toThrow(
      new TokenParamsError('[1] spec', 'must list at most 100 contract addresses'),
    );
    await expect(getTokenBalances(world.chain, world.index, ['0xdemo', [forge]])).rejects.toBeInstanceOf(TokenParamsError);
    await expect(getTokenBalances(world.chain, world.index, [DEMO_WALLET, [forge, '0x12']])).rejects.toThrow('[1] spec[1] must be a 20-byte address');
    expect(world.take()).toEqual({});
  });
});

describe('NATIVE_TOKEN', () => {
  it('is one entry with the zero address, the native balance, and no eth_call', async () => {
    world.take();
    const answer = await getTokenBalances(world.chain, world.index, [WORLD_HOLDERS.ada, 'NATIVE_TOKEN']);
    expect(world.take()).toEqual({ eth_blockNumber: 1, eth_getBalance: 1 });
    expect(answer.tokenBalances).toEqual([{ contractAddress: zeroAddress, tokenBalance: expect.stringMatching(/^0x[0-9a-f]{64}$/), error: null }]);
    expect(BigInt(answer.tokenBalances[0]!.tokenBalance!)).toBe(await world.direct.getBalance({ address: WORLD_HOLDERS.ada }));
  });
});

describe('"erc20" from the transfer index', () => {
  it('lists every ERC-20 the address ever received or sent, zero balances included, in pages that join up', async () => {
    const { cai } = WORLD_HOLDERS;
    const indexed = async (holder: Address) => (await world.index.tokensOfHolder(holder, { limit: 100 })).map(lower);
    const all = await getTokenBalances(world.chain, world.index, [cai]);
    expect(all.pageKey).toBeUndefined();
    expect(all.tokenBalances.map((entry) => entry.contractAddress)).toEqual(await indexed(cai));
    expect(all.tokenBalances.map((entry) => entry.contractAddress)).toEqual(expect.arrayContaining([forge, cusd, ember].map(lower)));
    // cai gave away all its FORGE: the token is still listed, at zero.
    expect(all.tokenBalances.find((entry) => entry.contractAddress === lower(forge))!.tokenBalance).toBe(`0x${'0'.repeat(64)}`);
    await crossCheck(all, await world.direct.getBlockNumber());

    const demoAll = await getTokenBalances(world.chain, world.index, [DEMO_WALLET, 'erc20']);
    expect(demoAll.tokenBalances.map((entry) => entry.contractAddress)).toEqual(await indexed(DEMO_WALLET));
    // Its five ERC-20s and nothing else: not the punks, whose transferPunk also logs an ERC-20-shaped Transfer.
    expect(demoAll.tokenBalances.map((entry) => entry.contractAddress)).toEqual(erc20s.map(lower).sort());
    const pages: TokenBalancesResult[] = [];
    let pageKey: string | undefined;
    do {
      world.take();
      const page = await getTokenBalances(world.chain, world.index, [DEMO_WALLET, 'erc20', { maxCount: 2, ...(pageKey && { pageKey }) }]);
      expect(world.take()).toEqual({ eth_blockNumber: 1, eth_call: 1 });
      pages.push(page);
      pageKey = page.pageKey;
    } while (pageKey !== undefined);
    const total = demoAll.tokenBalances.length;
    expect(pages.map((page) => page.tokenBalances.length)).toEqual(Array.from({ length: Math.ceil(total / 2) }, (_, i) => Math.min(2, total - 2 * i)));
    expect(pages.flatMap((page) => page.tokenBalances)).toEqual(demoAll.tokenBalances);
  });

  it("leaves out a token whose balance cannot be read (alchemy-sdk's getTokensForOwner fails on a null one); a list keeps it with its error", async () => {
    const { fay } = WORLD_HOLDERS;
    // fay received SLAG and cUSD; SLAG's balanceOf reverts for it.
    expect(await world.index.tokensOfHolder(fay, { limit: 100 })).toEqual(expect.arrayContaining([getAddress(slag), getAddress(cusd)]));
    const listing = await getTokenBalances(world.chain, world.index, [fay, 'erc20']);
    expect(listing.tokenBalances.map((entry) => entry.contractAddress)).toContain(lower(cusd));
    expect(listing.tokenBalances.map((entry) => entry.contractAddress)).not.toContain(lower(slag));
    expect(listing.tokenBalances.every((entry) => entry.tokenBalance !== null && entry.error === null)).toBe(true);
    const asked = await getTokenBalances(world.chain, world.index, [fay, [slag]]);
    expect(asked.tokenBalances).toEqual([
      { contractAddress: lower(slag), tokenBalance: null, error: expect.stringMatching(/^the contract reverted balanceOf/) },
    ]);
  });

  it('answers an empty list for an address that never held a token, without an eth_call', async () => {
    world.take();
    expect(await getTokenBalances(world.chain, world.index, [randomAddress()])).toMatchObject({ tokenBalances: [] });
    expect(world.take().eth_call).toBeUndefined();
  });

  it('refuses a pageKey it did not give, naming it', async () => {
    await expect(getTokenBalances(world.chain, world.index, [DEMO_WALLET, 'erc20', { pageKey: 'not-a-key' }])).rejects.toThrow(
      new TokenParamsError('[2] options.pageKey', 'must be the pageKey of an earlier answer of this method'),
    );
  });
});

describe('node failures', () => {
  it('fail the whole answer: no Multicall3, or no node', async () => {
    const empty = await startTestAnvil({ chainId: 7357002 });
    try {
      const chain = viemTokenChain(createPublicClient({ transport: http(empty.rpcUrl, { retryCount: 0 }) }));
      await expect(getTokenBalances(chain, world.index, [DEMO_WALLET, [forge]])).rejects.toThrow(
        new MulticallError('Multicall3 is not deployed at 0xcA11bde05977b3631167028862bE2a173976CA11 on this network at block 0'),
      );
    } finally {
      await empty.stop();
    }
    const gone = viemTokenChain(createPublicClient({ transport: http(empty.rpcUrl, { retryCount: 0 }) }));
    const failure = await getTokenBalances(gone, world.index, [DEMO_WALLET, [forge]]).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ContractReadError);
    expect((failure as ContractReadError).failure.kind).toBe('unavailable');
  });
});
