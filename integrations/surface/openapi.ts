import { siteOpenApiDocument } from '../../src/runtime/site-api.ts';
import { loadFaucetNetworks } from '../../src/chain/networks.ts';

// /openapi.json and /api/openapi.json (docs/website.md#openapi-document), prerendered: the document depends only on the
// site origin and the networks of content/, both known at build.

/** The document as served, its faucet networks read as the server's faucet reads them. */
export async function renderOpenApiDocument(root: string, siteUrl: string): Promise<string> {
  const networks = await loadFaucetNetworks(root);
  return JSON.stringify(siteOpenApiDocument({ origin: new URL(siteUrl).origin, networks }));
}
