import { z } from 'zod';
import type { ResponseSpec } from '../../api/operation.ts';
import { ErrorBody } from '../../api/schemas.ts';
import { defineRestOperation, type RestOperation, type RestProduct } from '../../rest/operation.ts';
import type { NftApi } from './handlers.ts';
import {
  CollectionQuery,
  ContractsForOwnerQuery,
  HolderOfContractQuery,
  NftsForCollectionQuery,
  NftsForContractQuery,
  OwnersForContractQuery,
  OwnersForNftQuery,
  SearchQuery,
} from './list-params.ts';
import {
  AirdropVerdict,
  AttributeSummary,
  Collection,
  ContractList,
  ContractNftId,
  ContractNfts,
  ContractOwners,
  HolderOfContract,
  NftList,
  OwnerBalances,
  OwnerContract,
  OwnerContracts,
  Rarity,
  Reingestion,
  SpamContracts,
  SpamReportReceipt,
  SpamVerdict,
  TokenOwners,
  TokenRefresh,
} from './list-schemas.ts';
import {
  BATCH_BODY_MAX_BYTES,
  ContractMetadataBatchBody,
  ContractQuery,
  NftMetadataBatchBody,
  NftMetadataQuery,
  NftsForOwnerQuery,
  RefreshNftBody,
  TokenQuery,
} from './params.ts';
import { MarketplaceMetadata, Nft, NftCollection, NftContract, NftImage, NftTokenType, OwnedNft, OwnedNftId, OwnedNfts, ValidAt } from './schemas.ts';

// The NFT endpoints under `{node_url}` (docs/nft-data.md), one entry each for the keyed REST door
// (src/rest/): every one is served under both `{node_url}/v2/<key>/…` and alchemy-sdk 3's
// `{node_url}/nft/v3/<key>/…` (the SDK asks `<url>/<method>` of whichever url it is given), with its
// input schemas, its cost in compute units (taken from the app's rate and monthly quota like a
// JSON-RPC method's, metered under the endpoint's name) and its handler. The costs weigh what an
// answer reads against the registry's methods (eth_call 26, eth_getLogs 75): a page of up to 100
// NFTs is one index page plus up to 100 metadata records and their contracts' facts (100); one
// token's metadata is one record and one contract (40); a contract's facts are one cached row (20);
// an answer over a whole contract or a whole network's NFT contracts reads more (100 to 200).

const V2 = '/v2/{apiKey}';
const V3 = '/nft/v3/{apiKey}';

const ApiKey = z.object({ apiKey: z.string().min(1).describe("An app's key, or `demo` (limited per client IP).") });

const costs = (computeUnits: number) => `Costs ${computeUnits} compute units, taken from the app's rate and monthly quota.`;

const error = (status: number, when: string): [number, ResponseSpec] => [status, { description: when, content: { 'application/json': ErrorBody } }];

function responses(answer: z.ZodType, notFound = '`not_found`: the token or contract is not in the index.'): Record<number, ResponseSpec> {
  return Object.fromEntries([
    [200, { description: 'The answer (docs/nft-data.md#endpoints).', content: { 'application/json': answer } }],
    error(
      400,
      '`bad_request`: a parameter is missing or invalid (the message names it), or the call costs more compute units than the key may spend at once (its burst), which no wait changes.',
    ),
    error(401, '`unauthorized`: the key is missing or unknown.'),
    error(403, '`forbidden`: the app is disabled, or not allowed on this network or from this Origin.'),
    error(404, notFound),
    [
      429,
      {
        description: '`rate_limited`: over the rate or the monthly quota.',
        content: { 'application/json': ErrorBody },
        headers: { 'Retry-After': { description: 'Seconds until the call may be made again.', schema: z.string() } },
      },
    ],
    error(500, '`internal_error`: the server failed.'),
    error(503, '`upstream_unavailable`: the network’s index or nodes cannot answer now.'),
  ]);
}

/** An endpoint's two paths: `{node_url}/v2/<key>/<name>` and `{node_url}/nft/v3/<key>/<name>`. */
const bothPaths = (name: string) => [
  { path: `${V2}/${name}`, operationId: name },
  { path: `${V3}/${name}`, operationId: `${name}V3` },
];

const tags = ['NFT'];

interface Entry<Q extends z.ZodObject, B extends z.ZodType> {
  name: string;
  method?: 'GET' | 'POST';
  summary: string;
  computeUnits: number;
  query?: Q;
  body?: B;
  answer: z.ZodType;
  notFound?: string;
  handler: RestOperation<NftApi, Q, B>['handler'];
}

