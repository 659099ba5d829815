import { errorCodes, type ErrorCode, type ErrorRow, type MessageArgs, type RateLimit } from '../../errors/codes.ts';
import { fail, overBurst, overLimit } from '../../errors/crucible-error.ts';
import { toRpcFailure, type RpcFailure } from '../../errors/json-rpc.ts';
import { MAX_BODY_BYTES, MAX_SUBSCRIPTIONS_PER_CONNECTION } from './limits.ts';

// The gateway's own JSON-RPC errors (docs/errors.md#json-rpc-errors): the codes of the one error
// table (src/errors/codes.ts) it answers with, each with its JSON-RPC code and the HTTP status of
// a single request. Inside a batch, per-item errors (-32600 for an invalid item, -32601, -32602)
// are entries of a 200 answer; the others concern the whole request. Errors a node returns for a
// valid call are relayed as they are, with 200.

const RPC_REASONS = [
  'parse_error',
  'invalid_request',
  'method_not_found',
  'websocket_only',
  'not_served',
  'invalid_params',
  'invalid_api_key',
  'app_disabled',
  'network_not_allowed',
  'origin_not_allowed',
  'rate_limited',
  'cost_exceeds_burst',
  'body_too_large',
  'no_healthy_upstream',
  'index_unavailable',
  'too_many_subscriptions',
  'too_many_connections',
  'too_many_topics',
] as const satisfies readonly ErrorCode[];

export type RpcErrorReason = (typeof RPC_REASONS)[number];

/** Each reason's JSON-RPC code and the HTTP status a single request answers with, from its row. */
export const rpcErrors = Object.fromEntries(
  RPC_REASONS.map((reason) => {
    const row: ErrorRow = errorCodes[reason];
    return [reason, { code: row.rpc!.code, httpStatus: row.rpc!.status ?? row.status }];
  }),
) as Record<RpcErrorReason, { code: number; httpStatus: number }>;

/** The facts a reason's message is written from; the gateway's own limits are filled in. */
type RpcArgs<R extends RpcErrorReason> = R extends 'body_too_large' | 'too_many_subscriptions'
  ? []
  : R extends 'rate_limited'
    ? [{ limit: RateLimit; retryAfterSeconds: number }]
    : MessageArgs<R>;

/** A refusal by the gateway, as JSON-RPC answers it. */
export function rpcFailure<R extends RpcErrorReason>(reason: R, ...args: RpcArgs<R>): RpcFailure {
  switch (reason) {
    case 'body_too_large':
      return toRpcFailure(fail('body_too_large', { maxBytes: MAX_BODY_BYTES }));
    case 'too_many_subscriptions':
      return toRpcFailure(fail('too_many_subscriptions', { max: MAX_SUBSCRIPTIONS_PER_CONNECTION }));
    case 'rate_limited': {
      const { limit, retryAfterSeconds } = args[0] as { limit: RateLimit; retryAfterSeconds: number };
      return toRpcFailure(overLimit(limit, retryAfterSeconds));
    }
    case 'cost_exceeds_burst': {
      const { limit, computeUnits, burst } = args[0] as { limit: RateLimit; computeUnits: number; burst: number };
      return toRpcFailure(overBurst(limit, computeUnits, burst));
    }
    default:
      return toRpcFailure((fail as (code: ErrorCode, ...facts: unknown[]) => ReturnType<typeof fail>)(reason, ...args));
  }
}
