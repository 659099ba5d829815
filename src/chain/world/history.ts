import { encodeFunctionData, getAddress, parseUnits, type Address, type Hex } from 'viem';
import { airdropRecipients, DEMO_WALLET, WORLD_DEPLOYER, WORLD_HOLDERS } from './actors.ts';
import { worldContract, type Erc20Id, type WorldContractId } from './manifest.ts';
import { marketMoves } from './market.ts';
import { WORLD_POOLS, type WorldErc20Id } from './price-layer.ts';

// What happens on the local world after its contracts are deployed: the hand-outs from the
// deployer, then trades among the holders and the demo wallet, so the transfer index has history
// (including a token held once and now at zero). Data first; the calls and the resulting holdings
// are derived from it, so docs and tests read the same facts the devnets are given.

export type { Erc20Id };
/** Collections whose tokens are single items: ERC-721s and the legacy NFT. */
type ItemCollectionId = 'relics' | 'punks' | 'airdrop';
export type HostedCollectionId = 'relics' | 'materials' | 'airdrop';

export type WorldStep = { from: Address } & (
  | { action: 'erc20-transfer'; token: Erc20Id; to: Address; amount: bigint }
  | { action: 'relic-mint'; to: Address; ids: bigint[] }
  | { action: 'relic-transfer'; to: Address; id: bigint }
  | { action: 'material-mint'; to: Address; ids: bigint[]; amounts: bigint[] }
  | { action: 'material-transfer'; to: Address; id: bigint; amount: bigint }
  | { action: 'punk-assign'; to: Address; ids: bigint[] }
  | { action: 'punk-transfer'; to: Address; id: bigint }
  | { action: 'airdrop'; recipients: Address[] }
  | { action: 'set-base-uri'; collection: HostedCollectionId; uri: string }
);

/** How many addresses the airdrop collection's one `airdrop` transaction mints to (the demo wallet is the first). */
export const AIRDROP_SIZE = 500;

const { ada, ben, cai, fay } = WORLD_HOLDERS;
const demo = DEMO_WALLET;
const deployer = WORLD_DEPLOYER;

/** Whole tokens in the token's units; a token without decimals takes raw units written at 18 places, as its supply is. */
const units = (token: Erc20Id, amount: string): bigint => parseUnits(amount, worldContract(token).erc20!.decimals ?? 18);
const give = (token: Erc20Id, to: Address, amount: string): WorldStep => ({
  from: deployer,
  action: 'erc20-transfer',
  token,
  to,
  amount: units(token, amount),
});
const send = (token: Erc20Id, from: Address, to: Address, amount: string): WorldStep => ({
  from,
  action: 'erc20-transfer',
  token,
  to,
  amount: units(token, amount),
});

/**
 * The world's history in rounds. Each round is mined before the next starts; within a round a
 * sender's steps keep their order, but no step may depend on another step of the same round.
 */