/** One endpoint under both prefixes, GET unless it takes a body. */
function endpoint<Q extends z.ZodObject = z.ZodObject, B extends z.ZodType = z.ZodUndefined>(entry: Entry<Q, B>): RestOperation<NftApi> {
  return defineRestOperation<NftApi, Q, B>({
    operationId: entry.name,
    method: entry.body ? 'POST' : 'GET',
    paths: bothPaths(entry.name),
    summary: entry.summary,
    description: costs(entry.computeUnits),
    tags,
    ...(entry.query && { query: entry.query }),
    ...(entry.body && { body: { schema: entry.body, maxBytes: BATCH_BODY_MAX_BYTES } }),
    computeUnits: entry.computeUnits,
    responses: responses(entry.answer, entry.notFound),
    handler: entry.handler,
  });
}

const NO_CONTRACT = '`not_found`: the index holds no NFT of the contract.';

export const nftOperations = [
  endpoint({
    name: 'getNFTs',
    summary: 'The NFTs a wallet owns, one page at a time (docs/nft-data.md#getnfts-and-getnftsforowner); the same answer as getNFTsForOwner.',
    computeUnits: 100,
    query: NftsForOwnerQuery,
    answer: OwnedNfts,
    handler: ({ query }, nfts) => nfts.nftsForOwner(query),
  }),
  endpoint({
    name: 'getNFTsForOwner',
    summary: 'The NFTs a wallet owns (alchemy-sdk `nft.getNftsForOwner`); the same answer as getNFTs.',
    computeUnits: 100,
    query: NftsForOwnerQuery,
    answer: OwnedNfts,
    handler: ({ query }, nfts) => nfts.nftsForOwner(query),
  }),
  endpoint({
    name: 'getNFTMetadata',
    summary: "One token's metadata and media, with its contract's facts.",
    computeUnits: 40,
    query: NftMetadataQuery,
    answer: Nft,
    handler: ({ query }, nfts) => nfts.nftMetadata(query),
  }),
  endpoint({
    name: 'getNFTMetadataBatch',
    summary: 'The metadata of up to 100 tokens, in the order asked; a token not in the index has raw.error saying so.',
    computeUnits: 100,
    body: NftMetadataBatchBody,
    answer: NftList,
    handler: ({ body }, nfts) => nfts.nftMetadataBatch(body),
  }),
  endpoint({
    name: 'getContractMetadata',
    summary: "One NFT contract's facts: name, symbol, supply, type, deployer, marketplace data.",
    computeUnits: 20,
    query: ContractQuery,
    answer: NftContract,
    handler: ({ query }, nfts) => nfts.contractMetadata(query),
  }),
  endpoint({
    name: 'getContractMetadataBatch',
    summary: 'The facts of up to 45 contracts, in the order asked.',
    computeUnits: 50,
    body: ContractMetadataBatchBody,
    answer: ContractList,
    handler: ({ body }, nfts) => nfts.contractMetadataBatch(body),
  }),
  endpoint({
    name: 'getCollectionMetadata',
    summary: 'A collection of the collections registry by its slug, with its contract on this network.',
    computeUnits: 20,
    query: CollectionQuery,
    answer: Collection,
    notFound: '`not_found`: the registry has no collection of that slug on this network.',
    handler: ({ query }, nfts) => nfts.collectionMetadata(query),
  }),
  endpoint({
    name: 'searchContractMetadata',
    summary: 'The NFT contracts of the index whose name, symbol or collection name holds every word of the query (at most 100).',
    computeUnits: 100,
    query: SearchQuery,
    answer: ContractList,
    handler: ({ query }, nfts) => nfts.searchContractMetadata(query),
  }),
  endpoint({
    name: 'getNFTsForContract',
    summary: "A contract's tokens by token id, one page at a time (from startToken or pageKey).",
    computeUnits: 100,
    query: NftsForContractQuery,
    answer: ContractNfts,
    notFound: NO_CONTRACT,
    handler: ({ query }, nfts) => nfts.nftsForContract(query),
  }),
  endpoint({
    name: 'getNFTsForCollection',
    summary: "A collection's tokens, by its contract or its registry slug; the same pages as getNFTsForContract.",
    computeUnits: 100,
    query: NftsForCollectionQuery,
    answer: ContractNfts,
    notFound: '`not_found`: the index holds no NFT of the contract, or the registry has no collection of that slug on this network.',
    handler: ({ query }, nfts) => nfts.nftsForCollection(query),
  }),
  endpoint({
    name: 'getOwnersForNFT',
    summary: 'The addresses that hold a token (several for an ERC-1155), by address.',
    computeUnits: 20,
    query: OwnersForNftQuery,
    answer: TokenOwners,
    notFound: NO_CONTRACT,
    handler: ({ query }, nfts) => nfts.ownersForNft(query),
  }),
  endpoint({
    name: 'getOwnersForContract',
    summary: "The addresses that hold a contract's NFTs, by address, up to 50,000 a page; with withTokenBalances each with its tokens.",
    computeUnits: 200,
    query: OwnersForContractQuery,
    answer: ContractOwners,
    notFound: NO_CONTRACT,
    handler: ({ query }, nfts) => nfts.ownersForContract(query),
  }),
  endpoint({
    name: 'getContractsForOwner',
    summary: 'The NFT contracts a wallet holds tokens of, with how many, a display token and the contract’s facts.',
    computeUnits: 100,
    query: ContractsForOwnerQuery,
    answer: OwnerContracts,
    handler: ({ query }, nfts) => nfts.contractsForOwner(query),
  }),
  endpoint({
    name: 'isHolderOfContract',
    summary: 'Whether a wallet holds any NFT of a contract.',
    computeUnits: 20,
    query: HolderOfContractQuery,
    answer: HolderOfContract,
    handler: ({ query }, nfts) => nfts.isHolderOfContract(query),
  }),
  endpoint({
    name: 'isSpamContract',
    summary: "Whether a spam rule matches the contract (its facts' isSpam).",
    computeUnits: 20,
    query: ContractQuery,
    answer: SpamVerdict,
    handler: ({ query }, nfts) => nfts.isSpamContract(query),
  }),
  endpoint({
    name: 'getSpamContracts',
    summary: 'The NFT contracts of the index a spam rule matches.',
    computeUnits: 100,
    answer: SpamContracts,
    handler: (_input, nfts) => nfts.spamContracts(),
  }),
  endpoint({
    name: 'isAirdropNFT',
    summary: 'Whether the token was minted by a mass airdrop (one transaction minting to at least NFT_SPAM_AIRDROP_MIN_RECIPIENTS addresses).',
    computeUnits: 20,
    query: TokenQuery,
    answer: AirdropVerdict,
    handler: ({ query }, nfts) => nfts.isAirdropNft(query),
  }),
  endpoint({
    name: 'reportSpam',
    summary: 'Reports a contract as spam to the operator; recorded, never trusted by itself (isSpam stays the rules’).',
    computeUnits: 20,
    query: ContractQuery,
    answer: SpamReportReceipt,
    handler: ({ query, caller }, nfts) => nfts.reportSpam(query, caller),
  }),
  endpoint({
    name: 'computeRarity',
    summary: "A token's traits, each with the share of the contract's tokens that have the same value.",
    computeUnits: 100,
    query: TokenQuery,
    answer: Rarity,
    handler: ({ query }, nfts) => nfts.computeRarity(query),
  }),
  endpoint({
    name: 'summarizeNFTAttributes',
    summary: "Per trait type of a contract's tokens, how many have each value.",
    computeUnits: 100,
    query: ContractQuery,
    answer: AttributeSummary,
    notFound: NO_CONTRACT,
    handler: ({ query }, nfts) => nfts.summarizeNftAttributes(query),
  }),
  endpoint({
    name: 'refreshNftMetadata',
    summary: "Queues a token's metadata to be fetched again by the metadata worker.",
    computeUnits: 40,
    body: RefreshNftBody,
    answer: TokenRefresh,
    handler: ({ body }, nfts) => nfts.refreshNftMetadata(body),
  }),
  endpoint({
    name: 'reingestContract',
    summary: "Queues every token of a contract to be fetched again by the metadata worker; answers the request's state and progress.",
    computeUnits: 200,
    query: ContractQuery,
    answer: Reingestion,
    handler: ({ query }, nfts) => nfts.reingestContract(query),
  }),
];

/** NFT data of each EVM network, under its `{node_url}`; the key is a path segment, so its document declares no security scheme. */
export const nftProduct: RestProduct<NftApi> = {
  name: 'NFT',
  mount: { at: 'node' },
  queryStyle: 'sdk',
  scope: { network: true },
  apiKey: ApiKey,
  internalErrorMessage: 'The server failed while reading NFT data.',
  operations: nftOperations,
  nodeDocument: {
    title: (networkName) => `Crucible NFT API: ${networkName}`,
    description: (networkName) => `NFT data of ${networkName}. Paths are relative to this node's URL; JSON-RPC is POST /v2/{apiKey} (see /openrpc.json).`,
    tags: [
      {
        name: 'NFT',
        description:
          'NFTs by owner and by contract, owners, metadata, contract facts, collections, spam and traits, from the transfer index (docs/nft-data.md#endpoints).',
      },
    ],
    components: {
      Error: ErrorBody,
      OwnedNfts,
      OwnedNft,
      OwnedNftId,
      Nft,
      NftContract,
      MarketplaceMetadata,
      NftImage,
      NftCollection,
      NftTokenType,
      ValidAt,
      ContractNftId,
      OwnerBalances,
      OwnerContract,
    },
  },
};
