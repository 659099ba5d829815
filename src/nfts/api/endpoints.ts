// The NFT endpoints under `{node_url}` (platform §1, §5), one table: the path prefixes each is served
// under, and its cost in compute units, charged against the app's rate and monthly quota like a
// JSON-RPC method's and metered under the endpoint's name. The costs weigh what an answer reads
// against the registry's methods (eth_call 26, eth_getLogs 75): a page of up to 100 NFTs is one index
// page plus up to 100 metadata records and their contracts' facts; one token's metadata is one record
// and one contract; a contract's facts are one cached row.

export const NFT_ENDPOINTS = {
  getNFTs: { prefixes: ['v2'], computeUnits: 100, summary: 'The NFTs a wallet owns, one page at a time (spec 4.12).' },
  getNFTsForOwner: { prefixes: ['v3'], computeUnits: 100, summary: 'The NFTs a wallet owns (alchemy-sdk `nft.getNftsForOwner`); the same answer as getNFTs.' },
  getNFTMetadata: { prefixes: ['v2', 'v3'], computeUnits: 40, summary: "One token's metadata and media, with its contract's facts." },
  getContractMetadata: {
    prefixes: ['v2', 'v3'],
    computeUnits: 20,
    summary: "One NFT contract's facts: name, symbol, supply, type, deployer, marketplace data.",
  },
} as const satisfies Record<string, { prefixes: readonly NftPathPrefix[]; computeUnits: number; summary: string }>;

/** `v2`: `{node_url}/v2/<key>/<endpoint>`; `v3`: `{node_url}/nft/v3/<key>/<endpoint>` (what alchemy-sdk 3 calls). */
export type NftPathPrefix = 'v2' | 'v3';

export type NftEndpointName = keyof typeof NFT_ENDPOINTS;

/** The endpoint a path's last segment names under this prefix, or null. */
export function nftEndpointOf(prefix: NftPathPrefix, name: string): NftEndpointName | null {
  if (!Object.hasOwn(NFT_ENDPOINTS, name)) return null;
  const endpoint = name as NftEndpointName;
  return (NFT_ENDPOINTS[endpoint].prefixes as readonly NftPathPrefix[]).includes(prefix) ? endpoint : null;
}

/** The path of an endpoint under `{node_url}`, with `key` in place of the app key. */
export function nftPath(prefix: NftPathPrefix, endpoint: NftEndpointName, key: string): string {
  return `${prefix === 'v2' ? '/v2' : '/nft/v3'}/${key}/${endpoint}`;
}
