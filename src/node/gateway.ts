import { callerLabel, type Admission } from '../admission/admission.ts';
import type { Caller } from '../admission/callers.ts';
import { KEYED_CORS_HEADERS } from '../admission/cors.ts';
import { BufferedResponse } from '../api/buffered-response.ts';
import { CrucibleError, fail } from '../errors/crucible-error.ts';
import { errorBodyResponse } from '../errors/error-body.ts';
import { toRpcFailure, type RpcFailure } from '../errors/json-rpc.ts';
import { DEFAULT_JSON_MAX_DEPTH, exceedsJsonDepth, jsonDepthScan } from '../http/json-depth.ts';
import type { AnswerCache } from './answer-cache.ts';
import { executeCalls, type ExecutionNetwork, type ValidCall } from './execute-calls.ts';
import type { NodeTarget } from './node-url.ts';
import { rpcFailure } from './rpc/errors.ts';
import {
  batchReply,
  bodyFailure,
  invalidItemFailure,
  parseRpcBody,
  singleReply,
  type ParsedRpcBody,
  type RpcItem,
  type RpcOutcome,
  type RpcReply,
} from './rpc/jsonrpc.ts';
import { MAX_BODY_BYTES } from './rpc/limits.ts';
import { CHEAPEST_PAID_COMPUTE_UNITS } from './rpc/registry.ts';
import { validateCall } from './rpc/validate.ts';

// The JSON-RPC gateway over HTTP (docs/json-rpc.md): `POST {node_url}/v2/<key>` and the network's
// OpenRPC document, as a Request -> Response function; the WebSocket (./websocket/) sends its
// messages through answer(). In order: the body's size, the key, the app's state, network and
// origin (src/admission/), the request's minimum charge (before the body is read: README, "Server
// limits"), the body's nesting, the body itself, each call against the registry, the rest of the
// calls' compute units and the quota; then the calls, metered per app, network and method. The
// REST products under `{node_url}` are the keyed REST door's (src/rest/).

export interface GatewayNetwork extends ExecutionNetwork {
  name: string;
  chainId: number | null;
  /** Whether a pending transaction was sent privately (docs/json-rpc.md#private-transactions): the pending feeds leave it out. */
  isPrivateTransaction?(hash: string): boolean;
}

export interface NodeGatewayOptions {
  networks: ReadonlyMap<string, GatewayNetwork>;
  /** Keys, apps, compute units and metering (src/admission/). */
  admission: Admission;
  cache: AnswerCache;
  /** What a JSON-RPC message is charged at least (NODE_MIN_REQUEST_COMPUTE_UNITS); default MIN_REQUEST_COMPUTE_UNITS. */
  minRequestComputeUnits?: number;
  /** How deeply a JSON-RPC body may nest (JSON_MAX_DEPTH); default DEFAULT_JSON_MAX_DEPTH. */
  jsonMaxDepth?: number;
  /** The RPC docs page of a network; -32601 answers point there. */
  docsUrl(network: string): string;
  /** Where the node API is described: 404s for unknown networks and paths point there. */
  documentationUrl: string;
  /**
   * Told of each transaction a node accepted from an app's key (eth_sendRawTransaction), before the
   * caller is answered: the transaction webhooks record it (docs/webhooks.md#transaction-webhooks).
   * It must not throw; a transaction sent with the demo key is not told.
   */
  onBroadcast?: (broadcast: Broadcast) => Promise<void>;
}

/** A transaction an app broadcast through the gateway. */
export interface Broadcast {
  network: string;
  appId: string;
  /** As the node answered it. */
  hash: string;
  /** The signed transaction sent. */
  raw: string;
}

