import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ApiRequest } from '../api/operation.ts';
import { CrucibleError } from '../errors/crucible-error.ts';
import { jsonType } from '../http/media.ts';
import { blockedMethodFamilies, isBlockedMethod, rpcRegistry } from '../node/rpc/registry.ts';
import { defaultLocale } from '../site/locales.ts';
import { mcpGuideUrl } from '../site/urls.ts';
import { callHash, CursorError, readCursor, sizedAnswer } from './answers.ts';
import { FILLED_BY_SERVER, isReadMethod, toolNameOf } from './catalog.ts';
import { createDocs, networkList } from './docs.ts';
import type { McpCaller, McpNetwork, McpPorts } from './ports.ts';
import { checksummed, formatAmount, tokenContractsOf, withNativeAmounts, withTokenAmounts } from './shape.ts';
import { siteToolInputs } from './site-tools.ts';
import { CURSOR_FIELD, type McpTool, type ToolSource } from './tool.ts';
import { answeredToolError, nodeToolError, ownToolError, rpcToolError, type ToolResult } from './tool-errors.ts';

// A tool call (docs/mcp.md#tools): the inputs checked against the tool's fields, the call made
// where the same call over HTTP goes (the gateway for a JSON-RPC read, the REST door for an NFT or
// prices operation, the site API for the faucet) so that it is admitted, charged and metered as
// that call is, the answer shaped (./shape.ts) and sized (./answers.ts). The site's own tools are
// charged here, under the scope `mcp`, and metered by their names.

/** The scope the site's own tools are charged and metered under, as prices are under `prices`. */
export const MCP_SCOPE = 'mcp';

/** A tool's answer, or its tool error with the HTTP status the same call gets (what a site tool is metered with). */
type Answered = { ok: true; value: unknown; extra?: Record<string, unknown> } | { ok: false; result: ToolResult; status: number };

export interface ToolCalls {
  call(caller: McpCaller, name: string, args: Record<string, unknown>): Promise<ToolResult>;
}

