import { z } from 'zod';

// The answers of the NFT endpoints (docs/nft-data.md#nft-object) as zod schemas: the node's OpenAPI
// document is generated from them and the tests validate answers against that document. Every field
// of 2.11 is present; null where it is unknown.

const nullable = <T extends z.ZodType>(schema: T) => z.union([schema, z.null()]);
const ChecksumAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const Decimal = z.string().regex(/^\d+$/);
const IsoTime = z.iso.datetime();

export const MarketplaceMetadata = z
  .object({
    floorPrice: nullable(z.number()),
    collectionName: nullable(z.string()),
    collectionSlug: nullable(z.string()),
    safelistRequestStatus: nullable(z.string()),
    imageUrl: nullable(z.string()),
    description: nullable(z.string()),
    externalUrl: nullable(z.string()),
    socialUsername: nullable(z.string()),
    twitterUsername: nullable(z.string()).describe('socialUsername again, under the name alchemy-sdk 3 reads.'),
    discordUrl: nullable(z.string()),
    bannerImageUrl: nullable(z.string()),
    lastIngestedAt: nullable(IsoTime),
  })
  .describe('From the collections registry; null fields where it says nothing.');

export const NftTokenType = z.enum(['ERC721', 'ERC1155', 'NO_SUPPORTED_NFT_STANDARD', 'NOT_A_CONTRACT']);

export const NftContract = z.object({
  address: ChecksumAddress,
  name: nullable(z.string()),
  symbol: nullable(z.string()),
  totalSupply: nullable(Decimal).describe('Decimal; null when the contract does not say.'),
  tokenType: NftTokenType,
  contractDeployer: nullable(ChecksumAddress),
  deployedBlockNumber: nullable(z.int()),
  marketplaceMetadata: MarketplaceMetadata,
  openSeaMetadata: MarketplaceMetadata.describe('The same object as marketplaceMetadata, under the name alchemy-sdk 3 reads (`contract.openSeaMetadata`).'),
  isSpam: nullable(z.boolean()).describe('null: not judged yet (no transfer of the contract indexed).'),
  spamClassifications: z.array(z.string()).describe('The documented spam rules the contract matched.'),
});

export const NftImage = z.object({
  cachedUrl: nullable(z.string()),
  thumbnailUrl: nullable(z.string()),
  pngUrl: nullable(z.string()),
  contentType: nullable(z.string()),
  size: nullable(z.int()),
  originalUrl: nullable(z.string()),
});

export const NftCollection = z.object({
  name: nullable(z.string()),
  slug: nullable(z.string()),
  externalUrl: nullable(z.string()),
  bannerImageUrl: nullable(z.string()),
});

const nftFields = {
  contract: NftContract,
  tokenId: Decimal.describe('Decimal.'),
  tokenType: NftTokenType,
  name: nullable(z.string()),
  description: nullable(z.string()),
  tokenUri: nullable(z.string()),
  image: NftImage,
  raw: z.object({
    tokenUri: nullable(z.string()).describe('What tokenURI/uri returned.'),
    metadata: z.record(z.string(), z.unknown()).describe('The metadata document as given; {} when there is none.'),
    error: nullable(z.string()).describe('Why the metadata could not be read.'),
  }),
  collection: nullable(NftCollection),
  mint: z.object({
    mintAddress: nullable(ChecksumAddress),
    blockNumber: nullable(z.int()),
    timestamp: nullable(IsoTime),
    transactionHash: nullable(z.string()),
  }),
  owners: z.null().describe('Not listed here.'),
  timeLastUpdated: nullable(IsoTime).describe('When the metadata was fetched; null when it has not been yet.'),
};

export const Nft = z.object(nftFields).describe("One NFT (docs/nft-data.md#nft-object's entry, without the owner's balance and acquiredAt).");

export const OwnedNft = z
  .object({
    ...nftFields,
    balance: Decimal.describe('Decimal; 1 for ERC-721 and legacy NFTs.'),
    acquiredAt: z.object({ blockTimestamp: nullable(IsoTime), blockNumber: nullable(z.int()) }),
  })
  .describe('docs/nft-data.md#nft-object');

/** `withMetadata=false`: the token fields alone. */
export const OwnedNftId = z.object({
  contract: z.object({ address: ChecksumAddress }),
  contractAddress: ChecksumAddress.describe('The contract again, where alchemy-sdk 3 reads it when metadata is omitted.'),
  tokenId: Decimal,
  tokenType: NftTokenType,
  balance: Decimal,
});

export const ValidAt = z.object({
  blockNumber: nullable(z.int()),
  blockHash: nullable(z.string()),
  blockTimestamp: nullable(IsoTime),
});

export const OwnedNfts = z.object({
  ownedNfts: z.union([z.array(OwnedNft), z.array(OwnedNftId)]),
  totalCount: z.int().describe('Every NFT the owner holds under the same contracts and filters.'),
  pageKey: nullable(z.string()).describe('Pass it back for the next page; null on the last.'),
  validAt: ValidAt.describe('The indexed block the answer reflects.'),
});

export type MarketplaceMetadataBody = z.infer<typeof MarketplaceMetadata>;
export type NftContractBody = z.infer<typeof NftContract>;
export type NftBody = z.infer<typeof Nft>;
export type OwnedNftBody = z.infer<typeof OwnedNft>;
export type OwnedNftIdBody = z.infer<typeof OwnedNftId>;
export type OwnedNftsBody = z.infer<typeof OwnedNfts>;