interface NodeRequest {
  method: string;
  /** Only get() is read: the server hands a lookup over node's own headers (a Headers costs more than a cached call's charge). */
  headers: Pick<Headers, 'get'>;
  body: ReadableStream<Uint8Array> | null;
  /**
   * The body as text, or null once it passes `maxBytes` or `stop` is true of a chunk (the rest is
   * not read), read without a web stream: the Node adapter offers it (a ReadableStream costs more
   * than the rest of a cached call). Absent: `body`.
   */
  textWithin?(maxBytes: number, stop?: (chunk: Uint8Array) => boolean): Promise<string | null>;
}

/** An authorized caller on one network: an HTTP request, or a WebSocket connection for its life. */
export interface NodeSession {
  caller: Caller;
  network: GatewayNetwork;
  clientIp: string | null;
}

/** Methods a transport answers itself (the WebSocket's eth_subscribe/eth_unsubscribe), by name. */
export type ExtraMethods = ReadonlyMap<string, (params: unknown[]) => Promise<RpcOutcome>>;

export interface NodeGateway {
  networks: ReadonlyMap<string, GatewayNetwork>;
  authorize(network: GatewayNetwork, key: string, origin: string | null): Promise<{ ok: true; caller: Caller } | { ok: false; failure: RpcFailure }>;
  /**
   * One JSON-RPC message from an authorized caller: validated, limited, carried out and metered.
   * It costs its calls' compute units, and at least the minimum, less `prepaidComputeUnits`
   * (what the transport took before reading it).
   */
  answer(session: NodeSession, text: string, transport: 'http' | 'websocket', extra?: ExtraMethods, prepaidComputeUnits?: number): Promise<RpcReply>;
  /**
   * One call from an authorized caller, as a transport that is not JSON-RPC makes it (the MCP
   * server's tools): validated, charged and metered as a single request over HTTP is (its calls'
   * compute units, at least the minimum), and its outcome, a refusal with its reason.
   */
  call(session: NodeSession, method: string, params: unknown[]): Promise<RpcOutcome>;
  /**
   * Takes the least a message costs from the caller's buckets before the message is read (a
   * WebSocket message; README "Server limits"), as the HTTP side does for a body: the compute
   * units taken, to pass to answer(), or the 429 to answer without reading the message.
   */
  prepay(session: NodeSession): Promise<{ ok: true; prepaidComputeUnits: number } | { ok: false; failure: RpcFailure }>;
  /**
   * Charges `count` notifications of the caller's subscriptions (docs/json-rpc.md#subscriptions: each costs CUs), or
   * a subscription's upkeep, taken together as that many charges one after another: how many fit
   * (the first ones), each taken from the caller's rate and quota and metered under `method`; the
   * others are over the caller's limit (dropped, uncharged).
   */
  chargeNotifications(session: NodeSession, method: string, computeUnits: number, count: number): Promise<number>;
  /** Names who pays for a session's notifications: sessions with the same name may be charged together (chargeNotifications). */
  payerOf(session: NodeSession): string;
  /** JSON-RPC and the OpenRPC document; any other path under `{node_url}` is answered 404 here. */
  handle(request: NodeRequest, target: NodeTarget, context: HandleContext): Promise<Response>;
  /**
   * `POST {node_url}/v2/<key>` on one of `networks`, as handle() answers it but as plain data: the
   * server's hot path writes it without building a web Response (BENCHMARKS.md, Node gateway).
   */
  post(request: NodeRequest, network: string, key: string, context: HandleContext): Promise<PlainReply>;
}

