import { getAddress, type Address } from 'viem';
import { CrucibleError } from '../../errors/crucible-error.ts';
import { nftKey } from '../nft-sources.ts';
import type { NftApiContext } from './api-context.ts';
import { indexedContractKind, indexedTokenKind } from './index-reads.ts';
import { decimalTokenId, type ContractQuery, type TokenQuery } from './params.ts';
import type { AttributeSummaryBody, RarityBody } from './list-schemas.ts';

// Traits of one network's NFTs (docs/nft-data.md#rarity-and-attribute-summaries), from the stored
// metadata documents' `attributes` (`[{ trait_type, value }]`, OpenSea's form): how many of a
// contract's tokens have each value, and how rare one token's values are among them. Tokens whose
// metadata is not stored yet are not counted (the metadata worker fetches every indexed token).

interface Trait {
  traitType: string;
  value: string;
}

/** A document's traits; entries without a trait type or with a value that is not a string, number or boolean are skipped. */
function traitsOf(document: Record<string, unknown> | null | undefined): Trait[] {
  const attributes = document?.attributes;
  if (!Array.isArray(attributes)) return [];
  return attributes.flatMap((attribute: unknown) => {
    if (!attribute || typeof attribute !== 'object') return [];
    const { trait_type: traitType, value } = attribute as { trait_type?: unknown; value?: unknown };
    if (typeof traitType !== 'string' || !['string', 'number', 'boolean'].includes(typeof value)) return [];
    return [{ traitType, value: String(value) }];
  });
}

/** Per trait type, how many documents have each value. */
function countTraits(documents: Iterable<Record<string, unknown>>): Map<string, Map<string, number>> {
  const counts = new Map<string, Map<string, number>>();
  for (const document of documents) {
    // A token that lists a value twice counts once.
    const seen = new Set<string>();
    for (const { traitType, value } of traitsOf(document)) {
      const key = JSON.stringify([traitType, value]);
      if (seen.has(key)) continue;
      seen.add(key);
      const values = counts.get(traitType) ?? new Map<string, number>();
      values.set(value, (values.get(value) ?? 0) + 1);
      counts.set(traitType, values);
    }
  }
  return counts;
}

export function attributeHandlers(context: NftApiContext) {
  const { network, db } = context;

  const indexedContract = async (address: string): Promise<Address> => {
    await context.indexed();
    const contract = getAddress(address);
    if (!(await indexedContractKind(db, network, contract)))
      throw new CrucibleError('not_found', `No NFT of contract ${contract} is indexed on network ${network}.`);
    return contract;
  };

  const summarizeNftAttributes = async (query: ContractQuery): Promise<AttributeSummaryBody> => {
    const contract = await indexedContract(query.contractAddress);
    const documents = await context.metadata.documentsOf(network, contract);
    const counts = countTraits(documents.values());
    return {
      summary: Object.fromEntries([...counts].map(([traitType, values]) => [traitType, Object.fromEntries(values)])),
      totalSupply: String(documents.size),
      contractAddress: contract,
    };
  };

  /** The token's traits, each with the share of the contract's documented tokens that have the same value. */
  const computeRarity = async (query: TokenQuery): Promise<RarityBody> => {
    await context.indexed();
    const contract = getAddress(query.contractAddress);
    const tokenId = decimalTokenId(query.tokenId);
    const kind = await indexedTokenKind(db, network, contract, tokenId);
    if (!kind) throw new CrucibleError('not_found', `No transfer of token ${tokenId} of contract ${contract} is indexed on network ${network}.`);
    // The token's own record is fetched now if it has none; the others are what is stored.
    const ref = { network, contract, tokenId, kind };
    const record = (await context.metadata.metadataOf([ref], { timeoutMs: context.tokenUriTimeout.defaultMs })).get(nftKey(ref));
    const documents = await context.metadata.documentsOf(network, contract);
    if (record?.metadata) documents.set(tokenId, record.metadata);
    const counts = countTraits(documents.values());
    const unique = new Map(traitsOf(record?.metadata).map((trait) => [JSON.stringify([trait.traitType, trait.value]), trait]));
    return {
      rarities: [...unique.values()].map(({ traitType, value }) => ({
        traitType,
        value,
        prevalence: (counts.get(traitType)?.get(value) ?? 0) / documents.size,
      })),
    };
  };

  return { summarizeNftAttributes, computeRarity };
}
