import { MAX_BATCH, MAX_BODY_BYTES, MAX_LOGS_FILTER_ADDRESSES, MAX_LOGS_FILTER_TOPICS } from './limits.ts';
import { MAX_LOGS_BLOCK_RANGE, MAX_TRACE_FILTER_BLOCK_RANGE } from './block-range.ts';
import { type JsonSchema, jsonSchemaOf, type RpcMethod, type RpcParam } from './method.ts';
import { rpcRegistry, type RpcRegistry } from './registry.ts';

// The OpenRPC 1.2.6 document of one network's endpoint (docs/json-rpc.md#openrpc-document): rpc.discover answers it and
// {node_url}/openrpc.json serves it. Everything in it comes from the registry; the CU cost, cache
// policy and transport ride along as x- extension fields.

const OPENRPC_VERSION = '1.2.6';
/** The version of Crucible's JSON-RPC surface (info.version): raised when a method changes. */
const RPC_API_VERSION = '1.0.0';

export interface OpenRpcInput {
  network: { id: string; name: string; chainId: number | null };
  /** The endpoint as a callable URI (OpenRPC requires one: no <API_KEY> placeholder), e.g. the demo key's …/v2/demo. */
  serverUrl: string;
  /** The RPC docs page of the network. */
  docsUrl: string;
  registry?: RpcRegistry;
}

export type OpenRpcDocument = Record<string, unknown> & { openrpc: string; methods: OpenRpcMethod[] };
type OpenRpcMethod = Record<string, unknown> & { name: string };

const paramSchemas = new WeakMap<RpcParam, JsonSchema>();

/** A param's JSON Schema, with its default where it has one (converted once per param). */
export function paramJsonSchema(param: RpcParam): JsonSchema {
  let schema = paramSchemas.get(param);
  if (!schema) {
    schema = jsonSchemaOf(param.schema);
    if (param.default !== undefined) schema = { ...schema, default: param.default };
    paramSchemas.set(param, schema);
  }
  return schema;
}

function openRpcMethod(method: RpcMethod): OpenRpcMethod {
  return {
    name: method.name,
    summary: method.summary,
    description: method.description,
    tags: [{ name: method.category }],
    paramStructure: 'by-position',
    params: method.params.map((param) => ({ name: param.name, description: param.description, required: param.required, schema: paramJsonSchema(param) })),
    result: method.result,
    'x-compute-units': method.computeUnits,
    ...(method.notificationComputeUnits === undefined ? {} : { 'x-compute-units-per-notification': method.notificationComputeUnits }),
    'x-cache': method.cache.kind,
    'x-transport': method.transport,
  };
}

export function openRpcDocument(input: OpenRpcInput): OpenRpcDocument {
  const { network } = input;
  const chain = network.chainId === null ? '' : ` (chain id ${network.chainId})`;
  return {
    openrpc: OPENRPC_VERSION,
    info: {
      title: `Crucible JSON-RPC: ${network.name}`,
      version: RPC_API_VERSION,
      description: `JSON-RPC 2.0 for ${network.name}${chain} over HTTP POST and WebSocket. Methods not listed here are refused with -32601. Each method's cost in compute units is its x-compute-units.`,
    },
    servers: [{ name: network.id, url: input.serverUrl, summary: `The ${network.name} endpoint.` }],
    externalDocs: { description: `${network.name} RPC documentation`, url: input.docsUrl },
    methods: (input.registry ?? rpcRegistry).methods.map(openRpcMethod),
    'x-limits': {
      maxBodyBytes: MAX_BODY_BYTES,
      maxBatch: MAX_BATCH,
      maxLogsBlockRange: MAX_LOGS_BLOCK_RANGE,
      maxTraceFilterBlockRange: MAX_TRACE_FILTER_BLOCK_RANGE,
      maxLogsFilterAddresses: MAX_LOGS_FILTER_ADDRESSES,
      maxLogsFilterTopics: MAX_LOGS_FILTER_TOPICS,
    },
  };
}
