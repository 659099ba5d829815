import type { z } from 'zod';
import type { RpcFailure } from '../../errors/json-rpc.ts';
import { rpcFailure } from './errors.ts';
import type { RpcCall } from './jsonrpc.ts';
import { blockRangeOf, blockRangeProblem, type ChainHead } from './block-range.ts';
import type { RpcMethod } from './method.ts';
import { rpcRegistry, type RpcRegistry } from './registry.ts';
import { mustBePhrase } from './schemas/primitives.ts';

// A well-formed call checked against the registry (docs/json-rpc.md#method-registry): unknown or blocked methods are
// -32601, params that do not fit the method's schemas are -32602 naming the parameter. What passes
// comes back normalized: omitted optional params that have a default filled in, trailing omitted
// ones dropped, so every upstream (and the cache) sees the same call.

type ParamsCheck = { ok: true; params: unknown[] } | { ok: false; detail: string };

/** `[1] blockTag` or `[0] transaction.accessList[0].address`: which value a -32602 is about. */
function paramPath(method: RpcMethod, index: number, path: readonly PropertyKey[]): string {
  const name = method.params[index]?.name ?? 'param';
  return `[${index}] ${name}${path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('')}`;
}

/** A union's issue, traced into the one branch whose type fitted the value (an object given to an object branch). */
function tracedIssue(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  if (issue.code !== 'invalid_union') return issue;
  const fitting = issue.errors.filter((branch) => branch.length > 0 && !(branch[0]!.code === 'invalid_type' && branch[0]!.path.length === 0));
  if (fitting.length !== 1) return issue;
  const inner = fitting[0]![0]!;
  return tracedIssue({ ...inner, path: [...issue.path, ...inner.path] });
}

function issueDetail(method: RpcMethod, found: z.core.$ZodIssue): string {
  const issue = tracedIssue(found);
  const [index, ...path] = issue.path;
  if (typeof index !== 'number') return issue.message;
  const param = method.params[index]!;
  // A wrong value at the param's root gets the param kind's one phrase, whichever union branch zod
  // blamed; a rule of its own (a refinement, fields it does not take) says what it says.
  const own = issue.code === 'custom' || issue.code === 'unrecognized_keys';
  const message = path.length === 0 && !own ? (mustBePhrase(param.schema) ?? issue.message) : issue.message;
  return `${paramPath(method, index, path)} ${message}`;
}

const countText = (n: number) => `${n} param${n === 1 ? '' : 's'}`;

/** Checks params against a method's schemas and returns them normalized. */
function validateParams(method: RpcMethod, params: readonly unknown[]): ParamsCheck {
  const max = method.params.length;
  if (params.length > max) return { ok: false, detail: `${method.name} takes at most ${countText(max)}, got ${params.length}` };
  const missing = method.params.findIndex((param, i) => param.required && i >= params.length);
  if (missing >= 0) return { ok: false, detail: `${paramPath(method, missing, [])} is required` };

  const parsed = method.paramsSchema.safeParse(params);
  if (!parsed.success) return { ok: false, detail: issueDetail(method, parsed.error.issues[0]!) };

  // An omitted or null optional param takes its default; without one, null stays where it was given.
  const normalized: unknown[] = method.params.map((param, i) =>
    parsed.data[i] === undefined || parsed.data[i] === null ? (param.default ?? parsed.data[i]) : parsed.data[i],
  );
  while (normalized.length > 0 && (normalized.at(-1) === undefined || normalized.at(-1) === null)) normalized.pop();
  const problem = method.checkParams?.(normalized) ?? rangeProblem(method, normalized, null);
  if (problem)
    return { ok: false, detail: 'issue' in problem ? issueDetail(method, problem.issue) : `${paramPath(method, problem.index, [])} ${problem.problem}` };
  return { ok: true, params: normalized };
}

export interface ValidateOptions {
  /** Where the supported methods are listed; the -32601 message points there. */
  docsUrl: string;
  /** The connection the call came in on: subscriptions need a WebSocket. */
  transport: 'http' | 'websocket';
  /** The registry to check against; the one registry unless a test builds another. */
  registry?: RpcRegistry;
}

export type ValidatedCall = { ok: true; method: RpcMethod; params: unknown[] } | { ok: false; failure: RpcFailure };

/** Looks the method up (aliases resolved, blocked families refused) and validates its params. */
export function validateCall(call: Pick<RpcCall, 'method' | 'params'>, options: ValidateOptions): ValidatedCall {
  const method = (options.registry ?? rpcRegistry).find(call.method);
  if (!method) return { ok: false, failure: rpcFailure('method_not_found', { method: call.method, docsUrl: options.docsUrl }) };
  if (method.transport === 'websocket' && options.transport !== 'websocket') {
    return { ok: false, failure: rpcFailure('websocket_only', { method: call.method, docsUrl: options.docsUrl }) };
  }
  const checked = validateParams(method, call.params);
  if (!checked.ok) return { ok: false, failure: rpcFailure('invalid_params', { detail: checked.detail }) };
  return { ok: true, method, params: checked.params };
}

/** A filter's block range over the method's limit, measured with `head` (null: numbers only). */
function rangeProblem(method: RpcMethod, params: readonly unknown[], head: ChainHead | null): { index: number; problem: string } | null {
  if (!method.blockRange) return null;
  const problem = blockRangeProblem(method, blockRangeOf(method.blockRange, params[0], head));
  return problem ? { index: 0, problem } : null;
}

/**
 * The gateway's second look at a validated call with a limited block range, once it knows the
 * head: the -32602 refusal of a range over the limit, or null.
 */
export function blockRangeFailure(method: RpcMethod, params: readonly unknown[], head: ChainHead): RpcFailure | null {
  const problem = rangeProblem(method, params, head);
  return problem ? rpcFailure('invalid_params', { detail: `${paramPath(method, problem.index, [])} ${problem.problem}` }) : null;
}
