import type { RpcErrorObject, RpcFailure } from '../../errors/json-rpc.ts';
import { rpcFailure } from './errors.ts';
import { MAX_BATCH } from './limits.ts';

// JSON-RPC 2.0 bodies (docs/json-rpc.md#requests): parsing a request body into calls, and
// building the answer. A request without `id` is a notification: it is carried out but gets no
// entry in the answer. `params` must be an array (by-position): a by-name object is an invalid
// request, because the spec says params is a list; an omitted or null `params` means [].

type RpcId = string | number | null;

/** A well-formed request. `hasId` false: a notification. */
export interface RpcCall {
  kind: 'call';
  id: RpcId;
  hasId: boolean;
  method: string;
  params: unknown[];
}

/** A batch item (or single body) that is not a valid request; `id` is its id when that was readable, else null. */
export interface InvalidRpcItem {
  kind: 'invalid';
  id: RpcId;
  problem: string;
}

export type RpcItem = RpcCall | InvalidRpcItem;

export type ParsedRpcBody =
  | { kind: 'parse-error' }
  /** The body as a whole is not a request: not an object or array, an empty batch, too many items. */
  | { kind: 'invalid'; problem: string }
  | { kind: 'single'; item: RpcItem }
  | { kind: 'batch'; items: RpcItem[] };

const isRpcId = (value: unknown): value is RpcId => value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));

function readItem(value: unknown): RpcItem {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { kind: 'invalid', id: null, problem: 'a request must be a JSON object with jsonrpc, method, params and id' };
  }
  const request = value as Record<string, unknown>;
  const hasId = Object.hasOwn(request, 'id');
  const id = hasId && isRpcId(request.id) ? request.id : null;
  const invalid = (problem: string): InvalidRpcItem => ({ kind: 'invalid', id, problem });
  if (hasId && !isRpcId(request.id)) return invalid('id must be a string, a number or null');
  if (request.jsonrpc !== '2.0') return invalid('jsonrpc must be "2.0"');
  if (typeof request.method !== 'string') return invalid(Object.hasOwn(request, 'method') ? 'method must be a string' : 'method is missing');
  if (request.method === '') return invalid('method must not be empty');
  const params = request.params ?? [];
  if (!Array.isArray(params)) return invalid('params must be an array (params by position); by-name objects are not accepted');
  return { kind: 'call', id, hasId, method: request.method, params };
}

/** Reads a request body: one request object, or a batch of 1 to MAX_BATCH. */
export function parseRpcBody(text: string): ParsedRpcBody {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { kind: 'parse-error' };
  }
  if (Array.isArray(body)) {
    if (body.length === 0) return { kind: 'invalid', problem: 'the batch is empty; send 1 to 100 requests' };
    if (body.length > MAX_BATCH) return { kind: 'invalid', problem: `the batch has ${body.length} requests; the limit is ${MAX_BATCH}` };
    return { kind: 'batch', items: body.map(readItem) };
  }
  if (typeof body !== 'object' || body === null) return { kind: 'invalid', problem: 'the body must be a request object or a batch array' };
  return { kind: 'single', item: readItem(body) };
}

/** The failure of a body that is not a request at all (answered whole, with its HTTP status). */
export function bodyFailure(body: Extract<ParsedRpcBody, { kind: 'parse-error' | 'invalid' }>): RpcFailure {
  return body.kind === 'parse-error' ? rpcFailure('parse_error') : rpcFailure('invalid_request', { problem: body.problem });
}

/** The -32600 failure of one invalid item. */
export function invalidItemFailure(item: InvalidRpcItem): RpcFailure {
  return rpcFailure('invalid_request', { problem: item.problem });
}

interface RpcSuccessResponse {
  jsonrpc: '2.0';
  id: RpcId;
  result: unknown;
}

interface RpcErrorResponse {
  jsonrpc: '2.0';
  id: RpcId;
  error: RpcErrorObject;
}

type RpcResponse = RpcSuccessResponse | RpcErrorResponse;

export function rpcResponse(id: RpcId, result: unknown): RpcSuccessResponse {
  return { jsonrpc: '2.0', id, result };
}

export function rpcError(id: RpcId, error: RpcErrorObject): RpcErrorResponse {
  return { jsonrpc: '2.0', id, error };
}

/** How one item ended: a result, the gateway's refusal, or the node's own error for a valid call. */
export type RpcOutcome = { result: unknown } | { failure: RpcFailure } | { nodeError: RpcErrorObject };

/**
 * What to send. JSON-RPC 2.0 answers a notification (or a batch of only notifications) with
 * nothing: over HTTP that is 204 No Content with an empty body, `body` null.
 */
export interface RpcReply {
  httpStatus: number;
  body: RpcResponse | RpcResponse[] | null;
}

export const NO_REPLY_STATUS = 204;

function responseOf(item: RpcItem, outcome: RpcOutcome): RpcResponse | null {
  if (item.kind === 'call' && !item.hasId) return null;
  if ('result' in outcome) return rpcResponse(item.id, outcome.result);
  return rpcError(item.id, 'failure' in outcome ? outcome.failure.error : outcome.nodeError);
}

/** The answer to a single request: a refusal carries its row's HTTP status, everything else 200. */
export function singleReply(item: RpcItem, outcome: RpcOutcome): RpcReply {
  const body = responseOf(item, outcome);
  if (body === null) return { httpStatus: NO_REPLY_STATUS, body: null };
  return { httpStatus: 'failure' in outcome ? outcome.failure.httpStatus : 200, body };
}

/** The answer to a batch: 200 with one entry per item that has an id (or is invalid), in order. */
export function batchReply(items: readonly RpcItem[], outcomes: readonly RpcOutcome[]): RpcReply {
  if (items.length !== outcomes.length) throw new Error(`batchReply: ${items.length} items but ${outcomes.length} outcomes`);
  const body = items.map((item, i) => responseOf(item, outcomes[i]!)).filter((response) => response !== null);
  return body.length === 0 ? { httpStatus: NO_REPLY_STATUS, body: null } : { httpStatus: 200, body };
}
