import { parseAbi, type Address } from 'viem';
import { WORLD_CONTRACTS, type WorldContractId } from '../../../../src/chain/world/manifest.ts';
import { substituteTokenId } from '../../../../src/chain/erc1155-uri.ts';
import { loadUri, type LoadUriOptions } from '../../../../src/nfts/load-uri.ts';
import { parseMetadataDocument } from '../../../../src/nfts/metadata-document.ts';
import {
  nftKey,
  type NftContractFacts,
  type NftContractSource,
  type NftMetadataRecord,
  type NftMetadataSource,
  type NftRef,
} from '../../../../src/nfts/nft-sources.ts';
import type { NftMetadataRefresh } from '../../../../src/nfts/api/api-context.ts';
import type { TestAnvil } from '../../../support/anvil.ts';

// Small real sources for the NFT endpoints' tests, until the metadata store and the contract reader
// are wired: metadata read from the world's contracts on anvil (tokenURI/uri) and fetched with the
// src/nfts fetchers from a server of the world's committed documents; contract facts from the world's
// manifest, the airdrop collection classified as a mass airdrop.

const URI_ABI = parseAbi(['function tokenURI(uint256) view returns (string)', 'function uri(uint256) view returns (string)']);

/** Every fetch it made, by nftKey: a test can tell a cached answer from a fetched one. */
export function worldMetadataSource(
  client: TestAnvil['client'],
  fetchOptions: Omit<LoadUriOptions, 'timeoutMs'>,
): NftMetadataSource & NftMetadataRefresh & { fetched: string[] } {
  const stored = new Map<string, NftMetadataRecord>();
  const fetched: string[] = [];
  const fetchRecord = async (token: NftRef, timeoutMs: number): Promise<NftMetadataRecord> => {
    fetched.push(nftKey(token));
    const record = (fields: Partial<NftMetadataRecord>): NftMetadataRecord => ({
      tokenUri: null,
      rawTokenUri: null,
      metadata: null,
      error: null,
      name: null,
      description: null,
      image: { cachedUrl: null, thumbnailUrl: null, pngUrl: null, contentType: null, size: null, originalUrl: null },
      timeLastUpdated: Date.now(),
      ...fields,
    });
    if (token.kind === 'legacy') return record({ error: 'the contract has no tokenURI' });
    const functionName = token.kind === 'erc1155' ? 'uri' : 'tokenURI';
    const raw = await client.readContract({ address: token.contract, abi: URI_ABI, functionName, args: [BigInt(token.tokenId)] });
    const tokenUri = substituteTokenId(raw, BigInt(token.tokenId));
    const loaded = await loadUri(tokenUri, { ...fetchOptions, timeoutMs });
    if (!loaded.ok) return record({ rawTokenUri: raw, tokenUri, error: loaded.error.reason });
    const document = parseMetadataDocument(loaded.bytes, loaded.baseUri);
    if (!document.ok) return record({ rawTokenUri: raw, tokenUri, error: document.error.reason });
    const image = document.image;
    return record({
      rawTokenUri: raw,
      tokenUri,
      metadata: document.raw,
      name: document.name,
      description: document.description,
      image: { cachedUrl: image, thumbnailUrl: null, pngUrl: null, contentType: null, size: null, originalUrl: image },
    });
  };
  return {
    fetched,
    async documentsOf(network, contract) {
      const prefix = `${network}:${contract.toLowerCase()}:`;
      return new Map(
        [...stored].flatMap(([key, record]) => (key.startsWith(prefix) && record.metadata ? [[key.slice(prefix.length), record.metadata] as const] : [])),
      );
    },
    async refresh(token, { timeoutMs }) {
      const record = await fetchRecord(token, timeoutMs);
      stored.set(nftKey(token), record);
      return record;
    },
    async metadataOf(tokens, { timeoutMs }) {
      const records = new Map<string, NftMetadataRecord>();
      for (const token of tokens) {
        const key = nftKey(token);
        let record = stored.get(key);
        if (!record && timeoutMs !== null) stored.set(key, (record = await fetchRecord(token, timeoutMs)));
        if (record) records.set(key, record);
      }
      return records;
    },
  };
}

const TOKEN_TYPES: Partial<Record<WorldContractId, NftContractFacts['tokenType']>> = {
  relics: 'ERC721',
  materials: 'ERC1155',
  punks: 'NO_SUPPORTED_NFT_STANDARD',
  airdrop: 'ERC721',
};

/** The world's NFT contracts as a contract reader would find them; the airdrop is spam by the mass-airdrop rule. */
export function worldContractSource(): NftContractSource & { facts: Map<string, NftContractFacts> } {
  const facts = new Map<string, NftContractFacts>();
  for (const contract of WORLD_CONTRACTS) {
    const tokenType = TOKEN_TYPES[contract.id];
    if (!tokenType) continue;
    const [name, symbol] = contract.args as [string, string];
    const spam = contract.id === 'airdrop';
    facts.set(contract.address.toLowerCase(), {
      address: contract.address,
      name,
      symbol,
      totalSupply: null,
      tokenType,
      contractDeployer: null,
      deployedBlockNumber: null,
      marketplaceMetadata: {
        floorPrice: null,
        collectionName: name,
        collectionSlug: contract.id,
        safelistRequestStatus: null,
        imageUrl: null,
        description: contract.purpose,
        externalUrl: null,
        socialUsername: null,
        discordUrl: null,
        bannerImageUrl: null,
        lastIngestedAt: null,
      },
      isSpam: spam,
      spamClassifications: spam ? ['MassAirdrop'] : [],
      collection: { name, slug: contract.id, externalUrl: null, bannerImageUrl: null },
    });
  }
  return {
    facts,
    async storedContractsOf() {
      return new Map(facts);
    },
    async contractsOf(_network, contracts: readonly Address[]) {
      return new Map(
        contracts.flatMap((address) => (facts.has(address.toLowerCase()) ? [[address.toLowerCase(), facts.get(address.toLowerCase())!] as const] : [])),
      );
    },
  };
}
