import { type CatalogSources, mcpTools } from './catalog.ts';
import { createToolCalls } from './calls.ts';
import { createMcpEndpoint, type McpEndpoint } from './http.ts';
import type { McpPorts } from './ports.ts';
import { createMcpProtocol } from './protocol.ts';
import { createResources } from './resources.ts';
import type { McpTool } from './tool.ts';

// The MCP server (docs/mcp.md) from its ports and the registries its tools are generated from: the
// Streamable HTTP endpoint `npm start` serves at `<site origin>/mcp` (and `npm run mcp` bridges to).

export interface McpServer {
  endpoint: McpEndpoint;
  tools: readonly McpTool[];
}

export function createMcpServer(ports: McpPorts, sources: CatalogSources): McpServer {
  const tools = mcpTools(sources);
  const calls = createToolCalls(ports, tools, sources.locales);
  const protocol = createMcpProtocol(ports, tools, calls, createResources(ports));
  return { endpoint: createMcpEndpoint(ports, protocol), tools };
}
