import { getAddress, type Address } from 'viem';
import type { NftKind } from '../../transfers/transfer.ts';
import type { MarketplaceMetadata, NftContractFacts, NftMetadataRecord, NftTokenType } from '../nft-sources.ts';
import type { MintPoint, TransferPoint } from './index-reads.ts';
import type { MarketplaceMetadataBody, NftBody, NftContractBody } from './schemas.ts';

// Builds the objects of docs/nft-data.md#nft-object from the index, a token's metadata record and its contract's facts;
// what no source knows is null, never left out.

const EMPTY_MARKETPLACE: MarketplaceMetadata = {
  floorPrice: null,
  collectionName: null,
  collectionSlug: null,
  safelistRequestStatus: null,
  imageUrl: null,
  description: null,
  externalUrl: null,
  socialUsername: null,
  discordUrl: null,
  bannerImageUrl: null,
  lastIngestedAt: null,
};

/** The index's kind when the contract's facts are not known: legacy NFTs follow no NFT standard. */
const TOKEN_TYPE_OF_KIND: Record<NftKind, NftTokenType> = { erc721: 'ERC721', erc1155: 'ERC1155', legacy: 'NO_SUPPORTED_NFT_STANDARD' };

export function tokenTypeOf(kind: NftKind, facts: NftContractFacts | undefined): NftTokenType {
  return facts && (facts.tokenType === 'ERC721' || facts.tokenType === 'ERC1155') ? facts.tokenType : TOKEN_TYPE_OF_KIND[kind];
}

/** The registry's marketplace data, with the X handle also as `twitterUsername`, the name alchemy-sdk 3 reads. */
function marketplaceBody(metadata: MarketplaceMetadata): MarketplaceMetadataBody {
  return { ...metadata, twitterUsername: metadata.socialUsername };
}

/** docs/nft-data.md#nft-object `contract`; `kind` stands in for the type when the facts are missing. */
export function contractBody(address: Address, kind: NftKind | null, facts: NftContractFacts | undefined): NftContractBody {
  const marketplace = marketplaceBody(facts?.marketplaceMetadata ?? EMPTY_MARKETPLACE);
  return {
    address: getAddress(address),
    name: facts?.name ?? null,
    symbol: facts?.symbol ?? null,
    totalSupply: facts?.totalSupply ?? null,
    tokenType: facts?.tokenType ?? (kind ? TOKEN_TYPE_OF_KIND[kind] : 'NO_SUPPORTED_NFT_STANDARD'),
    contractDeployer: facts?.contractDeployer ? getAddress(facts.contractDeployer) : null,
    deployedBlockNumber: facts?.deployedBlockNumber ?? null,
    marketplaceMetadata: marketplace,
    // alchemy-sdk 3 reads the marketplace data as `openSeaMetadata`; docs/nft-data.md#nft-object names it marketplaceMetadata: both are sent.
    openSeaMetadata: marketplace,
    isSpam: facts?.isSpam ?? null,
    spamClassifications: facts?.spamClassifications ?? [],
  };
}

export interface NftParts {
  contract: Address;
  tokenId: string;
  kind: NftKind;
  facts: NftContractFacts | undefined;
  /** undefined: no record yet (not fetched within the request's time). */
  record: NftMetadataRecord | undefined;
  mint: MintPoint | undefined;
}

/** Why a token has no record: its fetch did not finish within the request's time, or none was asked. */
const NOT_FETCHED = 'metadata not fetched yet; ask again later or with a longer tokenUriTimeoutInMs';

/** docs/nft-data.md#nft-object's entry without the owner's balance and acquiredAt. */
export function nftBody(parts: NftParts): NftBody {
  const { record, mint } = parts;
  return {
    contract: contractBody(parts.contract, parts.kind, parts.facts),
    tokenId: parts.tokenId,
    tokenType: tokenTypeOf(parts.kind, parts.facts),
    name: record?.name ?? null,
    description: record?.description ?? null,
    tokenUri: record?.tokenUri ?? null,
    image: record?.image ?? { cachedUrl: null, thumbnailUrl: null, pngUrl: null, contentType: null, size: null, originalUrl: null },
    raw: { tokenUri: record?.rawTokenUri ?? null, metadata: record?.metadata ?? {}, error: record ? record.error : NOT_FETCHED },
    collection: parts.facts?.collection ?? null,
    mint: {
      mintAddress: mint?.to ?? null,
      blockNumber: mint?.blockNumber ?? null,
      timestamp: isoOf(mint?.blockTimestamp ?? null),
      transactionHash: mint?.transactionHash ?? null,
    },
    owners: null,
    timeLastUpdated: record ? new Date(record.timeLastUpdated).toISOString() : null,
  };
}

/** Why a batch's token has no metadata: the index never saw it move. */
const NOT_INDEXED = 'token not found: no transfer of it is indexed on this network';

/** A batch's token the index never saw: its contract as known, every other field null, `raw.error` saying why. */
export function unindexedNftBody(contract: Address, tokenId: string, facts: NftContractFacts | undefined): NftBody {
  const body = nftBody({ contract, tokenId, kind: 'erc721', facts, record: undefined, mint: undefined });
  return {
    ...body,
    contract: contractBody(contract, null, facts),
    tokenType: facts?.tokenType ?? 'NO_SUPPORTED_NFT_STANDARD',
    raw: { ...body.raw, error: NOT_INDEXED },
  };
}

export function acquiredAtBody(point: TransferPoint | undefined): { blockTimestamp: string | null; blockNumber: number | null } {
  return { blockTimestamp: isoOf(point?.blockTimestamp ?? null), blockNumber: point?.blockNumber ?? null };
}

/** Seconds since the epoch as ISO 8601, or null. */
export function isoOf(seconds: number | null): string | null {
  return seconds === null ? null : new Date(seconds * 1000).toISOString();
}
