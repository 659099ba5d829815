import type { Admission } from '../admission/admission.ts';
import type { Caller } from '../admission/callers.ts';
import type { Logger } from '../api/operation.ts';
import type { Router } from '../api/router.ts';
import type { RpcOutcome } from '../node/rpc/jsonrpc.ts';
import type { RestDoor } from '../rest/door.ts';
import type { Currency, TokenFacts } from './shape.ts';

// What the MCP server stands on (src/runtime/mcp-server.ts provides each): the keyed calls go
// through the same admission, gateway and REST door as any other, so they are charged and metered
// as they are; the site's files and the network table answer the docs and networks tools.

/** Who is calling, for one MCP message: the key it carried, who that key names, and where it came from. */
export interface McpCaller {
  key: string;
  caller: Caller;
  /** The request's Origin header: an app's domain allow-list applies to it. */
  origin: string | null;
  clientIp: string | null;
  requestId: string;
}

export interface McpNetwork {
  id: string;
  name: string;
  chainId: number | null;
  currency: Currency;
  /** `{node_url}`: JSON-RPC at `<nodeUrl>/v2/<key>`. */
  nodeUrl: string;
  /** The node tools (JSON-RPC reads, NFTs, simulation, tracing) serve it: an EVM network. */
  nodeTools: boolean;
  /** Where its faucet page is. */
  faucetUrl: string;
  deprecated: boolean;
}

/** The built site's files the docs tools and the resources read. */
export interface SiteFiles {
  /** Every `.md` twin's path (`/overviews/local-world.md`), in order. */
  twins: readonly string[];
  /** The twin of a page path (`/overviews/local-world`, `/`), if it has one. */
  twinOf(pagePath: string): string | undefined;
  /** The `llms.txt` files, root first. */
  llms: readonly string[];
  /** A twin, an `llms.txt` or a locale's search index (`/api/search/<locale>`); null when the site has no such file. */
  read(path: string): Promise<string | null>;
}

export interface McpPorts {
  /** The site's origin: resources and links are absolute URLs under it. */
  origin: string;
  admission: Admission;
  /** One JSON-RPC call through the gateway, admitted, charged and metered as one over HTTP (the key's network allow-list too). */
  rpc(caller: McpCaller, network: string, method: string, params: unknown[]): Promise<RpcOutcome>;
  /** The network's RPC docs page, where JSON-RPC refusals point. */
  rpcDocsUrl(network: string): string;
  /** The keyed REST products (NFTs under `{node_url}`, prices on the site). */
  rest: RestDoor;
  /** The site API (the faucet's operations). */
  siteApi: Router;
  site: SiteFiles;
  networks: readonly McpNetwork[];
  /** Decimals and symbols of token contracts on a network, from the token metadata cache (lower-case addresses). */
  tokenFacts(network: string, contracts: readonly string[]): Promise<TokenFacts>;
  /** The CAPTCHA token the faucet tool sends: local mode's development token; null where the faucet needs a person (production). */
  faucetToken: string | null;
  /** What an MCP message is charged before it is read (NODE_MIN_REQUEST_COMPUTE_UNITS, the gateway's least charge). */
  leastCharge: number;
  answerBudgetChars: number;
  maxBodyBytes: number;
  jsonMaxDepth: number;
  log: Logger;
}
