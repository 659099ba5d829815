import type { Address } from 'viem';
import type { NftKind } from '../transfers/transfer.ts';

// What the NFT endpoints read besides the transfer index (docs/nft-data.md#nft-object): a token's metadata
// and media, and a contract's facts. The endpoints depend on these ports; the metadata store and
// the contract reader implement them, so each side is built and tested on its own.

/** One NFT on one network. `contract` checksummed or lowercase; `tokenId` decimal. */
export interface NftRef {
  network: string;
  contract: Address;
  tokenId: string;
  kind: NftKind;
}

/** The key of an NFT in the maps below: network, lowercase contract and decimal token id. */
export function nftKey(ref: Pick<NftRef, 'network' | 'contract' | 'tokenId'>): string {
  return `${ref.network}:${ref.contract.toLowerCase()}:${ref.tokenId}`;
}

/** An image as Crucible serves it (docs/nft-data.md#nft-object `image`): every field null when there is none or it failed. */
export interface NftMedia {
  /** The original bytes, served by Crucible. */
  cachedUrl: string | null;
  /** At most 256 px on its longer side. */
  thumbnailUrl: string | null;
  pngUrl: string | null;
  /** Measured from the bytes, not taken from the origin's header. */
  contentType: string | null;
  /** Bytes of the original. */
  size: number | null;
  /** The URI the metadata gave, before any gateway was applied. */
  originalUrl: string | null;
}

/** A token's metadata as last fetched (docs/nft-data.md#nft-object `raw`, `tokenUri`, `name`, `description`, `image`, `timeLastUpdated`). */
export interface NftMetadataRecord {
  /** The URI a client can fetch (ipfs:// through the configured gateway; data: URIs as given); null when the contract gave none. */
  tokenUri: string | null;
  /** What `tokenURI`/`uri` returned (ERC-1155 `{id}` not substituted). */
  rawTokenUri: string | null;
  /** The document as given, or null when there is none. */
  metadata: Record<string, unknown> | null;
  /** Why the contract call or the fetch failed (`raw.error`); null when it did not. */
  error: string | null;
  name: string | null;
  description: string | null;
  image: NftMedia;
  /** ms since the epoch: when this record was fetched. */
  timeLastUpdated: number;
}

export interface NftMetadataSource {
  /**
   * The records of these tokens, by `nftKey`. Cached records are returned as they are; a token never
   * fetched is fetched now within `timeoutMs` (null: the cache only, nothing fetched) and stored. A
   * token missing from the map has no record yet (its fetch did not finish in time).
   */
  metadataOf(tokens: readonly NftRef[], options: { timeoutMs: number | null }): Promise<Map<string, NftMetadataRecord>>;
  /** The stored documents of a contract's tokens, by decimal token id (computeRarity, summarizeNFTAttributes); tokens without one are missing. */
  documentsOf(network: string, contract: Address): Promise<Map<string, Record<string, unknown>>>;
}

/** What a contract is, by ERC-165 and by the events it emitted. */
export type NftTokenType = 'ERC721' | 'ERC1155' | 'NO_SUPPORTED_NFT_STANDARD' | 'NOT_A_CONTRACT';

/** docs/nft-data.md#nft-object `contract.marketplaceMetadata`: from the collections registry; null fields where it says nothing. */
export interface MarketplaceMetadata {
  floorPrice: number | null;
  collectionName: string | null;
  collectionSlug: string | null;
  safelistRequestStatus: string | null;
  imageUrl: string | null;
  description: string | null;
  externalUrl: string | null;
  socialUsername: string | null;
  discordUrl: string | null;
  bannerImageUrl: string | null;
  /** ISO 8601. */
  lastIngestedAt: string | null;
}

/** docs/nft-data.md#nft-object `collection`. */
export interface NftCollection {
  name: string | null;
  slug: string | null;
  externalUrl: string | null;
  bannerImageUrl: string | null;
}

/** docs/nft-data.md#nft-object `contract`, plus the collection its NFTs carry. */
export interface NftContractFacts {
  /** Checksummed. */
  address: Address;
  name: string | null;
  symbol: string | null;
  /** Decimal; null when the contract does not say. */
  totalSupply: string | null;
  tokenType: NftTokenType;
  /** The account whose transaction created the contract, found on chain; null when not found. */
  contractDeployer: Address | null;
  deployedBlockNumber: number | null;
  marketplaceMetadata: MarketplaceMetadata;
  isSpam: boolean | null;
  /** The documented rules the contract matched; empty when none. */
  spamClassifications: string[];
  collection: NftCollection | null;
}

export interface NftContractSource {
  /** The facts of these contracts on `network`, by lowercase address; a contract that could not be read is missing. */
  contractsOf(network: string, contracts: readonly Address[]): Promise<Map<string, NftContractFacts>>;
  /** The facts already stored of every contract on `network`'s indexed chain, by lowercase address, read from no node (however old). */
  storedContractsOf(network: string): Promise<Map<string, NftContractFacts>>;
}

/** A collection of the collections registry as it is on one network: its facts and its contract there. */
export interface NftRegistryCollection {
  slug: string;
  name: string;
  description: string | null;
  externalUrl: string | null;
  imageUrl: string | null;
  bannerImageUrl: string | null;
  /** The X (Twitter) handle, without the @. */
  socialUsername: string | null;
  discordUrl: string | null;
  /** In the network's native currency. */
  floorPrice: number | null;
  /** Checksummed. */
  contract: Address;
}

export interface NftCollectionSource {
  /** The registry's collection `slug` on `network`; null when there is none, or it has no contract there. */
  collectionOf(network: string, slug: string): NftRegistryCollection | null;
  /** The network's native currency symbol (what a registry floor price is in); null when unknown. */
  nativeCurrencyOf(network: string): string | null;
}
