import type { Kysely } from 'kysely';
import { getAddress, parseAbiItem, type Address, type Hex } from 'viem';
import { afterEach, expect } from 'vitest';
import { ARTIFACTS } from '../../../src/chain/world/artifacts.ts';
import type { DatabaseSchema } from '../../../src/db/schema.ts';
import { readCheckpoint } from '../../../src/indexer/checkpoints.ts';
import { nftsOfOwner, tokensOfHolder } from '../../../src/transfers/queries.ts';
import type { TestAnvil } from '../../support/anvil.ts';

// Tokens of every kind the indexer follows, deployed on a real anvil from the local world's
// compiled contracts, moved by anvil's unlocked dev accounts; and the index compared with what the
// chain itself says: contract reads for NFT ownership, viem's own decoding for ERC-20 holders.

type Client = TestAnvil['client'];

export interface TokenSet {
  erc20: Address;
  relics: Address;
  materials: Address;
  punks: Address;
}

/** Token ids the tests use, so ownership can be read for each. */
const RELIC_IDS = [1n, 2n, 3n, 10n, 100n];
const MATERIAL_IDS = [1n, 2n, 7n];
const PUNK_IDS = [0n, 1n, 2n, 3n];

export async function devAccounts(client: Client): Promise<Address[]> {
  return (await client.getAddresses()).map((address) => getAddress(address));
}

export async function deployTokenSet(client: Client, owner: Address): Promise<TokenSet> {
  const deploy = async (artifact: (typeof ARTIFACTS)[keyof typeof ARTIFACTS], args: readonly unknown[]) => {
    const hash = await client.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args, account: owner, chain: null });
    const receipt = await client.waitForTransactionReceipt({ hash });
    return getAddress(receipt.contractAddress!);
  };
  return {
    erc20: await deploy(ARTIFACTS.WorldToken, ['Forge', 'FRG', 18, owner, 10n ** 24n]),
    relics: await deploy(ARTIFACTS.RelicCollection, ['Relics', 'RLC', owner]),
    materials: await deploy(ARTIFACTS.MaterialCollection, ['Materials', 'MAT', owner]),
    punks: await deploy(ARTIFACTS.LegacyPunks, ['Punks', 'PNK', 10n, owner]),
  };
}

/** Sends each call from an unlocked dev account and waits for it to be mined. */
export function tokenMoves(client: Client, tokens: TokenSet) {
  const send = async (
    from: Address,
    address: Address,
    abi: (typeof ARTIFACTS)[keyof typeof ARTIFACTS]['abi'],
    functionName: string,
    args: readonly unknown[],
  ) => {
    const hash = await client.writeContract({ address, abi, functionName, args, account: from, chain: null } as never);
    const receipt = await client.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
  };
  return {
    erc20: (from: Address, to: Address, amount: bigint) => send(from, tokens.erc20, ARTIFACTS.WorldToken.abi, 'transfer', [to, amount]),
    mintRelics: (owner: Address, to: Address, ids: bigint[]) => send(owner, tokens.relics, ARTIFACTS.RelicCollection.abi, 'mint', [to, ids]),
    moveRelic: (from: Address, to: Address, id: bigint) => send(from, tokens.relics, ARTIFACTS.RelicCollection.abi, 'transferFrom', [from, to, id]),
    mintMaterials: (owner: Address, to: Address, ids: bigint[], amounts: bigint[]) =>
      send(owner, tokens.materials, ARTIFACTS.MaterialCollection.abi, 'mintBatch', [to, ids, amounts]),
    moveMaterial: (from: Address, to: Address, id: bigint, amount: bigint) =>
      send(from, tokens.materials, ARTIFACTS.MaterialCollection.abi, 'safeTransferFrom', [from, to, id, amount, '0x']),
    assignPunks: (owner: Address, to: Address, ids: bigint[]) =>
      send(owner, tokens.punks, ARTIFACTS.LegacyPunks.abi, 'setInitialOwners', [ids.map(() => to), ids]),
    movePunk: (from: Address, to: Address, id: bigint) => send(from, tokens.punks, ARTIFACTS.LegacyPunks.abi, 'transferPunk', [to, id]),
  };
}

