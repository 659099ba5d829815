import type { Kysely } from 'kysely';
import type { Address } from 'viem';
import type { DatabaseSchema } from '../../db/schema.ts';
import type { NftContractFacts } from '../nft-sources.ts';
import { ownerContracts } from './index-reads.ts';

// excludeFilters[] / includeFilters[] of an owner's NFTs (docs/nft-data.md#filters-spam-and-airdrops), decided per contract so that
// pages, pageKey and totalCount stay exact (the index pages over the allowed contracts):
// - SPAM: the contract's facts say `isSpam: true` (its spamClassifications name the rules it matched).
// - AIRDROPS: the contract is classified as a mass airdrop (a spamClassifications entry naming an
//   airdrop, as the spam rules' mass-airdrop rule does) and every token of it the owner holds was minted
//   to the owner, never passed on to them by another holder: they received it without asking.
// A contract whose facts are unknown matches neither filter.

export type NftFilter = 'SPAM' | 'AIRDROPS';

const AIRDROP_CLASSIFICATION = /airdrop/i;

function isMassAirdrop(facts: NftContractFacts | undefined): boolean {
  return facts?.spamClassifications.some((name) => AIRDROP_CLASSIFICATION.test(name)) ?? false;
}

/** The contracts the page may list: `asked` (all when undefined) less or limited to those the filters match; undefined: no limit. */
export async function allowedContracts(input: {
  db: Kysely<DatabaseSchema>;
  network: string;
  owner: Address;
  asked: readonly Address[] | undefined;
  exclude: readonly NftFilter[];
  include: readonly NftFilter[];
  factsOf(contracts: readonly Address[]): Promise<Map<string, NftContractFacts>>;
}): Promise<Address[] | undefined> {
  const filters = input.exclude.length ? input.exclude : input.include;
  if (filters.length === 0) return input.asked ? [...input.asked] : undefined;
  const held = await ownerContracts(input.db, input.network, input.owner);
  const askedSet = input.asked ? new Set(input.asked.map((address) => address.toLowerCase())) : null;
  const candidates = [...held.keys()].filter((contract) => !askedSet || askedSet.has(contract)) as Address[];
  const facts = await input.factsOf(candidates);
  const matches = (contract: string): boolean =>
    filters.some((filter) => {
      const known = facts.get(contract);
      return filter === 'SPAM' ? known?.isSpam === true : isMassAirdrop(known) && held.get(contract)!.onlyMinted;
    });
  const keep = input.exclude.length ? (contract: string) => !matches(contract) : matches;
  return candidates.filter(keep);
}
