import { DEFAULT_JSON_MAX_DEPTH } from '../../http/json-depth.ts';

// What one WebSocket client may hold, and how the gateway keeps its upstream subscriptions
// (docs/json-rpc.md#websocket). The subscription cap (100 per connection) and the largest message (2 MiB) are the
// gateway's own limits in src/node/rpc/limits.ts; what one key may hold over all its connections
// is a setting (WebSocketSettings in src/config/node.ts).

export interface WebSocketLimits {
  /** Keepalive: a ping this often; a client that has not answered the previous one is cut off. */
  pingIntervalMs: number;
  /**
   * Messages of one connection being answered at once. Beyond it the connection is not read until
   * one is answered: later messages wait (TCP pushes back on the client), none is refused.
   */
  maxInFlight: number;
  /** Bytes queued to a client that does not read: beyond it the connection is closed with 1013 rather than held in memory. */
  maxBufferedBytes: number;
  /** How long a new subscription waits for the upstream's answer before it is refused as unavailable. */
  upstreamAnswerTimeoutMs: number;
  /** Reconnecting to an upstream after a drop: the first delay, doubled per failed attempt up to `max`. */
  reconnectDelayMs: { min: number; max: number };
  /** An upstream connection without subscriptions is closed after this (saves reconnecting when subscribers come and go). */
  upstreamIdleMs: number;
  /** Open subscriptions are charged this often (NODE_WS_SUBSCRIPTION_CU_PER_MINUTE is per minute: tests shorten it). */
  subscriptionChargeIntervalMs: number;
  /** A message nested deeper is refused (-32600) before it is parsed. */
  maxJsonDepth: number;
  /**
   * Pending transactions being read by hash at once for the pending transactions feed, from an
   * upstream that announces hashes only: beyond it newly announced ones are skipped, not queued.
   */
  maxPendingFetches: number;
}

export const webSocketLimits: WebSocketLimits = {
  pingIntervalMs: 30_000,
  maxInFlight: 100,
  maxBufferedBytes: 4 * 1024 * 1024,
  upstreamAnswerTimeoutMs: 10_000,
  reconnectDelayMs: { min: 250, max: 10_000 },
  upstreamIdleMs: 30_000,
  subscriptionChargeIntervalMs: 60_000,
  maxJsonDepth: DEFAULT_JSON_MAX_DEPTH,
  maxPendingFetches: 1_000,
};

/** The delay before reconnect attempt `attempt` (0 = the first after a drop). */
export function reconnectDelay(attempt: number, delay: WebSocketLimits['reconnectDelayMs']): number {
  return Math.min(delay.max, delay.min * 2 ** Math.min(attempt, 30));
}
