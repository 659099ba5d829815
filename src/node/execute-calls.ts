import { keccak256, type Hex } from 'viem';
import { answerKey, type AnswerCache } from './answer-cache.ts';
import { mayCacheAnswer } from './rpc/cache-policy.ts';
import type { RpcErrorObject, RpcFailure } from '../errors/json-rpc.ts';
import { rpcFailure } from './rpc/errors.ts';
import type { RpcOutcome } from './rpc/jsonrpc.ts';
import { type ChainHead, logsHeadTags } from './rpc/logs-range.ts';
import type { JsonValue, RpcMethod } from './rpc/method.ts';
import { blockNumberOf } from './rpc/schemas/primitives.ts';
import type { LogFilter } from './rpc/schemas/requests.ts';
import { logsRangeFailure } from './rpc/validate.ts';
import { NoHealthyUpstreamError, type RetryRule, type UpstreamPool } from './upstreams/upstream-pool.ts';

// Carries out a request's validated calls on one network: local answers, data products' and cached ones first,
// then the rest in one upstream batch; eth_sendRawTransaction alone (its retry asks before it
// resends) and filter calls on the upstream that holds the filter.

export interface ValidCall {
  method: RpcMethod;
  params: unknown[];
}

/** A data product's answer to a validated call (docs/json-rpc.md#vendor-methods), on one network. */
export type ServedMethod = (params: unknown[]) => Promise<RpcOutcome>;

export interface ExecutionNetwork {
  id: string;
  /** The data-product methods this network answers, by registry name (no transfer index: none). */
  served?: ReadonlyMap<string, ServedMethod>;
  finalityDepth: bigint;
  pool: UpstreamPool;
  openRpcDocument(): JsonValue;
}

interface UpstreamAnswer {
  id?: unknown;
  result?: unknown;
  error?: RpcErrorObject;
}

export async function executeCalls(
  calls: readonly ValidCall[],
  network: ExecutionNetwork,
  cache: AnswerCache,
  /** Methods the transport answers itself (a WebSocket's subscriptions). */
  extra?: ReadonlyMap<string, (params: unknown[]) => Promise<RpcOutcome>>,
): Promise<RpcOutcome[]> {
  const outcomes: RpcOutcome[] = new Array(calls.length);
  const forUpstream: number[] = [];
  let head: bigint | null | undefined;
  const chainHead = async () => (head === undefined ? (head = await network.pool.head()) : head);

  const answeredHere: Array<Promise<void>> = [];
  /** Cache keys of the calls that may be kept, computed once for the lookup and the keeping. */
  const keys: Array<string | undefined> = new Array(calls.length);
  for (const [i, call] of calls.entries()) {
    const own = extra?.get(call.method.name) ?? network.served?.get(call.method.name);
    if (own) {
      answeredHere.push(own(call.params).then((outcome) => void (outcomes[i] = outcome)));
      continue;
    }
    if (call.method.answer) {
      outcomes[i] = { result: call.method.answer(call.params, { openRpcDocument: network.openRpcDocument }) };
      continue;
    }
    if (call.method.cache.kind !== 'none') keys[i] = answerKey(network.id, call.method.name, call.params);
    const cached = keys[i] === undefined ? undefined : cache.get(keys[i]);
    if (cached) {
      outcomes[i] = { result: cached.result };
      continue;
    }
    if (call.method.blockRangeLimited) {
      const failure = await rangeFailure(call, network, chainHead);
      if (failure) {
        outcomes[i] = { failure };
        continue;
      }
    }
    forUpstream.push(i);
  }
  if (forUpstream.length === 0) {
    await Promise.all(answeredHere);
    return outcomes;
  }

  const alone = forUpstream.filter((i) => calls[i]!.method.name === 'eth_sendRawTransaction' || calls[i]!.method.filterAffinity !== undefined);
  const batched = forUpstream.filter((i) => !alone.includes(i));
  const settle = (i: number, answer: UpstreamAnswer | undefined) => {
    outcomes[i] = outcomeOf(answer);
    if ('result' in outcomes[i]!) remember(i);
  };
  const remember = (i: number) => {
    const call = calls[i]!;
    const key = keys[i];
    const { result } = outcomes[i] as { result: unknown };
    if (key === undefined) return;
    // `when-final` calls at a numbered block had the head read before they were sent; the others need none.
    if (mayCacheAnswer(call.method, call.params, result, { head: head ?? null, finalityDepth: network.finalityDepth })) cache.set(key, result);
  };
  const unavailable = (indexes: readonly number[], error: unknown) => {
    if (!(error instanceof NoHealthyUpstreamError)) throw error;
    for (const i of indexes) outcomes[i] = { failure: rpcFailure('no_healthy_upstream', { network: network.id }) };
  };

  // A call at a numbered block is kept once that block is final: the head is read before it is sent.
  if (forUpstream.some((i) => mayBecomeFinal(calls[i]!))) await chainHead();

  await Promise.all([
    ...answeredHere,
    batched.length > 0 &&
      sendBatch(
        batched.map((i) => calls[i]!),
        network.pool,
      ).then(
        (answers) => {
          for (const [k, i] of batched.entries()) settle(i, answers[k]);
        },
        (error: unknown) => unavailable(batched, error),
      ),
    ...alone.map((i) =>
      sendOne(calls[i]!, network.pool).then(
        (answer) => settle(i, answer),
        (error: unknown) => unavailable([i], error),
      ),
    ),
  ]);
  return outcomes;
}