export const WORLD_HISTORY: readonly (readonly WorldStep[])[] = [
  [
    give('forge', demo, '1250.5'),
    give('forge', ada, '10000'),
    give('forge', ben, '5000'),
    give('forge', cai, '300'),
    give('cusd', demo, '2500.75'),
    give('cusd', ada, '100000'),
    give('cusd', ben, '40'),
    give('cusd', fay, '12.5'),
    give('ember', demo, '42'),
    give('ember', ada, '1000'),
    give('ember', cai, '77'),
    give('bare', demo, '500'),
    give('bare', ben, '1000'),
    give('slag', demo, '64'),
    give('slag', fay, '900'),
    give('slag', ada, '10'),
    { from: deployer, action: 'relic-mint', to: demo, ids: [1n, 2n, 3n, 100n] },
    { from: deployer, action: 'relic-mint', to: ada, ids: [4n, 5n, 101n] },
    { from: deployer, action: 'relic-mint', to: ben, ids: [6n, 102n] },
    { from: deployer, action: 'material-mint', to: demo, ids: [1n, 2n, 3n], amounts: [10n, 250n, 1n] },
    { from: deployer, action: 'material-mint', to: ada, ids: [1n, 2n], amounts: [5n, 40n] },
    { from: deployer, action: 'material-mint', to: ben, ids: [3n], amounts: [2n] },
    { from: deployer, action: 'punk-assign', to: demo, ids: [0n, 1n] },
    { from: deployer, action: 'punk-assign', to: ada, ids: [2n] },
    { from: deployer, action: 'punk-assign', to: ben, ids: [3n] },
    { from: deployer, action: 'punk-assign', to: cai, ids: [4n] },
    { from: deployer, action: 'airdrop', recipients: [demo, ...airdropRecipients(AIRDROP_SIZE - 1)] },
  ],
  [
    send('forge', ada, ben, '2500'),
    // cai gives away all it had: a token once held, now at zero.
    send('forge', cai, ben, '300'),
    send('forge', demo, ada, '0.5'),
    send('cusd', ben, cai, '15'),
    send('ember', cai, ada, '7'),
    // fay's balanceOf reverts, but its transfers work.
    send('slag', fay, ada, '100'),
    { from: ada, action: 'relic-transfer', to: demo, id: 4n },
    { from: demo, action: 'relic-transfer', to: ben, id: 3n },
    { from: ada, action: 'material-transfer', to: demo, id: 2n, amount: 15n },
    { from: demo, action: 'material-transfer', to: cai, id: 1n, amount: 3n },
    { from: ada, action: 'punk-transfer', to: demo, id: 2n },
    { from: demo, action: 'punk-transfer', to: cai, id: 1n },
  ],
];

const contractOf = (step: WorldStep): WorldContractId => {
  switch (step.action) {
    case 'erc20-transfer':
      return step.token;
    case 'relic-mint':
    case 'relic-transfer':
      return 'relics';
    case 'material-mint':
    case 'material-transfer':
      return 'materials';
    case 'punk-assign':
    case 'punk-transfer':
      return 'punks';
    case 'airdrop':
      return 'airdrop';
    case 'set-base-uri':
      return step.collection;
  }
};

const callArguments = (step: WorldStep): { functionName: string; args: readonly unknown[] } => {
  switch (step.action) {
    case 'erc20-transfer':
      return { functionName: 'transfer', args: [step.to, step.amount] };
    case 'relic-mint':
      return { functionName: 'mint', args: [step.to, step.ids] };
    case 'relic-transfer':
      return { functionName: 'transferFrom', args: [step.from, step.to, step.id] };
    case 'material-mint':
      return { functionName: 'mintBatch', args: [step.to, step.ids, step.amounts] };
    case 'material-transfer':
      return { functionName: 'safeTransferFrom', args: [step.from, step.to, step.id, step.amount, '0x'] };
    case 'punk-assign':
      return { functionName: 'setInitialOwners', args: [step.ids.map(() => step.to), step.ids] };
    case 'punk-transfer':
      return { functionName: 'transferPunk', args: [step.to, step.id] };
    case 'airdrop':
      return { functionName: 'airdrop', args: [step.recipients] };
    case 'set-base-uri':
      return { functionName: 'setBaseURI', args: [step.uri] };
  }
};

export interface WorldCall {
  from: Address;
  to: Address;
  data: Hex;
  /** Wei sent with the call (a WETH deposit); none when absent. */
  value?: bigint;
  /** For errors: which step this is. */
  label: string;
}

/** The transaction a step sends. */
export function stepCall(step: WorldStep): WorldCall {
  const contract = worldContract(contractOf(step));
  const { functionName, args } = callArguments(step);
  return {
    from: step.from,
    to: contract.address,
    data: encodeFunctionData({ abi: contract.artifact.abi, functionName, args }),
    label: `${contract.id}.${functionName} from ${step.from}`,
  };
}

export interface Holdings {
  /** ERC-20 balances by token (pools' liquidity tokens by pool id); a token once held and given away is listed at zero. */
  erc20: Partial<Record<WorldErc20Id, bigint>>;
  /** Token ids held, by collection (ERC-721s and the legacy NFT), ascending. */
  items: Partial<Record<ItemCollectionId, bigint[]>>;
  /** ERC-1155 balances of the materials collection, by id. */
  materials: Map<bigint, bigint>;
}