export function createToolCalls(ports: McpPorts, tools: readonly McpTool[], locales: readonly string[]): ToolCalls {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const networks = new Map(ports.networks.map((network) => [network.id, network]));
  const docs = createDocs(ports.site, ports.origin);
  const inputs = siteToolInputs(locales);
  const guide = new URL(mcpGuideUrl(defaultLocale), ports.origin).href;
  const own = (error: CrucibleError): Answered => ({ ok: false, result: ownToolError(error, guide), status: error.status });
  const refuse = (message: string): Answered => own(new CrucibleError('bad_request', message));

  /** The network a node tool names, or why it cannot be used. */
  const nodeNetwork = (value: unknown): McpNetwork | string => {
    const network = typeof value === 'string' ? networks.get(value) : undefined;
    if (network?.nodeTools) return network;
    return value === undefined
      ? 'network is required: a network id, as list_networks gives them.'
      : `network ${JSON.stringify(value)} is not one this tool serves: give an EVM network's id, as list_networks gives them.`;
  };

  const rpc = async (caller: McpCaller, tool: McpTool & { source: { kind: 'rpc' } }, given: Record<string, unknown>): Promise<Answered> => {
    const { method } = tool.source;
    const network = nodeNetwork(given.network);
    if (typeof network === 'string') return refuse(network);
    // Params by position, as the registry lists them; the gateway validates them with its schemas.
    const params: unknown[] = method.params.map((param) => given[param.name] ?? null);
    while (params.length > 0 && params.at(-1) === null) params.pop();
    const outcome = await ports.rpc(caller, network.id, method.name, params);
    const docsUrl = ports.rpcDocsUrl(network.id);
    if ('failure' in outcome) return { ok: false, result: rpcToolError(outcome.failure, docsUrl), status: outcome.failure.httpStatus };
    if ('nodeError' in outcome) return { ok: false, result: nodeToolError(outcome.nodeError, docsUrl), status: 200 };
    const { result } = outcome;
    let value = checksummed(result);
    if (!method.served) value = withNativeAmounts(value, network.currency);
    else if (Array.isArray((result as { tokenBalances?: unknown } | null)?.tokenBalances))
      value = withTokenAmounts(value, await ports.tokenFacts(network.id, tokenContractsOf(result)), network.currency);
    const balance = method.result.name === 'balance' && typeof result === 'string' && /^0x[0-9a-fA-F]+$/.test(result);
    return { ok: true, value, ...(balance ? { extra: { resultFormatted: formatAmount(result, network.currency) } } : {}) };
  };

  /** A keyed REST operation, asked of the door as its HTTP request would ask it. */
  const rest = async (caller: McpCaller, tool: McpTool & { source: { kind: 'rest' } }, given: Record<string, unknown>): Promise<Answered> => {
    const { product, operation } = tool.source;
    const { query, body } = requestParts(tool, given);
    const path = operation.paths[0]!.path.replace('{apiKey}', encodeURIComponent(caller.key));
    const context = { path: operation.paths[0]!.path, clientIp: caller.clientIp, requestId: caller.requestId, log: ports.log };
    let response: Response;
    if (product.mount.at === 'node') {
      const network = nodeNetwork(given.network);
      if (typeof network === 'string') return refuse(network);
      const request = apiRequest(`${network.nodeUrl}${path}${query}`, operation.method, caller.origin, body);
      response = await ports.rest.handleNode(request, { network: network.id, path }, context);
    } else {
      response = await ports.rest.handleSite(apiRequest(`${ports.origin}${path}${query}`, operation.method, caller.origin, body), path, context);
    }
    return answered(response, guide, (value) => checksummed(value));
  };

  /** One of the site API's operations (the faucet's), charged as a site tool. */
  const siteOperation = async (
    caller: McpCaller,
    tool: McpTool & { source: { kind: 'site-operation' } },
    given: Record<string, unknown>,
  ): Promise<Answered> => {
    const { operation } = tool.source;
    const filled = Object.keys((operation.body?.schema as { shape?: object } | undefined)?.shape ?? {}).filter((key) => FILLED_BY_SERVER.has(key));
    const fills = filled.length > 0;
    if (fills && ports.faucetToken === null) {
      const faucetUrl = networks.get(String(given.faucetId))?.faucetUrl ?? new URL('/faucets/', ports.origin).href;
      return {
        ok: false,
        status: 400,
        result: answeredToolError(
          400,
          {
            error: 'The faucet needs a person to solve its CAPTCHA here: this server checks real CAPTCHA tokens (production mode, or Turnstile keys set).',
            statusCode: 'missing_turnstile',
            hint: `Open ${faucetUrl} in a browser, solve the check and send the drip there; the MCP tool drips only in local mode.`,
          },
          guide,
        ),
      };
    }
    const { query, body, path } = requestParts(tool, given);
    const sent = fills ? { ...(body as object), ...Object.fromEntries(filled.map((key) => [key, ports.faucetToken])) } : body;
    const url = `${ports.origin}${operation.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(path[name] ?? '')))}${query}`;
    const response = await ports.siteApi.handle(apiRequest(url, operation.method, caller.origin, sent), {
      requestId: caller.requestId,
      clientIp: caller.clientIp,
      log: ports.log,
    });
    return answered(response, guide, (value) => checksummed(value));
  };

  const site = async (tool: McpTool & { source: { kind: 'site' } }, given: Record<string, unknown>): Promise<Answered> => {
    const { name } = tool.source;
    const parsed = inputs[name].safeParse(given);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return refuse(`${issue.path.join('.') || 'The input'} ${issue.message.replace(/^Invalid input: /, '').replace(/\.$/, '')}.`);
    }
    if (name === 'list_networks') return { ok: true, value: networkList(ports.networks) };
    if (name === 'search_docs') {
      const { query, locale, limit } = parsed.data as { query: string; locale: string; limit: number };
      const hits = await docs.search(query, locale, limit);
      if (hits === null) return refuse(`The site has no search index for locale ${locale}.`);
      return { ok: true, value: hits };
    }
    const { page } = parsed.data as { page: string };
    const found = await docs.page(page);
    if (!found) return own(new CrucibleError('not_found', `The site has no page at ${page}: search_docs and llms.txt name its pages.`));
    return { ok: true, value: found.text, extra: { url: found.url, markdown: found.markdown } };
  };

  return {
    async call(caller, name, args) {
      const tool = byName.get(name);
      if (!tool) throw new McpError(ErrorCode.InvalidParams, unknownToolMessage(name));
      const { [CURSOR_FIELD]: cursorText, ...given } = args;
      // A cursor names its call by a hash of it, made only when a cursor is read or written.
      let known: string | undefined;
      const hash = () => (known ??= callHash(tool.name, given));
      let cursor: ReturnType<typeof readCursor> | null = null;
      try {
        if (cursorText !== undefined) cursor = readCursor(String(cursorText), hash());
      } catch (error) {
        if (error instanceof CursorError) return ownToolError(new CrucibleError('bad_request', error.message), guide);
        throw error;
      }
      const unknown = Object.keys(given).filter((key) => !tool.fields.has(key));
      if (unknown.length) {
        const takes = [...tool.fields.keys(), CURSOR_FIELD].join(', ');
        return ownToolError(new CrucibleError('bad_request', `${unknown.join(', ')} is not an input of ${tool.name}; it takes ${takes}.`), guide);
      }

      const answered = await run(tool, caller, given);
      if (!answered.ok) return answered.result;
      try {
        return { content: [{ type: 'text', text: sizedAnswer(answered.value, { budget: ports.answerBudgetChars, hash, cursor, extra: answered.extra }) }] };
      } catch (error) {
        if (error instanceof CursorError) return ownToolError(new CrucibleError('bad_request', error.message), guide);
        throw error;
      }
    },
  };

  async function run(tool: McpTool, caller: McpCaller, given: Record<string, unknown>): Promise<Answered> {
    const source: ToolSource = tool.source;
    switch (source.kind) {
      case 'rpc':
        return rpc(caller, tool as McpTool & { source: typeof source }, given);
      case 'rest':
        return rest(caller, tool as McpTool & { source: typeof source }, given);
      case 'site-operation':
      case 'site': {
        // The site's own tools: charged and metered here, as a keyed product's calls are by its door.
        const refused = await ports.admission.charge(caller.caller, MCP_SCOPE, tool.computeUnits, caller.clientIp);
        if (refused) return own(refused);
        const done =
          source.kind === 'site'
            ? await site(tool as McpTool & { source: typeof source }, given)
            : await siteOperation(caller, tool as McpTool & { source: typeof source }, given);
        ports.admission.meter(caller.caller, MCP_SCOPE, tool.name, tool.computeUnits, done.ok ? null : done.status);
        return done;
      }
    }
  }
}

