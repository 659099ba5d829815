import { z } from 'zod';
import type { ResponseSpec } from '../../api/operation.ts';
import { ErrorBody } from '../../api/schemas.ts';
import { defineRestOperation, type RestProduct } from '../../rest/operation.ts';
import type { NftMarketApi } from './market-api.ts';
import { TokenId } from '../api/params.ts';
import { FloorPriceQuery, NftSalesQuery } from './params.ts';
import { FloorPrice, FloorPriceEntry, Marketplace, NftSale, NftSaleFee, NftSales } from './schemas.ts';

// getFloorPrice and getNFTSales under `{node_url}` (docs/nft-data.md#marketplaces), one entry each for the keyed
// REST door (src/rest/), under both `{node_url}/v2/<key>/…` and alchemy-sdk 3's
// `{node_url}/nft/v3/<key>/…`. A product of its own beside the NFT endpoints (its services are the
// marketplaces a network reads); the network's OpenAPI document lists both. Costs weigh what an
// answer reads: a floor is one indexed query per marketplace; a page of sales up to 1,000 rows.

const V2 = '/v2/{apiKey}';
const V3 = '/nft/v3/{apiKey}';

const costs = (computeUnits: number) => `Costs ${computeUnits} compute units, taken from the app's rate and monthly quota.`;
const error = (status: number, when: string): [number, ResponseSpec] => [status, { description: when, content: { 'application/json': ErrorBody } }];

function responses(answer: z.ZodType): Record<number, ResponseSpec> {
  return Object.fromEntries([
    [200, { description: 'The answer.', content: { 'application/json': answer } }],
    error(400, '`bad_request`: a parameter is missing or invalid, or names a marketplace the network does not read; the message names it.'),
    error(401, '`unauthorized`: the key is missing or unknown.'),
    error(403, '`forbidden`: the app is disabled, or not allowed on this network or from this Origin.'),
    [
      429,
      {
        description: '`rate_limited`: over the rate or the monthly quota.',
        content: { 'application/json': ErrorBody },
        headers: { 'Retry-After': { description: 'Seconds until the call may be made again.', schema: z.string() } },
      },
    ],
    error(500, '`internal_error`: the server failed.'),
    error(503, '`upstream_unavailable`: the network’s index holds no block yet.'),
  ]);
}

const tags = ['NFT marketplaces'];

const nftMarketOperations = [
  defineRestOperation<NftMarketApi, typeof FloorPriceQuery>({
    operationId: 'getFloorPrice',
    method: 'GET',
    paths: [
      { path: `${V2}/getFloorPrice`, operationId: 'getFloorPrice' },
      { path: `${V3}/getFloorPrice`, operationId: 'getFloorPriceV3' },
    ],
    summary: "A collection's floor on each marketplace the network reads: its cheapest open listing in the native currency (alchemy-sdk `nft.getFloorPrice`).",
    description: costs(40),
    tags,
    query: FloorPriceQuery,
    computeUnits: 40,
    responses: responses(FloorPrice),
    handler: ({ query }, market) => market.floorPrice(query),
  }),
  defineRestOperation<NftMarketApi, typeof NftSalesQuery>({
    operationId: 'getNFTSales',
    method: 'GET',
    paths: [
      { path: `${V2}/getNFTSales`, operationId: 'getNFTSales' },
      { path: `${V3}/getNFTSales`, operationId: 'getNFTSalesV3' },
    ],
    summary: 'Sales on the marketplaces the network reads, by block, filtered and paged (alchemy-sdk `nft.getNftSales`).',
    description: costs(100),
    tags,
    query: NftSalesQuery,
    computeUnits: 100,
    responses: responses(NftSales),
    handler: ({ query }, market) => market.nftSales(query),
  }),
];

/** Marketplace data of each EVM network, under its `{node_url}` beside the NFT endpoints. */
export const nftMarketProduct: RestProduct<NftMarketApi> = {
  name: 'NFT marketplaces',
  mount: { at: 'node' },
  queryStyle: 'sdk',
  scope: { network: true },
  apiKey: z.object({ apiKey: z.string().min(1).describe("An app's key, or `demo` (limited per client IP).") }),
  internalErrorMessage: 'The server failed while reading marketplace data.',
  operations: nftMarketOperations,
  nodeDocument: {
    title: (networkName) => `Crucible NFT API: ${networkName}`,
    description: (networkName) => `NFT data of ${networkName}.`,
    tags: [{ name: 'NFT marketplaces', description: 'Floors and sales from the marketplaces a network reads (docs/nft-data.md#marketplaces).' }],
    // TokenId too: the NFT endpoints' token id, which the sales' tokenId describes anew (a described copy refers to its original).
    components: { FloorPrice, FloorPriceEntry, NftSales, NftSale, NftSaleFee, Marketplace, TokenId },
  },
};
