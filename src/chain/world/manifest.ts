import { encodeDeployData, getAddress, getContractAddress, keccak256, parseUnits, stringToHex, toHex, type Address, type Hex } from 'viem';
import { MULTICALL3_ADDRESS } from '../multicall3.ts';
import { WORLD_DEPLOYER } from './actors.ts';
import { ARTIFACTS, type ContractArtifact } from './artifacts.ts';

// The local world's contracts: the one table that says what is deployed
// on every local devnet, with what arguments, and why. Addresses are computed from it, here only.

type WorldContractKind = 'erc20' | 'erc721' | 'erc1155' | 'legacy-nft' | 'multicall';

/** Multicall3's canonical address, which the world installs; read here with the rest of the world (docs, tests). */
export { MULTICALL3_ADDRESS };

/** The deterministic CREATE2 deployer anvil ships at genesis: `salt ++ initCode` in, the contract out. */
export const CREATE2_DEPLOYER: Address = '0x4e59b44847b379578588920ca78fbf26c0b4956c';

interface WorldContractEntry {
  id: string;
  kind: WorldContractKind;
  artifact: keyof typeof ARTIFACTS;
  /** Constructor arguments. */
  args: readonly unknown[];
  /** What it is for, in a sentence. */
  purpose: string;
  /** ERC-20s: the supply, all minted to the deployer at construction, and its decimals (null: the token has no `decimals`). */
  erc20?: { supply: bigint; decimals: number | null };
  /** Collections with hosted metadata: the folder under /world/nft/ their base URI points at (public/world/nft/<collection>/). */
  collection?: string;
}

export interface WorldContract extends Omit<WorldContractEntry, 'artifact'> {
  id: WorldContractId;
  artifact: ContractArtifact;
  address: Address;
  /** CREATE2 through CREATE2_DEPLOYER with this salt, or the runtime code set at a canonical address (anvil_setCode). */
  install: { via: 'create2'; salt: Hex; initCode: Hex } | { via: 'set-code' };
}

/**
 * An ERC-20 row. Every world token's constructor ends with (holder, supply), and the whole supply
 * goes to the deployer; `whole` is in whole tokens (raw units at 18 places for a token without decimals).
 */
const erc20 = (artifact: WorldContractEntry['artifact'], leadingArgs: readonly unknown[], whole: string, decimals: number | null) => {
  const supply = parseUnits(whole, decimals ?? 18);
  return { kind: 'erc20', artifact, args: [...leadingArgs, WORLD_DEPLOYER, supply], erc20: { supply, decimals } } as const;
};

const TABLE = [
  {
    id: 'multicall3',
    kind: 'multicall',
    artifact: 'Multicall3',
    args: [],
    purpose: 'Multicall3 at its canonical address, as on public chains: many calls read at one block in one eth_call (aggregate3).',
  },
  {
    id: 'forge',
    ...erc20('WorldToken', ['Forge', 'FORGE', 18], '1000000', 18),
    purpose: 'An ERC-20 with 18 decimals (OpenZeppelin).',
  },
  {
    id: 'cusd',
    ...erc20('WorldToken', ['Crucible USD', 'cUSD', 6], '1000000000', 6),
    purpose: 'A USDC-like ERC-20 with 6 decimals.',
  },
  {
    id: 'ember',
    ...erc20('Bytes32MetadataToken', [stringToHex('Ember', { size: 32 }), stringToHex('EMBR', { size: 32 })], '500000', 18),
    purpose: 'An ERC-20 whose name() and symbol() return bytes32, as MKR does.',
  },
  {
    id: 'bare',
    ...erc20('NoMetadataToken', [], '1000000', null),
    purpose: 'An ERC-20-like token with no name, symbol or decimals function at all.',
  },
  {
    id: 'slag',
    ...erc20('RevertingBalanceToken', ['Slag', 'SLAG'], '250000', 18),
    purpose: 'An ERC-20 whose balanceOf reverts for every holder address ending in the byte 0xff.',
  },
  {
    id: 'relics',
    kind: 'erc721',
    artifact: 'RelicCollection',
    args: ['Crucible Relics', 'RELIC', WORLD_DEPLOYER],
    collection: 'relics',
    purpose:
      'An ERC-721 collection: tokens below 100 have hosted JSON metadata and images (baseURI + id + .json), tokens from 100 on data: URIs built on-chain.',
  },
  {
    id: 'materials',
    kind: 'erc1155',
    artifact: 'MaterialCollection',
    args: ['Crucible Materials', 'MAT', WORLD_DEPLOYER],
    collection: 'materials',
    purpose: 'An ERC-1155 collection whose uri(id) is a hosted template with {id} in it.',
  },
  {
    id: 'punks',
    kind: 'legacy-nft',
    artifact: 'LegacyPunks',
    args: ['Crucible Punks', 'CPUNK', 1000n, WORLD_DEPLOYER],
    purpose: 'A CryptoPunks-style NFT from before ERC-721: punkIndexToAddress, Assign and PunkTransfer events, no metadata.',
  },
  {
    id: 'airdrop',
    kind: 'erc721',
    artifact: 'AirdropCollection',
    args: ['Drop Pass', 'DROP', WORLD_DEPLOYER],
    collection: 'airdrop',
    purpose: 'A mass-airdropped ERC-721: one transaction minted a token to each of 500 addresses that never asked for it (the shape of NFT spam).',
  },
] as const satisfies readonly WorldContractEntry[];

export type WorldContractId = (typeof TABLE)[number]['id'];
/** The world's ERC-20s (its wrapped ether comes with the price layer, price-layer.ts). */
export type Erc20Id = Extract<(typeof TABLE)[number], { kind: 'erc20' }>['id'];

/** Every contract of the world, in deployment order. */
export const WORLD_CONTRACTS: readonly WorldContract[] = TABLE.map((entry: WorldContractEntry) => {
  const artifact = ARTIFACTS[entry.artifact];
  const common = { ...entry, id: entry.id as WorldContractId, artifact };
  if (entry.kind === 'multicall') return { ...common, address: MULTICALL3_ADDRESS, install: { via: 'set-code' } };
  return { ...common, ...create2Install(entry.id, artifact, entry.args) };
});

/** Where the world's contract `id` lands when CREATE2_DEPLOYER creates it with these constructor arguments, and how to send it. */
export function create2Install(id: string, artifact: ContractArtifact, args: readonly unknown[]) {
  const salt = keccak256(toHex(`crucible:world:${id}`));
  const initCode = encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args });
  const address = getAddress(getContractAddress({ opcode: 'CREATE2', from: CREATE2_DEPLOYER, salt, bytecode: initCode }));
  return { address, install: { via: 'create2' as const, salt, initCode } };
}

const byId = new Map(WORLD_CONTRACTS.map((contract) => [contract.id, contract]));

export function worldContract(id: WorldContractId): WorldContract {
  return byId.get(id)!;
}

/** Each contract's address by id: what docs and tests read. */
export const WORLD_ADDRESSES = Object.fromEntries(WORLD_CONTRACTS.map(({ id, address }) => [id, address])) as Record<WorldContractId, Address>;
