import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Admission } from '../admission/admission.ts';
import type { Logger } from '../api/operation.ts';
import type { Router } from '../api/router.ts';
import { type FaucetNetwork, speaksEvmRpc } from '../chain/networks.ts';
import { mcpConfig } from '../config/config.ts';
import { DEV_TURNSTILE_TOKEN } from '../faucet/development-token.ts';
import { DEFAULT_JSON_MAX_DEPTH } from '../http/json-depth.ts';
import type { SurfaceRules } from '../http/surface-rules.ts';
import { createMcpServer, type McpServer } from '../mcp/mcp-server.ts';
import type { McpPorts, SiteFiles } from '../mcp/ports.ts';
import type { TokenFacts } from '../mcp/shape.ts';
import type { NodeGateway } from '../node/gateway.ts';
import { rpcRegistry } from '../node/rpc/registry.ts';
import type { RestDoor } from '../rest/door.ts';
import { defaultLocale, locales } from '../site/locales.ts';
import { faucetsUrl, llmsUrl, nodeUrlOf, searchIndexUrl } from '../site/urls.ts';
import { rpcDocsUrl } from './node-gateway.ts';
import { restProducts } from './rest-products.ts';
import { faucetToolOperations } from './site-api.ts';

// The MCP server (src/mcp/, docs/mcp.md) over what `npm start` already serves: the gateway's calls and
// admission, the keyed REST door, the site API's faucet, the built site's twins, llms.txt files and
// search indexes, and the network table. Its tools are generated from the method registry, the REST
// products of rest-products.ts and the faucet's operations.

export interface McpServerOptions {
  origin: string;
  distDir: string;
  surface: SurfaceRules;
  networks: readonly FaucetNetwork[];
  node: { gateway: NodeGateway; admission: Admission; nodeDomain: string | null; leastCharge: number };
  rest: RestDoor;
  siteApi: Router;
  /** Whether the faucet takes local mode's development CAPTCHA token (local mode without Turnstile keys). */
  developmentCaptcha: boolean;
  jsonMaxDepth: number | undefined;
  log: Logger;
}

export function loadMcpServer(options: McpServerOptions): McpServer {
  const { origin, node } = options;
  const config = mcpConfig();
  const evm = options.networks.filter(speaksEvmRpc);
  const ports: McpPorts = {
    origin,
    admission: node.admission,
    async rpc(caller, networkId, method, params) {
      const network = node.gateway.networks.get(networkId)!;
      const authorized = await node.gateway.authorize(network, caller.key, caller.origin);
      if (!authorized.ok) return { failure: authorized.failure };
      return node.gateway.call({ caller: authorized.caller, network, clientIp: caller.clientIp }, method, params);
    },
    rpcDocsUrl: (network) => rpcDocsUrl(origin, network),
    rest: options.rest,
    siteApi: options.siteApi,
    site: siteFiles(options.distDir, options.surface),
    networks: options.networks.map((network) => ({
      id: network.id,
      name: network.name,
      chainId: network.chainId,
      currency: { symbol: network.symbol, decimals: network.decimals },
      nodeUrl: nodeUrlOf(network.id, { siteOrigin: origin, nodeDomain: node.nodeDomain }),
      nodeTools: speaksEvmRpc(network) && node.gateway.networks.has(network.id),
      faucetUrl: new URL(faucetsUrl(defaultLocale, network.id), origin).href,
      deprecated: network.deprecated,
    })),
    tokenFacts: (network, contracts) => tokenFacts(node.gateway, network, contracts),
    faucetToken: options.developmentCaptcha ? DEV_TURNSTILE_TOKEN : null,
    leastCharge: node.leastCharge,
    answerBudgetChars: config.answerBudgetChars,
    maxBodyBytes: config.maxBodyBytes,
    jsonMaxDepth: options.jsonMaxDepth ?? DEFAULT_JSON_MAX_DEPTH,
    log: options.log,
  };
  return createMcpServer(ports, {
    rpcMethods: rpcRegistry.methods,
    restProducts: Object.values(restProducts),
    siteOperations: faucetToolOperations(options.networks),
    networks: evm.map((network) => network.id),
    locales,
  });
}

/** The built site's files the MCP server reads: the twins, the llms.txt files and the search indexes, nothing else. */
function siteFiles(distDir: string, surface: SurfaceRules): SiteFiles {
  const llms = locales.map((locale) => llmsUrl(locale)).filter((path) => existsSync(join(distDir, path)));
  const readable = new Set([...surface.twinPaths, ...llms, ...locales.map((locale) => searchIndexUrl(locale))]);
  return {
    twins: surface.twinPaths,
    twinOf: (path) => surface.twinOf(path),
    llms,
    read: (path) => (readable.has(path) ? readFile(join(distDir, path), 'utf8').catch(() => null) : Promise.resolve(null)),
  };
}

/** Decimals and symbols of a network's token contracts, from the token metadata its gateway serves (cached there), not charged. */
async function tokenFacts(gateway: NodeGateway, network: string, contracts: readonly string[]): Promise<TokenFacts> {
  const metadata = gateway.networks.get(network)?.served?.get('crucible_getTokenMetadata');
  const facts = new Map<string, { symbol: string; decimals: number } | null>();
  if (!metadata) return facts;
  await Promise.all(
    contracts.map(async (contract) => {
      const outcome = await metadata([contract]).catch(() => null);
      const result = outcome && 'result' in outcome ? (outcome.result as { symbol?: unknown; decimals?: unknown }) : null;
      facts.set(
        contract,
        typeof result?.decimals === 'number' && typeof result.symbol === 'string' ? { symbol: result.symbol, decimals: result.decimals } : null,
      );
    }),
  );
  return facts;
}
