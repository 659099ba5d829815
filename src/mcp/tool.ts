import { z } from 'zod';
import type { DescribedOperation } from '../api/operation.ts';
import type { RpcMethod } from '../node/rpc/method.ts';
import type { RestOperation, RestProduct } from '../rest/operation.ts';

// What an MCP tool is (docs/mcp.md#tools): its name, one line, its input's JSON Schema, where each
// input goes and what the tool stands on (a registry entry, or one of the site's own tools).

// biome-ignore lint/suspicious/noExplicitAny: products of different services share one catalog.
export type AnyRestProduct = RestProduct<any>;

/** A JSON Schema as plain data. */
export type JsonSchema = Record<string, unknown>;

export type SiteToolName = 'search_docs' | 'read_page' | 'list_networks';

/** Where one named input of a tool goes. */
export type ToolField =
  | { part: 'network' }
  | { part: 'param'; index: number }
  | { part: 'query'; key: string }
  | { part: 'body'; key: string }
  | { part: 'path'; key: string };

export type ToolSource =
  | { kind: 'rpc'; method: RpcMethod }
  | { kind: 'rest'; product: AnyRestProduct; operation: RestOperation<unknown> }
  | { kind: 'site-operation'; operation: DescribedOperation }
  | { kind: 'site'; name: SiteToolName };

export interface McpTool {
  name: string;
  /** The registry's one line (or the site tool's). */
  summary: string;
  /** The summary and what a call costs, as tools/list gives it. */
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  /** MCP's tool annotations: read-only for the JSON-RPC reads, the site's tools and GET operations. */
  annotations: { readOnlyHint: boolean; destructiveHint: false; openWorldHint: false };
  /** The inputs it takes (but `cursor`), each with where it goes. */
  fields: ReadonlyMap<string, ToolField>;
  source: ToolSource;
  /** What one call costs (docs/keys-and-limits.md#compute-units): the method's or operation's, or a site tool's. */
  computeUnits: number;
}

/** What a tool of the site's own (docs, networks, the faucet) costs: the gateway's least charge, the cheapest paid method's. */
export const SITE_TOOL_COMPUTE_UNITS = 10;

/** The input every tool takes besides its own: the cursor of a sliced answer (./answers.ts). */
export const CURSOR_FIELD = 'cursor';

/** `properties` and `required` of a tool's input, `cursor` added, nothing else accepted. */
export function objectSchema(properties: Record<string, JsonSchema>, required: readonly string[]): JsonSchema & { type: 'object' } {
  return {
    type: 'object',
    properties: {
      ...properties,
      [CURSOR_FIELD]: {
        type: 'string',
        description: 'The cursor a truncated answer of this same call gave: the call is made again and its answer goes on from there.',
      },
    },
    ...(required.length ? { required: [...required] } : {}),
    additionalProperties: false,
  };
}

/** A zod schema as JSON Schema (2020-12, MCP's dialect), without `$schema`. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return json;
}

/** A registry's one-line summary for a model: its docs citations left out (they name the repository's files), one full stop. */
export function oneLine(text: string): string {
  const line = text
    .replace(/\s*\(docs\/[^)]*\)/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\.$/, '');
  return `${line}.`;
}

/** The summary and the cost, as tools/list describes a tool. */
export function describedAs(summary: string, computeUnits: number): { summary: string; description: string } {
  return { summary, description: `${summary} ${computeUnits} CU.` };
}
