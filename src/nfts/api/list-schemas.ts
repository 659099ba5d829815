import { z } from 'zod';
import { Nft, NftContract, NftImage, NftTokenType, ValidAt } from './schemas.ts';

// The answers of the NFT endpoints beyond an owner's NFTs and one token's or contract's metadata
// (docs/nft-data.md), as zod schemas: the node's OpenAPI document is generated from them and the
// tests validate answers against it. Each is the shape alchemy-sdk 3.6.5 parses.

const nullable = <T extends z.ZodType>(schema: T) => z.union([schema, z.null()]);
const ChecksumAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const Decimal = z.string().regex(/^\d+$/);
const NextPage = nullable(z.string()).describe('Pass it back for the next page; null on the last.');

export const NftList = z.object({ nfts: z.array(Nft).describe('In the order the tokens were asked for.') });

export const ContractList = z.object({ contracts: z.array(NftContract) });

/** `withMetadata=false`: a contract's token without its metadata. */
export const ContractNftId = z.object({
  contract: z.object({ address: ChecksumAddress }),
  contractAddress: ChecksumAddress,
  tokenId: Decimal,
  tokenType: NftTokenType,
});

export const ContractNfts = z.object({
  nfts: z.union([z.array(Nft), z.array(ContractNftId)]).describe('By token id, as a number.'),
  pageKey: NextPage,
});

export const TokenOwners = z.object({
  owners: z.array(ChecksumAddress).describe('By address.'),
  pageKey: NextPage,
});

export const OwnerBalances = z.object({
  ownerAddress: ChecksumAddress,
  tokenBalances: z.array(z.object({ tokenId: Decimal, balance: Decimal })).describe('By token id.'),
});

export const ContractOwners = z.object({
  owners: z.union([z.array(ChecksumAddress), z.array(OwnerBalances)]).describe('By address; with withTokenBalances=true each with its tokens.'),
  pageKey: NextPage,
  totalCount: z.int().optional().describe('Every owner of the contract; with includeCount=true only.'),
  validAt: ValidAt.describe('The indexed block the owners are of.'),
});

export const OwnerContract = NftContract.omit({ isSpam: true, spamClassifications: true }).extend({
  totalBalance: Decimal.describe('The tokens of the contract the owner holds, counting ERC-1155 amounts.'),
  numDistinctTokensOwned: Decimal.describe('How many distinct token ids of the contract the owner holds.'),
  isSpam: z.boolean().describe('Whether a spam rule matched; false while the contract is not judged.'),
  spamClassifications: z.array(z.string()),
  displayNft: z.object({ tokenId: Decimal, name: nullable(z.string()) }).describe("The owner's token of the contract with the lowest id."),
  image: NftImage.describe("displayNft's image."),
});

export const OwnerContracts = z.object({
  contracts: z.array(OwnerContract),
  pageKey: NextPage,
  totalCount: z.int().describe('Every contract of which the owner holds NFTs, under the same filters.'),
});

export const HolderOfContract = z.object({ isHolderOfContract: z.boolean() });

export const Collection = z.object({
  name: z.string(),
  slug: z.string(),
  floorPrice: z
    .object({
      marketplace: z.null().describe('No marketplace said it: the figure is the registry’s.'),
      floorPrice: nullable(z.number()),
      priceCurrency: nullable(z.string()).describe("The network's native currency."),
    })
    .describe('From the collections registry; every field null when it gives none.'),
  description: nullable(z.string()),
  externalUrl: nullable(z.string()),
  twitterUsername: nullable(z.string()),
  discordUrl: nullable(z.string()),
  imageUrl: nullable(z.string()),
  bannerImageUrl: nullable(z.string()),
  contractAddress: ChecksumAddress.describe("The collection's contract on this network."),
});

export const SpamVerdict = z.object({ isSpamContract: z.boolean().describe('Whether a spam rule matched; false while the contract is not judged.') });

export const SpamContracts = z.object({
  contractAddresses: z.array(ChecksumAddress).describe('The NFT contracts of the index a spam rule matched, by address.'),
});

export const AirdropVerdict = z.object({ isAirdrop: z.boolean() });

export const SpamReportReceipt = z.object({
  contractAddress: ChecksumAddress,
  recorded: z.boolean().describe('false: the contract has no NFT in the index, so there was nothing to record.'),
  message: z.string(),
});

export const Rarity = z.object({
  rarities: z.array(
    z.object({
      traitType: z.string(),
      value: z.string(),
      prevalence: z.number().describe("The share of the contract's tokens with stored metadata that have this value, 0 to 1."),
    }),
  ),
});

export const AttributeSummary = z.object({
  summary: z.record(z.string(), z.record(z.string(), z.int())).describe('Per trait type, how many tokens have each value.'),
  totalSupply: Decimal.describe('The tokens counted: those of the contract with stored metadata.'),
  contractAddress: ChecksumAddress,
});

const REINGESTION_STATES = ['does_not_exist', 'already_queued', 'in_progress', 'finished', 'queued', 'queue_failed'] as const;

export const Reingestion = z.object({
  contractAddress: ChecksumAddress,
  reingestionState: z.enum(REINGESTION_STATES),
  progress: nullable(z.string()).describe('Percent of the tokens fetched again since the request, as a whole number; null before any.'),
});

export const TokenRefresh = z.object({
  contractAddress: ChecksumAddress,
  tokenId: Decimal,
  refreshState: z.enum(['queued']).describe('Queued to the metadata worker, which fetches it on its next pass.'),
});

export type ContractNftsBody = z.infer<typeof ContractNfts>;
export type ContractOwnersBody = z.infer<typeof ContractOwners>;
export type OwnerContractBody = z.infer<typeof OwnerContract>;
export type OwnerContractsBody = z.infer<typeof OwnerContracts>;
export type CollectionBody = z.infer<typeof Collection>;
export type RarityBody = z.infer<typeof Rarity>;
export type AttributeSummaryBody = z.infer<typeof AttributeSummary>;
export type ReingestionBody = z.infer<typeof Reingestion>;
export type TokenRefreshBody = z.infer<typeof TokenRefresh>;
export type SpamReportReceiptBody = z.infer<typeof SpamReportReceipt>;
