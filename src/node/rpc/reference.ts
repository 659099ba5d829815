import { MAX_BATCH, MAX_BODY_BYTES, MAX_LOGS_FILTER_ADDRESSES, MAX_LOGS_FILTER_TOPICS, MAX_SUBSCRIPTIONS_PER_CONNECTION } from './limits.ts';
import { MAX_LOGS_BLOCK_RANGE, MAX_TRACE_FILTER_BLOCK_RANGE } from './block-range.ts';
import { type CachePolicy, type JsonSchema, type JsonValue, type RpcCategory, rpcCategories, type RpcMethod, type RpcTransport } from './method.ts';
import { paramJsonSchema } from './openrpc.ts';
import { blockedMethodFamilies, rpcRegistry, type RpcRegistry, VENDOR_ALIAS_PREFIX, VENDOR_PREFIX } from './registry.ts';

// The registry as plain data for the RPC docs pages: one entry per method, grouped by category,
// with types as short readable strings, and the refused families and limits the pages state.

interface RpcParamReference {
  name: string;
  required: boolean;
  /** e.g. "address", "block tag, number or EIP-1898 object". */
  type: string;
  description: string;
  default?: JsonValue;
}

interface RpcMethodReference {
  name: string;
  category: RpcCategory;
  summary: string;
  description: string;
  params: RpcParamReference[];
  result: { name: string; description: string; type: string };
  computeUnits: number;
  notificationComputeUnits?: number;
  cache: CachePolicy['kind'];
  transport: RpcTransport;
  /** Answered by the gateway without a node. */
  answeredLocally: boolean;
  /** Other names that call this method (alchemy_<x> for crucible_<x>, and its `aliases`). */
  aliases: string[];
}

export interface RpcReference {
  categories: Array<{ name: RpcCategory; methods: RpcMethodReference[] }>;
  /** Refused whatever an upstream supports; empty would mean none are. */
  blocked: ReadonlyArray<{ pattern: string; match: 'exact' | 'prefix'; reason: string; except?: readonly string[] }>;
  limits: {
    maxBodyBytes: number;
    maxBatch: number;
    maxLogsBlockRange: number;
    maxTraceFilterBlockRange: number;
    maxLogsFilterAddresses: number;
    maxLogsFilterTopics: number;
    maxSubscriptionsPerConnection: number;
  };
}

/** A JSON Schema as a short readable type: its title, or what its parts are. */
export function jsonSchemaTypeText(schema: JsonSchema): string {
  if (typeof schema.title === 'string') return schema.title;
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as JsonSchema[]).map(jsonSchemaTypeText).join(' or ');
  if (schema.type === 'array' && typeof schema.items === 'object' && schema.items !== null && !Array.isArray(schema.items)) {
    return `list of ${jsonSchemaTypeText(schema.items as JsonSchema)}`;
  }
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(' or ');
  return typeof schema.type === 'string' ? schema.type : 'any';
}

function methodReference(method: RpcMethod): RpcMethodReference {
  return {
    name: method.name,
    category: method.category,
    summary: method.summary,
    description: method.description,
    params: method.params.map((param) => ({
      name: param.name,
      required: param.required,
      type: jsonSchemaTypeText(paramJsonSchema(param)),
      description: param.description,
      ...(param.default === undefined ? {} : { default: param.default }),
    })),
    result: { name: method.result.name, description: method.result.description, type: jsonSchemaTypeText(method.result.schema) },
    computeUnits: method.computeUnits,
    ...(method.notificationComputeUnits === undefined ? {} : { notificationComputeUnits: method.notificationComputeUnits }),
    cache: method.cache.kind,
    transport: method.transport,
    answeredLocally: method.answer !== undefined,
    aliases: [...(method.name.startsWith(VENDOR_PREFIX) ? [VENDOR_ALIAS_PREFIX + method.name.slice(VENDOR_PREFIX.length)] : []), ...(method.aliases ?? [])],
  };
}

export function rpcMethodReference(registry: RpcRegistry = rpcRegistry): RpcReference {
  const methods = registry.methods.map(methodReference);
  return {
    categories: rpcCategories
      .map((name) => ({ name, methods: methods.filter((method) => method.category === name) }))
      .filter((category) => category.methods.length > 0),
    blocked: blockedMethodFamilies,
    limits: {
      maxBodyBytes: MAX_BODY_BYTES,
      maxBatch: MAX_BATCH,
      maxLogsBlockRange: MAX_LOGS_BLOCK_RANGE,
      maxTraceFilterBlockRange: MAX_TRACE_FILTER_BLOCK_RANGE,
      maxLogsFilterAddresses: MAX_LOGS_FILTER_ADDRESSES,
      maxLogsFilterTopics: MAX_LOGS_FILTER_TOPICS,
      maxSubscriptionsPerConnection: MAX_SUBSCRIPTIONS_PER_CONNECTION,
    },
  };
}