/**
 * What every address holds once the world is installed: the ERC-20 supplies start with the deployer,
 * the history runs, then the price layer's pools are seeded (the deployer wraps the ether of the
 * WETH seed, sends each pair its seeds and gets its liquidity tokens; the zero address, which holds
 * each pair's locked minimum liquidity, is left out), then the marketplace's history moves what it
 * sells and the ERC-20s its buyers pay with (market.ts; ether is not counted).
 */
export function worldHoldings(): Map<Address, Holdings> {
  const holdings = new Map<Address, Holdings>();
  const of = (address: Address): Holdings => {
    const key = getAddress(address);
    let held = holdings.get(key);
    if (!held) holdings.set(key, (held = { erc20: {}, items: {}, materials: new Map() }));
    return held;
  };
  const addErc20 = (address: Address, token: WorldErc20Id, amount: bigint) => {
    const held = of(address);
    held.erc20[token] = (held.erc20[token] ?? 0n) + amount;
  };
  const moveItem = (collection: ItemCollectionId, from: Address | null, to: Address, id: bigint) => {
    if (from) of(from).items[collection] = of(from).items[collection]!.filter((held) => held !== id);
    const held = of(to);
    held.items[collection] = [...(held.items[collection] ?? []), id].sort((a, b) => (a < b ? -1 : 1));
  };
  const addMaterial = (address: Address, id: bigint, amount: bigint) => {
    const held = of(address).materials;
    held.set(id, (held.get(id) ?? 0n) + amount);
  };

  for (const id of ['forge', 'cusd', 'ember', 'bare', 'slag'] as const) addErc20(deployer, id, worldContract(id).erc20!.supply);
  for (const step of WORLD_HISTORY.flat()) {
    switch (step.action) {
      case 'erc20-transfer':
        addErc20(step.from, step.token, -step.amount);
        addErc20(step.to, step.token, step.amount);
        break;
      case 'relic-mint':
        for (const id of step.ids) moveItem('relics', null, step.to, id);
        break;
      case 'relic-transfer':
        moveItem('relics', step.from, step.to, step.id);
        break;
      case 'material-mint':
        for (const [i, id] of step.ids.entries()) addMaterial(step.to, id, step.amounts[i]!);
        break;
      case 'material-transfer':
        addMaterial(step.from, step.id, -step.amount);
        addMaterial(step.to, step.id, step.amount);
        break;
      case 'punk-assign':
        for (const id of step.ids) moveItem('punks', null, step.to, id);
        break;
      case 'punk-transfer':
        moveItem('punks', step.from, step.to, step.id);
        break;
      case 'airdrop':
        for (const [i, to] of step.recipients.entries()) moveItem('airdrop', null, to, BigInt(i + 1));
        break;
      case 'set-base-uri':
        break;
    }
  }
  for (const pool of WORLD_POOLS) {
    for (const [token, seed] of [[pool.token0, pool.seed0] as const, [pool.token1, pool.seed1] as const]) {
      if (token === 'weth') addErc20(deployer, token, seed);
      addErc20(deployer, token, -seed);
      addErc20(pool.address, token, seed);
    }
    addErc20(deployer, pool.id, firstLiquidity(pool.seed0, pool.seed1));
  }
  for (const move of marketMoves()) {
    if (move.kind === 'item') moveItem(move.collection, move.from, move.to, move.tokenId);
    else if (move.kind === 'material') {
      addMaterial(move.from, move.tokenId, -move.amount);
      addMaterial(move.to, move.tokenId, move.amount);
    } else {
      addErc20(move.from, move.token, -move.amount);
      addErc20(move.to, move.token, move.amount);
    }
  }
  return holdings;
}

/** UniswapV2Pair.mint's liquidity for a pair's first deposit: √(amount0 · amount1) rounded down, less the MINIMUM_LIQUIDITY it locks. */
export function firstLiquidity(amount0: bigint, amount1: bigint): bigint {
  return integerSqrt(amount0 * amount1) - 1000n;
}

/** ⌊√n⌋ by Newton's method, as Uniswap's Math.sqrt. */
function integerSqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = n;
  let y = (x + 1n) / 2n;
  while (y < x) {
    x = y;
    y = (x + n / x) / 2n;
  }
  return x;
}
