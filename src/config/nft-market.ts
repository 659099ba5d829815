import { z } from 'zod';
import type { Env } from './env.ts';
import { envSuffixOf } from './faucet.ts';
import { ConfigError } from './config-error.ts';
import { readConfigVariable } from './variable.ts';

// Which marketplaces each network's getFloorPrice and getNFTSales read (docs/nft-data.md), validated;
// a bad value stops start-up with a message naming the variable. Listed in .env.example.

/** A marketplace contract with the Crucible marketplace's events, and the name answers give it. */
export interface MarketplaceSetting {
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

const entry = z
  .string()
  .regex(
    /^[A-Za-z][A-Za-z0-9_-]{0,31}:0x[0-9a-fA-F]{40}$/,
    'must list name:address pairs, comma-separated (a name of letters, digits, - and _, at most 32, starting with a letter; an address of 0x and 40 hexadecimal digits), or none',
  )
  .transform((pair) => {
    const [name, address] = pair.split(':') as [string, `0x${string}`];
    return { name, address };
  })
  .refine((marketplace) => !RESERVED_NAMES.includes(marketplace.name.toLowerCase()), {
    error: (issue) =>
      `names a marketplace ${(issue.input as MarketplaceSetting).name}, a name alchemy-sdk gives a marketplace Crucible does not read; choose another`,
  });

const marketplaceList = z
  .string()
  .transform((value) =>
    value.trim() === 'none'
      ? []
      : value
          .split(',')
          .map((item) => item.trim())
          .filter(Boolean),
  )
  .pipe(z.array(entry))
  .refine((list) => new Set(list.map((marketplace) => marketplace.name.toLowerCase())).size === list.length, 'names a marketplace twice')
  .refine((list) => new Set(list.map((marketplace) => marketplace.address.toLowerCase())).size === list.length, 'lists an address twice');

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
