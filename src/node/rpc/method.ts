import { z } from 'zod';

// What the registry knows of one JSON-RPC method (docs/json-rpc.md#method-registry): its docs text, params and result,
// compute-unit cost, cache policy, retry and transport rules, and a local answer where the
// gateway needs no upstream. Method families define their entries with defineRpcMethod.

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
/** A JSON Schema (draft-07, the dialect of OpenRPC 1.x) as plain data. */
export type JsonSchema = Record<string, unknown>;

/** Docs sections, in the order the docs list them. */
export const rpcCategories = [
  'Chain',
  'Blocks',
  'Transactions',
  'Accounts and state',
  'Execution',
  'Gas and fees',
  'Logs and filters',
  'Subscriptions',
  'Tracing',
  'Simulation',
  'Token data',
  'Discovery',
] as const;
export type RpcCategory = (typeof rpcCategories)[number];

/**
 * When the gateway may keep an answer:
 * - `forever`: the answer never changes (chain id);
 * - `when-found`: a lookup by hash of mined data; keep an answer that is neither null nor an empty
 *   list, and for an object with a `blockHash` field only when that is set (a pending transaction is not final);
 * - `when-final`: params[blockParam] names a block; keep the answer when that block is a number (or
 *   `earliest`) at least the network's finality depth below the head, or is named by hash.
 */
export type CachePolicy = { kind: 'none' } | { kind: 'forever' } | { kind: 'when-found' } | { kind: 'when-final'; blockParam: number };

/**
 * How long the gateway waits for an upstream's answer: `default` NODE_UPSTREAM_TIMEOUT_MS, `trace`
 * NODE_UPSTREAM_TRACE_TIMEOUT_MS (a traced execution replays a whole transaction or block).
 */
type UpstreamDeadline = 'default' | 'trace';

/** How a method's params[0] names a block range, and how many blocks it may span (block-range.ts). */
export interface BlockRangeLimit {
  maxBlocks: number;
  /** The range's ends, an omitted end given its default (tags or hex numbers); null when the filter names one block by hash. */
  ends(filter: unknown): { from: string; to: string } | null;
  /**
   * The filter with its ends as the numbers they were measured as, or absent to send it as given:
   * trace_filter's ends go as numbers, since some nodes (anvil) take no tags there.
   */
  withNumbers?(filter: unknown, from: bigint, to: bigint): unknown;
}

/** What the gateway knows when it sends a call upstream. */
interface UpstreamContext {
  /** The call's upstream deadline in milliseconds. */
  deadlineMs: number;
}

/** `websocket`: only over a WebSocket connection (subscriptions need one to push on). */
export type RpcTransport = 'any' | 'websocket';

/**
 * Filters live on the upstream that made them: `creates` answers a filter id, and `uses` must go to
 * the upstream that made that id (so it is never retried elsewhere).
 */
type FilterAffinity = 'creates' | 'uses';

export interface RpcParam {
  name: string;
  required: boolean;
  schema: z.ZodType;
  description: string;
  /** Put in place of an omitted (or null) optional param, so every upstream sees the same call. */
  default?: JsonValue;
}

interface RpcResult {
  name: string;
  description: string;
  schema: JsonSchema;
}

/** What a local answer may use besides the params. */
interface LocalAnswerContext {
  /** The OpenRPC document of the network the call came in on (rpc.discover). */
  openRpcDocument(): JsonValue;
}

/**
 * A cross-param rule: which param is wrong and what to say after its name; or the issue of a schema
 * the rule chose for a param's value (its path starting at the param's index), worded as schema issues are.
 */
type ParamProblem = { index: number; problem: string } | { issue: z.core.$ZodIssue };

export interface RpcMethod {
  name: string;
  /** One line. */
  summary: string;
  /** A short paragraph. */
  description: string;
  category: RpcCategory;
  /** Other names that call it besides alchemy_<x> (the eth_ names the incumbent's SDK sends). */
  aliases?: readonly string[];
  params: readonly RpcParam[];
  result: RpcResult;
  /** Cost of one call (docs/keys-and-limits.md#compute-units); a batch costs the sum. */
  computeUnits: number;
  /** Cost of each notification a subscription sends (eth_subscribe only). */
  notificationComputeUnits?: number;
  cache: CachePolicy;
  /** Whether the gateway may send the call again to another upstream after a transport failure. */
  idempotent: boolean;
  transport: RpcTransport;
  filterAffinity?: FilterAffinity;
  /**
   * Answered by one of Crucible's data products (docs/json-rpc.md#vendor-methods) over the network's chain and the
   * transfer index: never sent upstream as it is. A network without that product refuses the call.
   */
  served?: boolean;
  /** Answered by the gateway itself, without an upstream. */
  answer?: (params: readonly unknown[], context: LocalAnswerContext) => JsonValue;
  /**
   * Sent upstream as another method (a vendor method over a standard one): the call sent, and the
   * answer made of its result. The cache policy judges the upstream's result, and keeps the answer.
   */
  upstreamAs?: { method: string; params(params: readonly unknown[]): unknown[]; answer(result: unknown): JsonValue };
  /**
   * params[0] is a filter whose block range is limited (block-range.ts): numbers are measured at
   * validation, tags once the gateway resolves them against the head.
   */
  blockRange?: BlockRangeLimit;
  /** How long the gateway waits for an upstream's answer to it; default `default`. */
  upstreamDeadline?: UpstreamDeadline;
  /** The params as the upstream gets them, when they differ from the validated ones (a tracer's timeout bounded by the deadline). */
  upstreamParams?: (params: readonly unknown[], context: UpstreamContext) => unknown[];
  /** Rules across params (or on a param's value) that the schemas cannot say; runs on normalized params. */
  checkParams?: (params: readonly unknown[]) => ParamProblem | null;
  /** The params as one zod tuple: trailing optional params may be omitted or null. */
  paramsSchema: z.ZodType<unknown[]>;
}

export interface RpcMethodSpec extends Omit<RpcMethod, 'result' | 'paramsSchema' | 'idempotent' | 'transport' | 'cache'> {
  result: { name: string; description: string; schema: z.ZodType };
  /** Default true: reads may be retried on another upstream. */
  idempotent?: boolean;
  /** Default 'any'. */
  transport?: RpcTransport;
  /** Default none. */
  cache?: CachePolicy;
}

/** A zod schema as draft-07 JSON Schema, without its `$schema` (it sits inside a document). */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { target: 'draft-07', io: 'input', unrepresentable: 'throw' }) as JsonSchema;
  return json;
}

/** Fills the defaults and derives the params tuple and the result's JSON Schema. */
export function defineRpcMethod(spec: RpcMethodSpec): RpcMethod {
  let seenOptional = false;
  for (const param of spec.params) {
    if (param.required && seenOptional) throw new Error(`${spec.name}: required param ${param.name} after an optional one`);
    if (!param.required) seenOptional = true;
    if (param.required && param.default !== undefined) throw new Error(`${spec.name}: required param ${param.name} has a default`);
  }
  const items = spec.params.map((param) => (param.required ? param.schema : param.schema.nullish()));
  return {
    ...spec,
    idempotent: spec.idempotent ?? true,
    transport: spec.transport ?? 'any',
    cache: spec.cache ?? { kind: 'none' },
    result: { name: spec.result.name, description: spec.result.description, schema: jsonSchemaOf(spec.result.schema) },
    paramsSchema: z.tuple(items as [z.ZodType, ...z.ZodType[]]) as unknown as z.ZodType<unknown[]>,
  };
}