/** Why a name is no tool: a refused family, a method that is not a read (or is, under its tool's name), or no such tool. */
function unknownToolMessage(name: string): string {
  if (isBlockedMethod(name)) {
    const family = blockedMethodFamilies.find((candidate) => (candidate.match === 'exact' ? name === candidate.pattern : name.startsWith(candidate.pattern)));
    return `${name} is refused: it ${family?.reason ?? 'is not served'}. No tool calls it; tools/list lists the tools.`;
  }
  const method = rpcRegistry.find(name);
  if (method && isReadMethod(method)) return `Unknown tool: ${name}. Its tool is ${toolNameOf(method.name)}.`;
  if (method) {
    const why = method.transport === 'websocket' ? 'needs a WebSocket' : method.filterAffinity ? 'keeps a filter on a node' : 'sends a transaction';
    return `${name} is not a tool: the tools only read, and it ${why}.`;
  }
  return `Unknown tool: ${name}. tools/list lists the tools.`;
}

/** The inputs of a REST or site operation tool as its request carries them: the query string, the body and the path's members. */
function requestParts(tool: McpTool, given: Record<string, unknown>): { query: string; body: unknown; path: Record<string, unknown> } {
  const search = new URLSearchParams();
  const body: Record<string, unknown> = {};
  const path: Record<string, unknown> = {};
  let hasBody = false;
  for (const [name, value] of Object.entries(given)) {
    const field = tool.fields.get(name);
    if (!field || value === undefined) continue;
    if (field.part === 'query') for (const item of Array.isArray(value) ? value : [value]) search.append(field.key, queryValue(item));
    else if (field.part === 'body') {
      body[field.key] = value;
      hasBody = true;
    } else if (field.part === 'path') path[field.key] = value;
  }
  const operation = tool.source.kind === 'rest' || tool.source.kind === 'site-operation' ? tool.source.operation : null;
  const query = search.size ? `?${search}` : '';
  return { query, body: operation?.body || hasBody ? body : undefined, path };
}

/** A value in a query string, as a client writes it: text as it is, numbers and booleans in words. */
function queryValue(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
}

/** A request as the door and the router read one: the URL, the method, JSON in, and the MCP request's Origin. */
function apiRequest(url: string, method: string, origin: string | null, body: unknown): ApiRequest {
  const headers = new Headers({ accept: jsonType });
  if (origin) headers.set('origin', origin);
  if (body === undefined) return new Request(url, { method, headers });
  headers.set('content-type', jsonType);
  return new Request(url, { method, headers, body: JSON.stringify(body) });
}

/** A 200's JSON, shaped; any other answer as a tool error. */
async function answered(response: Response, documentationUrl: string, shape: (value: unknown) => unknown): Promise<Answered> {
  const text = await response.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  if (response.status === 200 && body !== null) return { ok: true, value: shape(body) };
  return { ok: false, result: answeredToolError(response.status, body, documentationUrl), status: response.status };
}
