import { keccak256, type Hex } from 'viem';
import { answerKey, type AnswerCache } from './answer-cache.ts';
import { mayCacheAnswer } from './rpc/cache-policy.ts';
import type { RpcErrorObject, RpcFailure } from '../errors/json-rpc.ts';
import { rpcFailure } from './rpc/errors.ts';
import type { RpcOutcome } from './rpc/jsonrpc.ts';
import { blockRangeOf, type ChainHead, headTags } from './rpc/block-range.ts';
import type { JsonValue, RpcMethod } from './rpc/method.ts';
import { blockNumberOf } from './rpc/schemas/primitives.ts';
import { blockRangeFailure } from './rpc/validate.ts';
import { NoHealthyUpstreamError, type RetryRule, type UpstreamPool } from './upstreams/upstream-pool.ts';

// Carries out a request's validated calls on one network: local answers, data products' and cached ones first,
// then the rest in one upstream batch; eth_sendRawTransaction alone (its retry asks before it
// resends), filter calls on the upstream that holds the filter, and traces alone with the trace
// deadline (one slow replay does not hold a batch of reads).

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
  /** How long a method with the `trace` deadline may take upstream (NODE_UPSTREAM_TRACE_TIMEOUT_MS). */
  traceTimeoutMs: number;
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
  /** The calls as the upstream gets them: the validated ones, but for ranges sent as numbers. */
  const sent: ValidCall[] = [...calls];
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
    if (call.method.blockRange) {
      const measured = await measureRange(call, network, chainHead);
      if ('failure' in measured) {
        outcomes[i] = measured;
        continue;
      }
      sent[i] = { ...call, params: measured.params };
    }
    forUpstream.push(i);
  }
  if (forUpstream.length === 0) {
    await Promise.all(answeredHere);
    return outcomes;
  }

  const alone = forUpstream.filter((i) => sentAlone(calls[i]!.method));
  const batched = forUpstream.filter((i) => !alone.includes(i));
  const settle = (i: number, answer: UpstreamAnswer | undefined) => {
    const outcome = outcomeOf(answer);
    const translated = calls[i]!.method.upstreamAs;
    outcomes[i] = translated && 'result' in outcome ? { result: translated.answer(outcome.result) } : outcome;
    if ('result' in outcome) remember(i, outcome.result);
  };
  /** Keeps the answer when the policy allows it, judged on what the upstream gave. */
  const remember = (i: number, upstreamResult: unknown) => {
    const call = calls[i]!;
    const key = keys[i];
    if (key === undefined) return;
    // `when-final` calls at a numbered block had the head read before they were sent; the others need none.
    const finality = { head: head ?? null, finalityDepth: network.finalityDepth };
    if (mayCacheAnswer(call.method, call.params, upstreamResult, finality)) cache.set(key, (outcomes[i] as { result: unknown }).result);
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
        batched.map((i) => sent[i]!),
        network.pool,
      ).then(
        (answers) => {
          for (const [k, i] of batched.entries()) settle(i, answers[k]);
        },
        (error: unknown) => unavailable(batched, error),
      ),
    ...alone.map((i) =>
      sendOne(sent[i]!, network.pool, retryOf(sent[i]!), deadlineOf(sent[i]!.method, network)).then(
        (answer) => settle(i, answer),
        (error: unknown) => unavailable([i], error),
      ),
    ),
  ]);
  return outcomes;
}

/**
 * A call with a limited block range, its tags resolved against the head (validation measured numbers
 * alone): the refusal of a range over the limit, or the params to send, the range as numbers where
 * the method asks for that (trace_filter). A range that cannot be measured is not sent.
 */
async function measureRange(
  call: ValidCall,
  network: ExecutionNetwork,
  latest: () => Promise<bigint | null>,
): Promise<{ failure: RpcFailure } | { params: unknown[] }> {
  const limit = call.method.blockRange!;
  const tags = headTags(limit, call.params[0]);
  let resolved: ChainHead | null = null;
  if (tags.length > 0) {
    const head = await latest();
    if (head === null) return { failure: rpcFailure('no_healthy_upstream', { network: network.id }) };
    resolved = { latest: head };
    for (const tag of ['safe', 'finalized'] as const) {
      const number = tags.includes(tag) ? await network.pool.taggedBlock(tag) : null;
      if (number !== null) resolved[tag] = number;
    }
    const failure = blockRangeFailure(call.method, call.params, resolved);
    if (failure) return { failure };
  }
  const range = blockRangeOf(limit, call.params[0], resolved);
  if (!limit.withNumbers || range.kind !== 'range') return { params: call.params };
  return { params: [limit.withNumbers(call.params[0], range.from, range.to), ...call.params.slice(1)] };
}

/** Sent on its own: a transaction (its retry asks first), a filter call (pinned to its upstream), a trace (its own deadline). */
function sentAlone(method: RpcMethod): boolean {
  return method.name === 'eth_sendRawTransaction' || method.filterAffinity !== undefined || method.upstreamDeadline === 'trace';
}

/** A trace's deadline (its params' own timeout is bounded by it in sendOne); other calls keep the pool's. */
function deadlineOf(method: RpcMethod, network: ExecutionNetwork): number | undefined {
  return method.upstreamDeadline === 'trace' ? network.traceTimeoutMs : undefined;
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
  const body = JSON.stringify(calls.map((call, id) => ({ jsonrpc: '2.0', id, ...upstreamCallOf(call) })));
  const answer = parseAnswer(await pool.send(body, retry));
  if (!Array.isArray(answer)) {
    // A node that refuses a whole batch answers one error object: it is every call's answer.
    return calls.map(() => answer as UpstreamAnswer);
  }
  const byId = new Map<unknown, UpstreamAnswer>();
  for (const item of answer as UpstreamAnswer[]) if (item && typeof item === 'object') byId.set(item.id, item);
  return calls.map((_, id) => byId.get(id));
}

async function sendOne(call: ValidCall, pool: UpstreamPool, retry = retryOf(call), timeoutMs?: number): Promise<UpstreamAnswer> {
  const sent = upstreamCallOf(call);
  const params = timeoutMs !== undefined && call.method.upstreamParams ? call.method.upstreamParams(call.params, { deadlineMs: timeoutMs }) : sent.params;
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: sent.method, params });
  return parseAnswer(await pool.send(body, retry, timeoutMs === undefined ? undefined : { timeoutMs })) as UpstreamAnswer;
}

/** The method and params the upstream is sent: the call's own, or the standard call a vendor method stands on. */
function upstreamCallOf(call: ValidCall): { method: string; params: unknown[] } {
  const translated = call.method.upstreamAs;
  return translated ? { method: translated.method, params: translated.params(call.params) } : { method: call.method.name, params: call.params };
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
