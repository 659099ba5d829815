import { encodePacked, getAddress, getContractAddress, keccak256, parseUnits, type Address } from 'viem';
import { WORLD_DEPLOYER } from './actors.ts';
import { ARTIFACTS, type ContractArtifact } from './artifacts.ts';
import { create2Install, type Erc20Id, WORLD_CONTRACTS, worldContract } from './manifest.ts';

// The world's price layer (docs/prices.md#sources): what the price sampler reads on a
// local devnet. Real Uniswap V2 pools (@uniswap/v2-core's published factory and pair) seeded with
// liquidity by the world deployer, and feeds written against Chainlink's AggregatorV3Interface. The
// one table of its contracts, pools and feeds; addresses are computed from it, here only. deployWorld
// installs it as a layer of its own, so a devnet made before it gets it at its next start.

/** Every ERC-20 of the world: the manifest's, and the wrapped ether the pools trade. */
export type WorldTokenId = Erc20Id | 'weth';

/** Chainlink's USD feeds answer with 8 decimals. */
export const FEED_DECIMALS = 8;

export interface WorldPriceContract {
  id: 'weth' | 'uniswap-v2-factory' | WorldFeedId;
  artifact: ContractArtifact;
  address: Address;
  install: ReturnType<typeof create2Install>['install'];
  /** What it is for, in a sentence. */
  purpose: string;
}

const FEED_TABLE = [
  { id: 'eth-usd', token: 'weth', description: 'ETH / USD', answer: '3000' },
  { id: 'cusd-usd', token: 'cusd', description: 'cUSD / USD', answer: '1.00' },
  { id: 'forge-usd', token: 'forge', description: 'FORGE / USD', answer: '2.50' },
] as const satisfies readonly { id: string; token: WorldTokenId; description: string; answer: string }[];

/**
 * The pools and what the deployer seeds each with, in whole tokens. Each pool's price is the ratio
 * of its seeds: 3000 cUSD per WETH, 2.5 cUSD per FORGE, 1.2 cUSD per EMBR, 0.1 FORGE per SLAG (SLAG
 * is priced through FORGE, which is priced in cUSD).
 */
const POOL_TABLE = [
  { id: 'weth-cusd', seeds: { weth: '100', cusd: '300000' }, purpose: 'Prices WETH in cUSD: 3,000 at its seeds of 100 WETH and 300,000 cUSD.' },
  { id: 'forge-cusd', seeds: { forge: '100000', cusd: '250000' }, purpose: 'Prices FORGE in cUSD: 2.5 at its seeds of 100,000 FORGE and 250,000 cUSD.' },
  { id: 'ember-cusd', seeds: { ember: '50000', cusd: '60000' }, purpose: 'Prices EMBR in cUSD: 1.2 at its seeds of 50,000 EMBR and 60,000 cUSD.' },
  {
    id: 'slag-forge',
    seeds: { slag: '100000', forge: '10000' },
    purpose: 'Prices SLAG in FORGE, so in dollars only through FORGE: 0.1 at its seeds of 100,000 SLAG and 10,000 FORGE.',
  },
] as const satisfies readonly { id: string; seeds: Partial<Record<WorldTokenId, string>>; purpose: string }[];

export type WorldFeedId = (typeof FEED_TABLE)[number]['id'];
export type WorldPoolId = (typeof POOL_TABLE)[number]['id'];

export interface WorldFeed extends WorldPriceContract {
  id: WorldFeedId;
  /** The world token it prices, in dollars. */
  token: WorldTokenId;
  description: string;
  decimals: number;
  /** The answer it is deployed with, at `decimals` places; the heartbeat submits the latest answer again. */
  answer: bigint;
}

export interface WorldPool {
  id: WorldPoolId;
  /** The pair's address: CREATE2 by the factory, from the two tokens and the pair's init code hash. */
  address: Address;
  /** The world tokens in the pair's order (token0 has the lower address). */
  token0: WorldTokenId;
  token1: WorldTokenId;
  /** The pool prices `base` in `quote` (its id names them in that order). */
  base: WorldTokenId;
  quote: WorldTokenId;
  /** What the deployer seeds the pair with, in base units, in token0/token1 order. */
  seed0: bigint;
  seed1: bigint;
  purpose: string;
}

/** The world's wrapped ether. */
export const WORLD_WETH = {
  id: 'weth',
  artifact: ARTIFACTS.WorldWrappedEther,
  ...create2Install('weth', ARTIFACTS.WorldWrappedEther, []),
  purpose: 'Wrapped ether (WETH9-like, 18 decimals): ether deposited mints it, withdraw burns it; the ETH side of the weth-cusd pool.',
} as const satisfies WorldPriceContract;

