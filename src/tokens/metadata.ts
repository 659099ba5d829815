import { LRUCache } from 'lru-cache';
import { encodeFunctionData, erc20Abi, type Address } from 'viem';
import { decodeTokenDecimals, decodeTokenText } from '../chain/token-answers.ts';
import { readInOneCall } from '../chain/multicall-reads.ts';
import type { ContractReader } from '../chain/contract-reader.ts';
import type { TokenLogos } from '../token-list/token-list.ts';

// crucible_getTokenMetadata (docs/token-data.md#crucible_gettokenmetadata): name(), symbol() and decimals() in one aggregate3 call,
// decoded leniently; the logo from Crucible's token list. What the chain says is cached per network
// and contract, so it is read once per cache lifetime; the logo is looked up on every answer.

export interface TokenMetadata {
  name: string | null;
  symbol: string | null;
  decimals: number | null;
  /** An absolute URL from the token list, or null. */
  logo: string | null;
}

interface ChainMetadata {
  /** false when the address holds no code: then every field is null, the logo too. */
  contract: boolean;
  name: string | null;
  symbol: string | null;
  decimals: number | null;
}

const metadataCalls = (['name', 'symbol', 'decimals'] as const).map((functionName) => encodeFunctionData({ abi: erc20Abi, functionName }));

/** Throws ContractReadError when the node fails, MulticallError when Multicall3 is missing. */
async function readChainMetadata(chain: ContractReader, contract: Address): Promise<ChainMetadata> {
  const blockNumber = await chain.blockNumber();
  const [name, symbol, decimals] = await readInOneCall(
    chain,
    metadataCalls.map((callData) => ({ target: contract, callData })),
    blockNumber,
  );
  // A call to an address without code succeeds with nothing; only then is the code worth asking for.
  const silent = [name, symbol, decimals].every((outcome) => outcome!.success && outcome!.returnData === '0x');
  if (silent && (await chain.getCode(contract, blockNumber)) === '0x') return { contract: false, name: null, symbol: null, decimals: null };
  return {
    contract: true,
    name: name!.success ? decodeTokenText(name!.returnData) : null,
    symbol: symbol!.success ? decodeTokenText(symbol!.returnData) : null,
    decimals: decimals!.success ? decodeTokenDecimals(decimals!.returnData) : null,
  };
}

function withLogo(contract: Address, metadata: ChainMetadata, logos: TokenLogos): TokenMetadata {
  const { name, symbol, decimals } = metadata;
  return { name, symbol, decimals, logo: metadata.contract ? logos.logoOf(contract) : null };
}

/** The metadata of `address`, read now (no cache). */
export async function getTokenMetadata(chain: ContractReader, logos: TokenLogos, address: Address): Promise<TokenMetadata> {
  const contract = address.toLowerCase() as Address;
  return withLogo(contract, await readChainMetadata(chain, contract), logos);
}

export interface TokenMetadataReader {
  /** getTokenMetadata through the cache: a contract's metadata is read once per `ttlMs`; concurrent misses share one read. */
  getTokenMetadata(network: string, chain: ContractReader, logos: TokenLogos, address: Address): Promise<TokenMetadata>;
}

interface ReadContext {
  chain: ContractReader;
  contract: Address;
}

/** A cache of what contracts' metadata calls answered, per network and contract. A failed read is not kept. */
export function createTokenMetadataReader(options: { ttlMs: number; max: number }): TokenMetadataReader {
  const cache = new LRUCache<string, ChainMetadata, ReadContext>({
    max: options.max,
    ttl: options.ttlMs,
    fetchMethod: (_key, _stale, { context }) => readChainMetadata(context.chain, context.contract),
  });
  return {
    async getTokenMetadata(network, chain, logos, address) {
      const contract = address.toLowerCase() as Address;
      const metadata = await cache.fetch(`${network} ${contract}`, { context: { chain, contract } });
      if (metadata === undefined) throw new Error(`the metadata read of ${contract} on ${network} was abandoned`);
      return withLogo(contract, metadata, logos);
    },
  };
}
