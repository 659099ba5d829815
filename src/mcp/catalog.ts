import { z } from 'zod';
import type { DescribedOperation } from '../api/operation.ts';
import type { RpcMethod } from '../node/rpc/method.ts';
import type { RestOperation } from '../rest/operation.ts';
import { siteTools } from './site-tools.ts';
import {
  type AnyRestProduct,
  CURSOR_FIELD,
  describedAs,
  type JsonSchema,
  jsonSchemaOf,
  type McpTool,
  objectSchema,
  oneLine,
  SITE_TOOL_COMPUTE_UNITS,
  type ToolField,
} from './tool.ts';

// The MCP server's tools, generated from the registries the platform already has (docs/mcp.md#tools):
// every read method of the JSON-RPC method registry, every operation of the keyed REST products,
// the faucet's operations of the site API, and the site's own docs and networks tools. Nothing here
// declares a tool by hand but those last: a method or an operation added to its registry is a tool.

export interface CatalogSources {
  rpcMethods: readonly RpcMethod[];
  restProducts: readonly AnyRestProduct[];
  /** The site API's operations that are tools: the faucet's send and status. */
  siteOperations: readonly DescribedOperation[];
  /** The networks the node tools take (EVM JSON-RPC), by id. */
  networks: readonly string[];
  /** The site's locales, the docs tools' `locale`. */
  locales: readonly string[];
}

/**
 * A read of the method registry: answered from state without changing it (so the gateway may send
 * it again to another upstream: `idempotent`), over any transport, making no filter on a node.
 * `eth_sendRawTransaction`, the filter methods and the subscriptions are not.
 */
export function isReadMethod(method: RpcMethod): boolean {
  return method.idempotent && method.transport === 'any' && method.filterAffinity === undefined;
}

/** A tool's name from a registry's: MCP clients take letters, digits, `_` and `-` (`rpc.discover` → `rpc_discover`). */
export function toolNameOf(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_');
}

const networkSchema = (networks: readonly string[]) =>
  z.enum(networks as [string, ...string[]]).describe('The network, by id (list_networks lists them with their chain ids).');

/**
 * An object schema's members as a tool describes them: each member's type as the operation reads it
 * (`output`: booleans and numbers, which the tool writes into the query string as a client would),
 * and the members a caller must give as its input requires them (one with a default may be left out).
 */
function membersOf(shape: Record<string, z.ZodType>): { properties: Record<string, JsonSchema>; required: string[] } {
  const object = z.object(shape);
  const output = jsonSchemaOf(object, 'output') as { properties?: Record<string, JsonSchema> };
  const input = jsonSchemaOf(object, 'input') as { required?: string[] };
  return { properties: output.properties ?? {}, required: input.required ?? [] };
}