/** Uniswap V2's factory as published; the world deployer is its feeToSetter, and the protocol fee stays off. */
export const UNISWAP_V2_FACTORY = {
  id: 'uniswap-v2-factory',
  artifact: ARTIFACTS.UniswapV2Factory,
  ...create2Install('uniswap-v2-factory', ARTIFACTS.UniswapV2Factory, [WORLD_DEPLOYER]),
  purpose: 'The Uniswap V2 factory of @uniswap/v2-core as published: it creates the pairs below (createPair), each at an address computed from its two tokens.',
} as const satisfies WorldPriceContract;

const tokenAddresses = {
  ...(Object.fromEntries(WORLD_CONTRACTS.filter((contract) => contract.kind === 'erc20').map((contract) => [contract.id, contract.address])) as Record<
    Erc20Id,
    Address
  >),
  weth: WORLD_WETH.address,
} satisfies Record<WorldTokenId, Address>;

/** Each world ERC-20's address by id. */
export const WORLD_TOKEN_ADDRESSES: Readonly<Record<WorldTokenId, Address>> = tokenAddresses;

/** A world token's decimals; a token without `decimals` counts 18 places, as its supply does. */
export function worldTokenDecimals(token: WorldTokenId): number {
  return token === 'weth' ? 18 : (worldContract(token).erc20!.decimals ?? 18);
}

export const WORLD_FEEDS: readonly WorldFeed[] = FEED_TABLE.map((feed) => {
  const answer = parseUnits(feed.answer, FEED_DECIMALS);
  const args = [FEED_DECIMALS, feed.description, WORLD_DEPLOYER, answer] as const;
  return {
    ...feed,
    decimals: FEED_DECIMALS,
    answer,
    artifact: ARTIFACTS.WorldPriceFeed,
    ...create2Install(feed.id, ARTIFACTS.WorldPriceFeed, args),
    purpose: `Prices the world token ${feed.token} in dollars: first answer ${feed.answer}, at ${FEED_DECIMALS} decimals as Chainlink’s USD feeds.`,
  };
});

const pairInitCodeHash = keccak256(ARTIFACTS.UniswapV2Pair.bytecode);

/** The pair UniswapV2Factory.createPair makes of two tokens: CREATE2 from the factory, salted with the sorted tokens. */
function pairAddress(tokenA: Address, tokenB: Address): Address {
  const [token0, token1] = sortTokens(tokenA, tokenB);
  const salt = keccak256(encodePacked(['address', 'address'], [token0, token1]));
  return getAddress(getContractAddress({ opcode: 'CREATE2', from: UNISWAP_V2_FACTORY.address, salt, bytecodeHash: pairInitCodeHash }));
}

/** Uniswap's order of a pair's tokens: by address, as numbers. */
const sortTokens = (a: Address, b: Address): [Address, Address] => (BigInt(a) < BigInt(b) ? [a, b] : [b, a]);

export const WORLD_POOLS: readonly WorldPool[] = POOL_TABLE.map(({ id, seeds, purpose }) => {
  const amounts: Partial<Record<WorldTokenId, string>> = seeds;
  // The seeds name the base first, the quote second.
  const [a, b] = Object.keys(amounts) as [WorldTokenId, WorldTokenId];
  const [token0, token1] = BigInt(tokenAddresses[a]) < BigInt(tokenAddresses[b]) ? [a, b] : [b, a];
  const seed = (token: WorldTokenId) => parseUnits(amounts[token]!, worldTokenDecimals(token));
  return {
    id,
    address: pairAddress(tokenAddresses[a], tokenAddresses[b]),
    token0,
    token1,
    base: a,
    quote: b,
    seed0: seed(token0),
    seed1: seed(token1),
    purpose,
  };
});

/** The layer's contracts created through CREATE2_DEPLOYER, in deployment order (the pairs come from the factory). */
export const PRICE_LAYER_CONTRACTS: readonly WorldPriceContract[] = [WORLD_WETH, UNISWAP_V2_FACTORY, ...WORLD_FEEDS];

/** An ERC-20 a world address can hold: a token, or a pool's liquidity token (its pair is an ERC-20). */
export type WorldErc20Id = WorldTokenId | WorldPoolId;

/** The contract of a world ERC-20 or pool liquidity token. */
export function worldErc20Address(id: WorldErc20Id): Address {
  return id in tokenAddresses ? tokenAddresses[id as WorldTokenId] : WORLD_POOLS.find((pool) => pool.id === id)!.address;
}

/** The price layer as its readers take it (the price sampler's plan, docs, tests): tokens, pools and feeds by id. */
export const WORLD_PRICE_SOURCES = {
  tokens: WORLD_TOKEN_ADDRESSES,
  pools: WORLD_POOLS.map(({ id, address, token0, token1, base, quote }) => ({ id, address, token0, token1, base, quote })),
  feeds: WORLD_FEEDS.map(({ id, address, decimals, description, token }) => ({ id, address, decimals, description, token })),
};