/**
 * The refusal of a log filter whose range, its tags resolved against the head, is over the limit
 * (validation measured numbers alone); null to send it. A range that cannot be measured is not sent.
 */
async function rangeFailure(call: ValidCall, network: ExecutionNetwork, latest: () => Promise<bigint | null>): Promise<RpcFailure | null> {
  const tags = logsHeadTags(call.params[0] as LogFilter);
  if (tags.length === 0) return null;
  const head = await latest();
  if (head === null) return rpcFailure('no_healthy_upstream', { network: network.id });
  const resolved: ChainHead = { latest: head };
  for (const tag of ['safe', 'finalized'] as const) {
    const number = tags.includes(tag) ? await network.pool.taggedBlock(tag) : null;
    if (number !== null) resolved[tag] = number;
  }
  return logsRangeFailure(call.method, call.params, resolved);
}

/** A `when-final` call at a block named by number (`earliest` too): only such an answer waits on the head to be kept. */
function mayBecomeFinal(call: ValidCall): boolean {
  const policy = call.method.cache;
  return policy.kind === 'when-final' && blockNumberOf(call.params[policy.blockParam]) !== null;
}

function outcomeOf(answer: UpstreamAnswer | undefined): RpcOutcome {
  if (!answer || typeof answer !== 'object') return { nodeError: { code: -32603, message: 'the upstream node gave no answer to this call' } };
  if (answer.error && typeof answer.error === 'object') return { nodeError: answer.error };
  return { result: answer.result ?? null };
}

/** The calls in one upstream request (a batch of one is sent as a plain request); answers in call order. */
async function sendBatch(calls: readonly ValidCall[], pool: UpstreamPool): Promise<Array<UpstreamAnswer | undefined>> {
  const retry: RetryRule = calls.every((call) => call.method.idempotent) ? { kind: 'idempotent' } : { kind: 'none' };
  if (calls.length === 1) return [await sendOne(calls[0]!, pool, retry)];
  const body = JSON.stringify(calls.map((call, id) => ({ jsonrpc: '2.0', id, method: call.method.name, params: call.params })));
  const answer = parseAnswer(await pool.send(body, retry));
  if (!Array.isArray(answer)) {
    // A node that refuses a whole batch answers one error object: it is every call's answer.
    return calls.map(() => answer as UpstreamAnswer);
  }
  const byId = new Map<unknown, UpstreamAnswer>();
  for (const item of answer as UpstreamAnswer[]) if (item && typeof item === 'object') byId.set(item.id, item);
  return calls.map((_, id) => byId.get(id));
}

async function sendOne(call: ValidCall, pool: UpstreamPool, retry = retryOf(call)): Promise<UpstreamAnswer> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: call.method.name, params: call.params });
  return parseAnswer(await pool.send(body, retry)) as UpstreamAnswer;
}

function retryOf(call: ValidCall): RetryRule {
  if (call.method.name === 'eth_sendRawTransaction') return { kind: 'transaction', hash: keccak256(call.params[0] as Hex) };
  if (call.method.filterAffinity) return { kind: 'pinned' };
  return call.method.idempotent ? { kind: 'idempotent' } : { kind: 'none' };
}

/** An upstream that answers something other than JSON did not answer: like a 5xx. */
function parseAnswer(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new NoHealthyUpstreamError(new Error('the upstream answered with something other than JSON'));
  }
}