/** An answer as the Node server writes it: status, header record (lower-case names) and body text. */
interface PlainReply {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

interface HandleContext {
  /** The request's path as received, for error messages. */
  path: string;
  clientIp: string | null;
  /** Told who the key names once it is known: request logs show the app id, never the key (docs/hosts-and-paths.md#route-families). */
  identified?: (caller: string) => void;
}

const corsHeaders = KEYED_CORS_HEADERS;

/**
 * What a JSON-RPC message costs at least unless NODE_MIN_REQUEST_COMPUTE_UNITS says otherwise: the
 * cheapest paid method's compute units (10), so a valid single call is charged what it costs; the
 * methods that cost nothing (eth_chainId …) take this much from the rate, and nothing from the quota.
 */
const MIN_REQUEST_COMPUTE_UNITS = CHEAPEST_PAID_COMPUTE_UNITS;

export function createNodeGateway(options: NodeGatewayOptions): NodeGateway {
  const minimum = options.minRequestComputeUnits ?? MIN_REQUEST_COMPUTE_UNITS;
  const maxDepth = options.jsonMaxDepth ?? DEFAULT_JSON_MAX_DEPTH;
  // Refused before JSON.parse: a body of deeply nested arrays holds the main thread for up to a second.
  const tooDeep: ParsedRpcBody = { kind: 'invalid', problem: `the body nests arrays and objects more than ${maxDepth} deep, the limit` };
  const { admission } = options;
  // Each network's docs URL, computed once.
  const docsUrls = new Map<string, string>();
  const docsUrlOf = (network: string): string => {
    let url = docsUrls.get(network);
    if (url === undefined) docsUrls.set(network, (url = options.docsUrl(network)));
    return url;
  };

  /** Who the key names and whether they may call this network from this origin (docs/keys-and-limits.md). */
  const authorize = async (
    network: GatewayNetwork,
    key: string,
    origin: string | null,
  ): Promise<{ ok: true; caller: Caller } | { ok: false; failure: RpcFailure }> => {
    const identified = await admission.identify(key, { network: network.id, origin });
    return identified.ok ? identified : { ok: false, failure: toRpcFailure(identified.error) };
  };

  /** One JSON-RPC message (a request or a batch) from an authorized caller, over either transport. */
  const answer = (session: NodeSession, text: string, transport: 'http' | 'websocket', extra?: ExtraMethods, prepaidComputeUnits = 0) =>
    answerBody(session, exceedsJsonDepth(text, maxDepth) ? tooDeep : parseRpcBody(text), transport, extra, prepaidComputeUnits);

  /** A message once read: limited, carried out and metered. */
  const answerBody = async (
    session: NodeSession,
    body: ParsedRpcBody,
    transport: 'http' | 'websocket',
    extra: ExtraMethods | undefined,
    prepaidComputeUnits: number,
  ): Promise<RpcReply> => {
    if (body.kind === 'parse-error' || body.kind === 'invalid') {
      const limited = await admission.takeRate(session.caller, session.network.id, minimum - prepaidComputeUnits, session.clientIp, prepaidComputeUnits);
      return failureReply(limited ? toRpcFailure(limited) : bodyFailure(body));
    }
    const items: RpcItem[] = body.kind === 'single' ? [body.item] : body.items;
    const settled = await settle(session, items, transport, extra, prepaidComputeUnits);
    if ('failure' in settled) return failureReply(settled.failure);
    return body.kind === 'single' ? singleReply(items[0]!, settled.outcomes[0]!) : batchReply(items, settled.outcomes);
  };

  /** A message's calls: each validated, all charged at once (or the whole message refused), carried out and metered. */
  const settle = async (
    session: NodeSession,
    items: readonly RpcItem[],
    transport: 'http' | 'websocket',
    extra: ExtraMethods | undefined,
    prepaidComputeUnits: number,
  ): Promise<{ outcomes: RpcOutcome[] } | { failure: RpcFailure }> => {
    const { caller, network, clientIp } = session;
    const outcomes: Array<RpcOutcome | undefined> = new Array(items.length);
    const valid: ValidCall[] = [];
    const validAt: number[] = [];
    for (const [i, item] of items.entries()) {
      if (item.kind === 'invalid') {
        outcomes[i] = { failure: invalidItemFailure(item) };
        continue;
      }
      const checked = validateCall(item, { docsUrl: docsUrlOf(network.id), transport });
      if (!checked.ok) outcomes[i] = { failure: checked.failure };
      else if (checked.method.served && !network.served?.has(checked.method.name))
        outcomes[i] = { failure: rpcFailure('not_served', { method: item.method, network: network.id, docsUrl: docsUrlOf(network.id) }) };
      else {
        valid.push({ method: checked.method, params: checked.params });
        validAt.push(i);
      }
    }

    // Every message costs at least the minimum; what was taken before the body was read is not taken again.
    const cost = valid.reduce((sum, call) => sum + call.method.computeUnits, 0);
    const rate = admission.takeRate(caller, network.id, Math.max(cost, minimum) - prepaidComputeUnits, clientIp, prepaidComputeUnits);
    const overRate = rate instanceof Promise ? await rate : rate;
    const quota = overRate ? null : admission.countQuota(caller, cost);
    const limited = overRate ?? (quota instanceof Promise ? await quota : quota);
    if (limited) return { failure: toRpcFailure(limited) };

    const executed = await executeCalls(valid, network, options.cache, extra);
    for (const [k, call] of valid.entries()) {
      outcomes[validAt[k]!] = executed[k];
      admission.meter(caller, network.id, call.method.name, call.method.computeUnits, errorCodeOf(executed[k]!));
    }
    if (options.onBroadcast && caller.kind === 'app') await tellBroadcasts(options.onBroadcast, caller.app.id, network.id, valid, executed);
    return { outcomes: outcomes as RpcOutcome[] };
  };

  const answerHttp = async (request: NodeRequest, network: GatewayNetwork, key: string, context: HandleContext): Promise<PlainReply> => {
    const declared = Number(request.headers.get('content-length') ?? 0);
    if (declared > MAX_BODY_BYTES) return plainFailure(rpcFailure('body_too_large'));
    // Keys, limits and quotas answer at once when they are in memory: awaited only when they are not.
    const lookup = admission.identify(key, { network: network.id, origin: request.headers.get('origin') });
    const identified = lookup instanceof Promise ? await lookup : lookup;
    if (!identified.ok) return plainFailure(toRpcFailure(identified.error));
    const { caller } = identified;
    context.identified?.(callerLabel(caller));
    const { clientIp } = context;
    // Charged before the body is read, so a request refused here costs no reading or parsing.
    const charged = admission.takeRate(caller, network.id, minimum, clientIp);
    const unpaid = charged instanceof Promise ? await charged : charged;
    if (unpaid) return plainFailure(toRpcFailure(unpaid));
    // Nesting is measured as the body arrives: reading stops at the chunk that passes the limit.
    const scan = jsonDepthScan(maxDepth);
    let deep = false;
    const stop = (chunk: Uint8Array) => (deep = scan(chunk));
    const text = await (request.textWithin ? request.textWithin(MAX_BODY_BYTES, stop) : readBody(request.body, MAX_BODY_BYTES, stop));
    if (text === null && !deep) return plainFailure(rpcFailure('body_too_large'));
    const body = text === null ? tooDeep : parseRpcBody(text);
    return plainReply(await answerBody({ caller, network, clientIp }, body, 'http', undefined, minimum));
  };

  return {
    networks: options.networks,
    authorize,
    answer,
    async call(session, method, params) {
      const settled = await settle(session, [{ kind: 'call', id: 1, hasId: true, method, params }], 'http', undefined, 0);
      return 'failure' in settled ? settled : settled.outcomes[0]!;
    },
    async prepay(session) {
      const unpaid = await admission.takeRate(session.caller, session.network.id, minimum, session.clientIp);
      return unpaid ? { ok: false, failure: toRpcFailure(unpaid) } : { ok: true, prepaidComputeUnits: minimum };
    },
    async chargeNotifications(session, method, computeUnits, count) {
      const charged = await admission.chargeEach(session.caller, session.network.id, computeUnits, count, session.clientIp);
      if (charged > 0) admission.meter(session.caller, session.network.id, method, computeUnits, null, charged);
      return charged;
    },
    payerOf: (session) => admission.payerOf(session.caller, session.network.id, session.clientIp),
    async handle(request, target, context) {
      const network = options.networks.get(target.network);
      if (!network || target.kind === 'unknown-path')
        return errorBodyResponse(fail('not_found', { method: request.method, path: context.path }), options.documentationUrl);
      if (request.method === 'OPTIONS') return new BufferedResponse(null, { status: 204, headers: corsHeaders });
      if (target.kind === 'openrpc') {
        if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed('GET, HEAD, OPTIONS');
        return json(200, network.openRpcDocument());
      }
      if (request.method !== 'POST') return methodNotAllowed('POST, OPTIONS');
      return answerHttp(request, network, target.key, context).then(toResponse);
    },
    post: (request, network, key, context) => answerHttp(request, options.networks.get(network)!, key, context),
  };
}

/** Each eth_sendRawTransaction the node answered with a hash. */
async function tellBroadcasts(
  onBroadcast: (broadcast: Broadcast) => Promise<void>,
  appId: string,
  network: string,
  calls: readonly ValidCall[],
  outcomes: readonly RpcOutcome[],
): Promise<void> {
  for (const [k, call] of calls.entries()) {
    const outcome = outcomes[k]!;
    if (call.method.name !== 'eth_sendRawTransaction' || !('result' in outcome) || typeof outcome.result !== 'string') continue;
    await onBroadcast({ network, appId, hash: outcome.result, raw: call.params[0] as string });
  }
}

/** A plain reply as a web Response (handle()'s answers). */
function toResponse(reply: PlainReply): Response {
  return new BufferedResponse(reply.body, { status: reply.status, headers: reply.headers });
}

function errorCodeOf(outcome: RpcOutcome): number | null {
  if ('failure' in outcome) return outcome.failure.error.code;
  if ('nodeError' in outcome) return outcome.nodeError.code;
  return null;
}

/** Bytes and a header record, written by the Node adapter as they are (src/api/buffered-response.ts). */
function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new BufferedResponse(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...corsHeaders, ...headers } });
}