/** Each account's NFTs as the chain's contracts say, sorted like the index's default order. */
async function chainNfts(client: Client, tokens: TokenSet, accounts: readonly Address[]): Promise<Map<Address, string[]>> {
  const held = new Map<Address, string[]>(accounts.map((account) => [account, []]));
  const add = (owner: string, contract: Address, id: bigint, balance: bigint) =>
    held.get(getAddress(owner))?.push(`${contract.toLowerCase()}:${id}:${balance}`);
  for (const id of RELIC_IDS) {
    const owner = await client
      .readContract({ address: tokens.relics, abi: ARTIFACTS.RelicCollection.abi, functionName: 'ownerOf', args: [id] })
      .catch(() => null);
    if (owner) add(owner as Address, tokens.relics, id, 1n);
  }
  for (const id of PUNK_IDS) {
    const owner = (await client.readContract({
      address: tokens.punks,
      abi: ARTIFACTS.LegacyPunks.abi,
      functionName: 'punkIndexToAddress',
      args: [id],
    })) as Address;
    if (owner !== '0x0000000000000000000000000000000000000000') add(owner, tokens.punks, id, 1n);
  }
  for (const account of accounts) {
    for (const id of MATERIAL_IDS) {
      const balance = (await client.readContract({
        address: tokens.materials,
        abi: ARTIFACTS.MaterialCollection.abi,
        functionName: 'balanceOf',
        args: [account, id],
      })) as bigint;
      if (balance > 0n) add(account, tokens.materials, id, balance);
    }
  }
  for (const list of held.values()) list.sort();
  return held;
}

/**
 * The contracts whose ERC-20-shaped Transfer named each account, as viem decodes the chain's logs;
 * not the punks', whose Transfer counts the punk its PunkTransfer moves.
 */
async function chainErc20Contracts(client: Client, tokens: TokenSet, accounts: readonly Address[]): Promise<Map<Address, string[]>> {
  const logs = await client.getLogs({
    event: parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)'),
    fromBlock: 0n,
    toBlock: 'latest',
    strict: true,
  });
  const touched = new Map<Address, Set<string>>(accounts.map((account) => [account, new Set()]));
  for (const log of logs) {
    if (getAddress(log.address) === getAddress(tokens.punks)) continue;
    for (const side of [log.args.from, log.args.to]) touched.get(getAddress(side))?.add(log.address.toLowerCase());
  }
  return new Map([...touched].map(([account, contracts]) => [account, [...contracts].sort()]));
}

/** The index agrees with the chain for every account: NFTs owned, ERC-20 contracts held or sent. */
export async function expectIndexMatchesChain(db: Kysely<DatabaseSchema>, network: string, client: Client, tokens: TokenSet, accounts: readonly Address[]) {
  const [nfts, contracts] = await Promise.all([chainNfts(client, tokens, accounts), chainErc20Contracts(client, tokens, accounts)]);
  for (const account of accounts) {
    const page = await nftsOfOwner(db, network, account, { limit: 100 });
    const indexed = page.nfts.map((nft) => `${nft.contract.toLowerCase()}:${nft.tokenId}:${nft.balance}`).sort();
    expect({ account, nfts: indexed }).toEqual({ account, nfts: nfts.get(account) });
    const held = (await tokensOfHolder(db, network, account, { limit: 100 })).map((contract) => contract.toLowerCase());
    expect({ account, erc20: held }).toEqual({ account, erc20: contracts.get(account) });
  }
}

/** Resolves once the network's checkpoint is the node's head block, by number and hash (the index caught up with this chain). */
export async function waitForIndexed(db: Kysely<DatabaseSchema>, network: string, client: Client): Promise<void> {
  await waitFor(async () => {
    // No cached head: viem keeps a block number for seconds by default.
    const head = await client.getBlock({ blockTag: 'latest' });
    const checkpoint = await readCheckpoint(db, network);
    return checkpoint?.block?.number === Number(head.number) && checkpoint.block.hash.toLowerCase() === (head.hash as Hex).toLowerCase();
  });
}

/** Polls `condition` until it holds (the test's own timeout bounds the wait). */
export async function waitFor(condition: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** Registers a step to undo after the test; the steps run after each test, last first. */
export function cleanupAfterEach(): (step: () => Promise<unknown>) => void {
  const steps: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const step of steps.reverse()) await step();
    steps.length = 0;
  });
  return (step) => void steps.push(step);
}
