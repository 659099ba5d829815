import { z } from 'zod';
import type { Env } from './env.ts';
import { envSuffixOf } from './faucet.ts';
import { ConfigError } from './config-error.ts';
import { readConfigVariable } from './variable.ts';

// Which marketplaces each network's getFloorPrice and getNFTSales read (docs/nft-data.md#which-marketplaces-a-network-reads), validated;
// a bad value stops start-up with a message naming the variable. Listed in .env.example.

/** A marketplace contract with the Crucible marketplace's events, and the name answers give it. */
interface MarketplaceSetting {
  name: string;
  address: `0x${string}`;
}

export interface NftMarketConfig {
  /**
   * NFT_MARKETPLACES_<ID>: the marketplaces read on each network that sets it (`none`: none). A
   * network that does not set it reads the local world's marketplace when its node is a local devnet,
   * and none on real nodes.
   */
  marketplaces: Record<string, MarketplaceSetting[]>;
}

/** Names alchemy-sdk gives marketplaces Crucible does not read (getFloorPrice's keys, getNFTSales' values): no setting may take one. */
const RESERVED_NAMES = ['opensea', 'looksrare', 'seaport', 'x2y2', 'wyvern', 'cryptopunks', 'blur', 'unknown'];

const PAIR = /^([A-Za-z][A-Za-z0-9_-]{0,31}):(0x[0-9a-fA-F]{40})$/;

/** `name:address` pairs, comma-separated, or `none`; each refusal a phrase after the variable's name. */
const marketplaceList = z.string().transform((value, context): MarketplaceSetting[] => {
  const refuse = (message: string) => {
    context.addIssue({ code: 'custom', message });
    return z.NEVER;
  };
  if (value.trim() === 'none') return [];
  const list: MarketplaceSetting[] = [];
  for (const item of value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const pair = PAIR.exec(item);
    if (!pair)
      return refuse(
        'must list name:address pairs, comma-separated (a name of letters, digits, - and _, at most 32, starting with a letter; an address of 0x and 40 hexadecimal digits), or none',
      );
    const [, name, address] = pair as unknown as [string, string, `0x${string}`];
    if (RESERVED_NAMES.includes(name.toLowerCase()))
      return refuse(`names a marketplace ${name}, a name alchemy-sdk gives a marketplace Crucible does not read; choose another`);
    if (list.some((marketplace) => marketplace.name.toLowerCase() === name.toLowerCase())) return refuse(`names a marketplace ${name} twice`);
    if (list.some((marketplace) => marketplace.address.toLowerCase() === address.toLowerCase())) return refuse(`lists the address ${address} twice`);
    list.push({ name, address });
  }
  return list;
});

export function readNftMarketConfig(env: Env, networks: ReadonlyArray<{ id: string }>): NftMarketConfig {
  const bySuffix = new Map(networks.map((network) => [envSuffixOf(network.id), network.id]));
  const marketplaces: Record<string, MarketplaceSetting[]> = {};
  for (const name of Object.keys(env)) {
    const suffix = /^NFT_MARKETPLACES_(.+)$/.exec(name)?.[1];
    if (suffix === undefined) continue;
    const id = bySuffix.get(suffix);
    if (!id)
      throw new ConfigError(`Invalid NFT marketplace configuration: ${name} does not name a network (known: ${[...bySuffix.keys()].join(', ')}).`, {
        variable: name,
      });
    const list = readConfigVariable(env, 'NFT marketplace', name, marketplaceList, null);
    if (list) marketplaces[id] = list;
  }
  return { marketplaces };
}
