import { z } from 'zod';
import { buildOpenApiDocument } from '../../api/openapi.ts';
import type { DescribedOperation, ResponseSpec } from '../../api/operation.ts';
import { ErrorBody } from '../../api/schemas.ts';
import { NFT_ENDPOINTS, nftPath, type NftEndpointName, type NftPathPrefix } from './endpoints.ts';
import { NFT_QUERY_SCHEMAS } from './params.ts';
import { MarketplaceMetadata, Nft, NftCollection, NftContract, NftImage, NftTokenType, OwnedNft, OwnedNftId, OwnedNfts, ValidAt } from './schemas.ts';

// The OpenAPI 3.1 document of a network's NFT endpoints, served at `{node_url}/openapi.json` (platform
// §1, §5): the site's generator (src/api/openapi.ts) over the endpoints' own query and answer schemas,
// with the node as its server. The key is a path segment, so the document declares no security scheme.

const RESPONSES: Record<NftEndpointName, z.ZodType> = {
  getNFTs: OwnedNfts,
  getNFTsForOwner: OwnedNfts,
  getNFTMetadata: Nft,
  getContractMetadata: NftContract,
};

const ApiKey = z.object({ apiKey: z.string().min(1).describe("An app's key, or `demo` (limited per client IP).") });

const error = (status: number, when: string): [number, ResponseSpec] => [status, { description: when, content: { 'application/json': ErrorBody } }];

function operationOf(prefix: NftPathPrefix, endpoint: NftEndpointName): DescribedOperation {
  const { summary, computeUnits } = NFT_ENDPOINTS[endpoint];
  const both = NFT_ENDPOINTS[endpoint].prefixes.length > 1;
  return {
    operationId: both && prefix === 'v3' ? `${endpoint}V3` : endpoint,
    method: 'GET',
    path: nftPath(prefix, endpoint, '{apiKey}'),
    summary,
    description: `Costs ${computeUnits} compute units, taken from the app's rate and monthly quota.`,
    tags: ['NFT'],
    params: ApiKey,
    query: NFT_QUERY_SCHEMAS[endpoint],
    responses: Object.fromEntries([
      [200, { description: 'The answer (spec 2.11).', content: { 'application/json': RESPONSES[endpoint] } }],
      error(400, '`bad_request`: a parameter is missing or invalid; the message names it.'),
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
    ]),
  };
}

/** The document for the network whose `{node_url}` is `nodeUrl`. */
export function nftOpenApiDocument(options: { nodeUrl: string; networkName: string; siteOrigin: string }): Record<string, unknown> {
  const operations = (Object.keys(NFT_ENDPOINTS) as NftEndpointName[]).flatMap((endpoint) =>
    NFT_ENDPOINTS[endpoint].prefixes.map((prefix) => operationOf(prefix, endpoint)),
  );
  const document = buildOpenApiDocument({
    origin: options.siteOrigin,
    components: { Error: ErrorBody, OwnedNfts, OwnedNft, OwnedNftId, Nft, NftContract, MarketplaceMetadata, NftImage, NftCollection, NftTokenType, ValidAt },
    operations,
    tags: [{ name: 'NFT', description: 'NFTs by owner, token metadata and contract facts, from the transfer index (platform §5).' }],
    description: `NFT data of ${options.networkName}. Paths are relative to this node's URL; JSON-RPC is POST /v2/{apiKey} (see /openrpc.json).`,
  });
  const info = document.info as Record<string, unknown>;
  return { ...document, info: { ...info, title: `Crucible NFT API: ${options.networkName}` }, servers: [{ url: options.nodeUrl }] };
}