function rpcTool(method: RpcMethod, networks: readonly string[]): McpTool {
  const fields = new Map<string, ToolField>([['network', { part: 'network' }]]);
  const shape: Record<string, z.ZodType> = {};
  for (const [index, param] of method.params.entries()) {
    claim(fields, method.name, param.name, { part: 'param', index });
    shape[param.name] = (param.required ? param.schema : param.schema.optional()).describe(param.description);
  }
  const network = jsonSchemaOf(networkSchema(networks), 'input');
  const params = jsonSchemaOf(z.object(shape), 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return {
    name: toolNameOf(method.name),
    ...describedAs(oneLine(method.summary), method.computeUnits),
    inputSchema: objectSchema({ network, ...params.properties }, ['network', ...(params.required ?? [])]),
    annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    fields,
    source: { kind: 'rpc', method },
    computeUnits: method.computeUnits,
  };
}

/** Query members named `x[]` (alchemy-sdk's lists) are `x` in a tool: the door reads either. */
const bareName = (key: string) => key.replace(/\[\]$/, '');

function restTool(product: AnyRestProduct, operation: RestOperation<unknown>, networks: readonly string[]): McpTool {
  const fields = new Map<string, ToolField>();
  let properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  if (product.mount.at === 'node') {
    fields.set('network', { part: 'network' });
    properties.network = jsonSchemaOf(networkSchema(networks), 'input');
    required.push('network');
  }
  const add = (part: 'query' | 'body', shape: Record<string, z.ZodType>) => {
    const members = membersOf(shape);
    for (const [key, schema] of Object.entries(members.properties)) {
      const name = part === 'query' ? bareName(key) : key;
      claim(fields, operation.operationId, name, { part, key });
      properties = { ...properties, [name]: schema };
      if (members.required.includes(key)) required.push(name);
    }
  };
  if (operation.query) add('query', operation.query.shape);
  if (operation.body) add('body', bodyShape(operation.operationId, operation.body.schema));
  return {
    name: toolNameOf(operation.operationId),
    ...describedAs(oneLine(operation.summary), operation.computeUnits),
    inputSchema: objectSchema(properties, required),
    // A GET only reads; a POST may change something (a report, a queued refresh), so no read-only hint.
    annotations: { readOnlyHint: operation.method === 'GET', destructiveHint: false, openWorldHint: false },
    fields,
    source: { kind: 'rest', product, operation },
    computeUnits: operation.computeUnits,
  };
}

/** The members of a JSON body: a tool's inputs are one object, so a body must be one too. */
function bodyShape(operationId: string, schema: z.ZodType): Record<string, z.ZodType> {
  if (!(schema instanceof z.ZodObject)) throw new Error(`${operationId}: an MCP tool needs an object body`);
  return schema.shape as Record<string, z.ZodType>;
}

/**
 * The faucet's operations of the site API: path, query and body members as inputs; the CAPTCHA
 * token is not one (the tool sends local mode's development token, and is refused in production).
 */
export const FILLED_BY_SERVER = new Set(['turnstileToken']);

function siteOperationTool(operation: DescribedOperation): McpTool {
  const fields = new Map<string, ToolField>();
  let properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const add = (part: 'path' | 'query' | 'body', shape: Record<string, z.ZodType>) => {
    const kept = Object.fromEntries(Object.entries(shape).filter(([key]) => !FILLED_BY_SERVER.has(key)));
    const members = membersOf(kept);
    for (const [key, schema] of Object.entries(members.properties)) {
      claim(fields, operation.operationId, key, { part, key });
      properties = { ...properties, [key]: schema };
      if (members.required.includes(key)) required.push(key);
    }
  };
  if (operation.params) add('path', operation.params.shape);
  if (operation.query) add('query', operation.query.shape);
  if (operation.body) add('body', bodyShape(operation.operationId, operation.body.schema));
  const writes = operation.method !== 'GET';
  return {
    name: toolNameOf(operation.operationId),
    ...describedAs(oneLine(operation.summary), SITE_TOOL_COMPUTE_UNITS),
    inputSchema: objectSchema(properties, required),
    annotations: { readOnlyHint: !writes, destructiveHint: false, openWorldHint: false },
    fields,
    source: { kind: 'site-operation', operation },
    computeUnits: SITE_TOOL_COMPUTE_UNITS,
  };
}

function claim(fields: Map<string, ToolField>, owner: string, name: string, field: ToolField): void {
  if (fields.has(name) || name === CURSOR_FIELD) throw new Error(`${owner}: its input ${name} would be given twice in its MCP tool`);
  fields.set(name, field);
}

/** Every tool, in the order tools/list gives them: the site's, the JSON-RPC reads, the REST operations, the faucet's. */
export function mcpTools(sources: CatalogSources): McpTool[] {
  const tools = [
    ...siteTools({ locales: sources.locales }),
    ...sources.rpcMethods.filter(isReadMethod).map((method) => rpcTool(method, sources.networks)),
    ...sources.restProducts.flatMap((product) => product.operations.map((operation) => restTool(product, operation, sources.networks))),
    ...sources.siteOperations.map(siteOperationTool),
  ];
  const names = new Set<string>();
  for (const tool of tools) {
    if (names.has(tool.name)) throw new Error(`two MCP tools are named ${tool.name}`);
    names.add(tool.name);
  }
  return tools;
}
