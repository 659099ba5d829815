import { z } from 'zod';
import type { ResponseSpec } from '../../api/operation.ts';
import { ErrorBody } from '../../api/schemas.ts';
import { defineRestOperation, type RestProduct } from '../../rest/operation.ts';
import type { NftApi } from './handlers.ts';
import { ContractMetadataQuery, NftMetadataQuery, NftsForOwnerQuery } from './params.ts';
import { MarketplaceMetadata, Nft, NftCollection, NftContract, NftImage, NftTokenType, OwnedNft, OwnedNftId, OwnedNfts, ValidAt } from './schemas.ts';

// The NFT endpoints under `{node_url}` (docs/nft-data.md), one entry each for the keyed REST door
// (src/rest/): the paths each is served under, `{node_url}/v2/<key>/…` and alchemy-sdk 3's
// `{node_url}/nft/v3/<key>/…`, its query, its cost in compute units (taken from the app's rate and
// monthly quota like a JSON-RPC method's, metered under the endpoint's name) and its handler. The
// costs weigh what an answer reads against the registry's methods (eth_call 26, eth_getLogs 75):
// a page of up to 100 NFTs is one index page plus up to 100 metadata records and their
// contracts' facts; one token's metadata is one record and one contract; a contract's facts are
// one cached row.

const V2 = '/v2/{apiKey}';
const V3 = '/nft/v3/{apiKey}';

const ApiKey = z.object({ apiKey: z.string().min(1).describe("An app's key, or `demo` (limited per client IP).") });

const costs = (computeUnits: number) => `Costs ${computeUnits} compute units, taken from the app's rate and monthly quota.`;

const error = (status: number, when: string): [number, ResponseSpec] => [status, { description: when, content: { 'application/json': ErrorBody } }];

function responses(answer: z.ZodType): Record<number, ResponseSpec> {
  return Object.fromEntries([
    [200, { description: 'The answer (docs/nft-data.md#nft-object).', content: { 'application/json': answer } }],
    error(
      400,
      '`bad_request`: a parameter is missing or invalid (the message names it), or the call costs more compute units than the key may spend at once (its burst), which no wait changes.',
    ),
    error(401, '`unauthorized`: the key is missing or unknown.'),
    error(403, '`forbidden`: the app is disabled, or not allowed on this network or from this Origin.'),
    error(404, '`not_found`: the token or contract is not in the index.'),
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

const tags = ['NFT'];

export const nftOperations = [
  defineRestOperation<NftApi, typeof NftsForOwnerQuery>({
    operationId: 'getNFTs',
    method: 'GET',
    paths: [{ path: `${V2}/getNFTs`, operationId: 'getNFTs' }],
    summary: 'The NFTs a wallet owns, one page at a time (docs/nft-data.md#getnfts-and-getnftsforowner).',
    description: costs(100),
    tags,
    query: NftsForOwnerQuery,
    computeUnits: 100,
    responses: responses(OwnedNfts),
    handler: ({ query }, nfts) => nfts.nftsForOwner(query),
  }),
  defineRestOperation<NftApi, typeof NftsForOwnerQuery>({
    operationId: 'getNFTsForOwner',
    method: 'GET',
    paths: [{ path: `${V3}/getNFTsForOwner`, operationId: 'getNFTsForOwner' }],
    summary: 'The NFTs a wallet owns (alchemy-sdk `nft.getNftsForOwner`); the same answer as getNFTs.',
    description: costs(100),
    tags,
    query: NftsForOwnerQuery,
    computeUnits: 100,
    responses: responses(OwnedNfts),
    handler: ({ query }, nfts) => nfts.nftsForOwner(query),
  }),
  defineRestOperation<NftApi, typeof NftMetadataQuery>({
    operationId: 'getNFTMetadata',
    method: 'GET',
    paths: [
      { path: `${V2}/getNFTMetadata`, operationId: 'getNFTMetadata' },
      { path: `${V3}/getNFTMetadata`, operationId: 'getNFTMetadataV3' },
    ],
    summary: "One token's metadata and media, with its contract's facts.",
    description: costs(40),
    tags,
    query: NftMetadataQuery,
    computeUnits: 40,
    responses: responses(Nft),
    handler: ({ query }, nfts) => nfts.nftMetadata(query),
  }),
  defineRestOperation<NftApi, typeof ContractMetadataQuery>({
    operationId: 'getContractMetadata',
    method: 'GET',
    paths: [
      { path: `${V2}/getContractMetadata`, operationId: 'getContractMetadata' },
      { path: `${V3}/getContractMetadata`, operationId: 'getContractMetadataV3' },
    ],
    summary: "One NFT contract's facts: name, symbol, supply, type, deployer, marketplace data.",
    description: costs(20),
    tags,
    query: ContractMetadataQuery,
    computeUnits: 20,
    responses: responses(NftContract),
    handler: ({ query }, nfts) => nfts.contractMetadata(query),
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
    tags: [{ name: 'NFT', description: 'NFTs by owner, token metadata and contract facts, from the transfer index (docs/nft-data.md#endpoints).' }],
    components: { Error: ErrorBody, OwnedNfts, OwnedNft, OwnedNftId, Nft, NftContract, MarketplaceMetadata, NftImage, NftCollection, NftTokenType, ValidAt },
  },
};
