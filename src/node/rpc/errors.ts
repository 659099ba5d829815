import { MAX_BODY_BYTES, MAX_SUBSCRIPTIONS_PER_CONNECTION } from './limits.ts';
import type { JsonValue } from './method.ts';

// The gateway's own JSON-RPC errors (platform §3) in one table: reason -> JSON-RPC code -> HTTP
// status of a single request -> message. Inside a batch, per-item errors (-32600 for an invalid
// item, -32601, -32602) are entries of a 200 answer; the others concern the whole request.
// Errors a node returns for a valid call are relayed as they are, with 200.

/**
 * Which limit a 429 is (README, "Server limits"): the app's CU rate or monthly quota, its account's CU rate,
 * or the demo key's CU rate per client IP or per network.
 */
export type RateLimit =
  | { kind: 'app-rate'; computeUnitsPerSecond: number }
  | { kind: 'app-quota'; computeUnitsPerMonth: number }
  | { kind: 'account-rate'; computeUnitsPerSecond: number }
  | { kind: 'demo-ip'; computeUnitsPerSecond: number }
  | { kind: 'demo-network'; computeUnitsPerSecond: number };

function rateLimitText(limit: RateLimit): string {
  switch (limit.kind) {
    case 'app-rate':
      return `this app's rate of ${limit.computeUnitsPerSecond} compute units per second`;
    case 'app-quota':
      return `this app's monthly quota of ${limit.computeUnitsPerMonth} compute units`;
    case 'account-rate':
      return `this app's account's rate of ${limit.computeUnitsPerSecond} compute units per second, shared by its apps`;
    case 'demo-ip':
      return `the demo key's ${limit.computeUnitsPerSecond} compute units per second per client IP`;
    case 'demo-network':
      return `the demo key's ${limit.computeUnitsPerSecond} compute units per second on this network, shared by every client`;
  }
}

export const rpcErrors = {
  parse_error: { code: -32700, httpStatus: 400, message: () => 'Parse error: the body is not valid JSON' },
  invalid_request: { code: -32600, httpStatus: 400, message: (args: { problem: string }) => `Invalid request: ${args.problem}` },
  method_not_found: {
    code: -32601,
    httpStatus: 200,
    message: (args: { method: string; docsUrl: string }) => `Unsupported method: ${args.method}. See ${args.docsUrl}`,
  },
  /** A subscription method over HTTP: known, but it needs a connection to push on. */
  websocket_only: {
    code: -32601,
    httpStatus: 200,
    message: (args: { method: string; docsUrl: string }) => `${args.method} needs a WebSocket connection: open the same URL with wss://. See ${args.docsUrl}`,
  },
  /** A data-product method on a network that product does not serve (no transfer index for it). */
  not_served: {
    code: -32601,
    httpStatus: 200,
    message: (args: { method: string; network: string; docsUrl: string }) => `${args.method} is not available on network ${args.network}. See ${args.docsUrl}`,
  },
  invalid_params: { code: -32602, httpStatus: 200, message: (args: { detail: string }) => `invalid params: ${args.detail}` },
  invalid_api_key: { code: -32600, httpStatus: 401, message: () => 'Invalid API key' },
  app_disabled: { code: -32600, httpStatus: 403, message: () => 'Forbidden: this app is disabled; its owner can enable it in the dashboard' },
  network_not_allowed: {
    code: -32600,
    httpStatus: 403,
    message: (args: { network: string }) => `Forbidden: this app is not allowed on network ${args.network}; add the network to the app in the dashboard`,
  },
  origin_not_allowed: {
    code: -32600,
    httpStatus: 403,
    message: (args: { origin: string }) => `Forbidden: origin ${args.origin} is not in this app's allowed domains`,
  },
  rate_limited: {
    code: 429,
    httpStatus: 429,
    message: (args: { limit: RateLimit; retryAfterSeconds: number }) =>
      `Too many requests: over ${rateLimitText(args.limit)}; retry after ${args.retryAfterSeconds} s`,
  },
  body_too_large: {
    code: -32600,
    httpStatus: 413,
    message: () => `Request body too large: the limit is 2 MiB (${MAX_BODY_BYTES} bytes); send smaller batches`,
  },
  no_healthy_upstream: {
    code: -32603,
    httpStatus: 503,
    message: (args: { network: string }) => `No healthy upstream for network ${args.network}; retry in a few seconds`,
  },
  /** WebSocket: a connection's subscriptions are capped (platform §3); -32005 is EIP-1474's "limit exceeded". */
  /** "erc20" token balances come from the transfer index, which holds nothing for this network (yet). */
  index_unavailable: {
    code: -32603,
    httpStatus: 503,
    message: (args: { network: string }) =>
      `The transfer index of network ${args.network} is not available here (not indexed, or not caught up yet; the operator's INDEXER_NETWORKS names the networks indexed): "erc20" balances need it; ask for a list of contracts, or retry later`,
  },
  too_many_subscriptions: {
    code: -32005,
    httpStatus: 200,
    message: () => `Too many subscriptions: a connection may hold ${MAX_SUBSCRIPTIONS_PER_CONNECTION}; cancel one with eth_unsubscribe`,
  },
  /** WebSocket: an upgrade over the caller's open connections (an app's, or the demo key's per client IP). */
  too_many_connections: {
    code: 429,
    httpStatus: 429,
    message: (args: { max: number; per: 'app' | 'client IP' }) =>
      `Too many connections: ${args.per === 'app' ? 'this app' : 'the demo key'} may hold ${args.max} WebSocket connections at once${args.per === 'app' ? '' : ' per client IP'}; close one first`,
  },
  /** WebSocket: a subscription that would make the caller hold one upstream topic more than it may. */
  too_many_topics: {
    code: -32005,
    httpStatus: 200,
    message: (args: { max: number }) =>
      `Too many subscription topics: a key may hold ${args.max} distinct subscriptions (kind and filter) at once over all its connections (the demo key: per client IP); cancel one with eth_unsubscribe, or share filters`,
  },
} as const satisfies Record<string, { code: number; httpStatus: number; message: (args: never) => string }>;

export type RpcErrorReason = keyof typeof rpcErrors;
type MessageArgs<Reason extends RpcErrorReason> = Parameters<(typeof rpcErrors)[Reason]['message']>;

/** The error member of a JSON-RPC response. */
export interface RpcErrorObject {
  code: number;
  message: string;
  data?: JsonValue;
}

/** A refusal by the gateway: its row, the HTTP status a single request answers with, and the error object. */
export interface RpcFailure {
  reason: RpcErrorReason;
  httpStatus: number;
  error: RpcErrorObject;
}

export function rpcFailure<Reason extends RpcErrorReason>(reason: Reason, ...args: MessageArgs<Reason>): RpcFailure {
  const row = rpcErrors[reason];
  const message = (row.message as (...values: MessageArgs<Reason>) => string)(...args);
  const error: RpcErrorObject = { code: row.code, message };
  if (reason === 'rate_limited') {
    const { limit, retryAfterSeconds } = args[0] as { limit: RateLimit; retryAfterSeconds: number };
    error.data = { limit: limit.kind, retryAfterSeconds };
  }
  return { reason, httpStatus: row.httpStatus, error };
}