/** A refusal of the whole message: its row's HTTP status, `id` null (the message was not read, or not as a call). */
function failureReply(failure: RpcFailure): RpcReply {
  return { httpStatus: failure.httpStatus, body: { jsonrpc: '2.0', id: null, error: failure.error } };
}

function plainFailure(failure: RpcFailure): PlainReply {
  return plainReply(failureReply(failure));
}

/** The headers of a JSON answer, built once. */
const JSON_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'application/json', ...corsHeaders };

/** A JSON-RPC reply as bytes to write: JSON with the CORS headers, a 429 with its Retry-After. */
function plainReply(reply: RpcReply): PlainReply {
  if (reply.body === null) return { status: reply.httpStatus, headers: { ...corsHeaders }, body: null };
  const data = !Array.isArray(reply.body) && 'error' in reply.body ? reply.body.error.data : undefined;
  // A 429 says when to come back (docs/errors.md#retry-after).
  const headers =
    data && typeof data === 'object' && 'retryAfterSeconds' in data ? { ...JSON_HEADERS, 'retry-after': String(data.retryAfterSeconds) } : { ...JSON_HEADERS };
  return { status: reply.httpStatus, headers, body: JSON.stringify(reply.body) };
}

function methodNotAllowed(allow: string): Response {
  const methods = allow.split(', ');
  const { error } = toRpcFailure(new CrucibleError('method_not_allowed', `Invalid request: use ${methods[0]} here.`, { allow: methods }));
  return json(405, { jsonrpc: '2.0', id: null, error }, { allow });
}

/** The body as text, or null when it is longer than `maxBytes` (counted as it arrives: Content-Length may be absent or wrong) or `stop` is true of a chunk. */
async function readBody(body: ReadableStream<Uint8Array> | null, maxBytes: number, stop: (chunk: Uint8Array) => boolean): Promise<string | null> {
  if (!body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > maxBytes || stop(chunk)) {
      await body.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
