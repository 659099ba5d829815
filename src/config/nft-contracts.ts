import { z } from 'zod';
import type { Env } from './env.ts';
import { positive } from './numbers.ts';
import { readConfigVariable } from './variable.ts';

// How NFT contract facts are cached and which spam rules apply (docs/nft-data.md#spam-rules), validated; a bad value
// stops start-up with a message naming the variable. Every variable is listed in .env.example.

export interface NftContractsConfig {
  /** NFT_CONTRACT_FACTS_TTL_MS (default 1 h): how long name, symbol, total supply and the index's evidence are served before being read again. */
  factsTtlMs: number;
  /** NFT_SPAM_AIRDROP_MIN_RECIPIENTS (default 100): MassAirdrop matches a transaction that minted to at least this many addresses new to the contract. */
  massAirdropMinRecipients: number;
  /** NFT_SPAM_DENIED_URI_HOSTS (comma-separated, default none): DeniedTokenUriHost matches token URIs on these hosts and their subdomains. */
  deniedUriHosts: string[];
}

const hostList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((host) => host.trim().toLowerCase())
      .filter((host) => host !== ''),
  )
  .refine(
    (hosts) => hosts.every((host) => /^[a-z0-9-]+(?:\.[a-z0-9-]+)*$/.test(host)),
    'must be host names separated by commas, such as spam.example,claims.example',
  );

const read = <T>(env: Env, name: string, schema: z.ZodType<T, string>, fallback: T): T => readConfigVariable(env, 'NFT', name, schema, fallback);

export function readNftContractsConfig(env: Env): NftContractsConfig {
  return {
    factsTtlMs: read(env, 'NFT_CONTRACT_FACTS_TTL_MS', positive, 3_600_000),
    massAirdropMinRecipients: read(env, 'NFT_SPAM_AIRDROP_MIN_RECIPIENTS', positive, 100),
    deniedUriHosts: read(env, 'NFT_SPAM_DENIED_URI_HOSTS', hostList, []),
  };
}
