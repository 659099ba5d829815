import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { toRpcFailure } from '../errors/json-rpc.ts';
import { MCP_SCOPE, type ToolCalls } from './calls.ts';
import type { McpCaller, McpPorts } from './ports.ts';
import type { Resources } from './resources.ts';
import type { McpTool } from './tool.ts';

// The MCP protocol over the tools and resources (docs/mcp.md): one SDK Server per HTTP message
// (the Streamable HTTP transport runs stateless), its handlers closed over the message's caller.
// The tool list and the JSON Schema validator are made once: a Server makes an Ajv instance of its
// own unless given one, which cost more than the rest of a tool call (BENCHMARKS.md, MCP server).

/** What a resource read costs, as read_page does. */
const RESOURCE_READ_COMPUTE_UNITS = 10;

/** The server's name and version in `initialize`. */
const SERVER_INFO = { name: 'crucible', title: 'Crucible', version: '1.0.0' };

/** What the initialize answer tells a model about every tool. */
function instructionsOf(budget: number): string {
  return [
    "Crucible's tools: search_docs and read_page for the docs, list_networks for the networks, one tool per JSON-RPC read method (give `network`), the NFT and prices operations, transaction simulation and tracing, and the faucet (local mode only).",
    `Every answer is one JSON text of at most ${budget} characters. One that would be longer is sliced: \`truncated\` is true, \`slice\` says which part it holds, and \`cursor\` (when more follows) is passed with the same inputs to the same tool for the next part.`,
    'Addresses are checksummed; wei amounts of node answers have a `…Formatted` sibling in the native currency, token balances a `balance` in the token’s units. A failing tool answers `{ error: { code, message, hint } }`.',
    'Every call costs compute units from your key’s limits, as the same call through the API does.',
  ].join(' ');
}

export interface McpProtocol {
  /** A server for one message from `caller`. */
  serverFor(caller: McpCaller): Server;
}

export function createMcpProtocol(ports: McpPorts, tools: readonly McpTool[], calls: ToolCalls, resources: Resources): McpProtocol {
  const listed = tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema, annotations: tool.annotations }));
  const instructions = instructionsOf(ports.answerBudgetChars);
  const jsonSchemaValidator = new AjvJsonSchemaValidator();
  return {
    serverFor(caller) {
      const server = new Server(SERVER_INFO, { capabilities: { tools: {}, resources: {} }, instructions, jsonSchemaValidator });
      server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
      server.setRequestHandler(CallToolRequestSchema, (request) => calls.call(caller, request.params.name, request.params.arguments ?? {}) as never);
      server.setRequestHandler(ListResourcesRequestSchema, (request) => {
        const page = resources.list(request.params?.cursor);
        if (!page) throw new McpError(ErrorCode.InvalidParams, 'This cursor is not one resources/list gave.');
        return page;
      });
      server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
        const refused = await ports.admission.charge(caller.caller, MCP_SCOPE, RESOURCE_READ_COMPUTE_UNITS, caller.clientIp);
        if (refused) {
          const { error } = toRpcFailure(refused);
          throw new McpError(error.code, error.message, error.data);
        }
        const read = await resources.read(request.params.uri);
        ports.admission.meter(caller.caller, MCP_SCOPE, 'resources/read', RESOURCE_READ_COMPUTE_UNITS, read ? null : 404);
        // -32002: MCP's "resource not found".
        if (!read) throw new McpError(-32002, `Resource not found: ${request.params.uri}. resources/list lists them.`, { uri: request.params.uri });
        return { contents: [read] };
      });
      return server;
    },
  };
}
