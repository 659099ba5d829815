import type { z } from 'zod';
import { ipBucketOf } from '../http/ip-bucket.ts';
import { DEFAULT_JSON_MAX_DEPTH, jsonDepthScan } from '../http/json-depth.ts';
import type { RateLimiter } from '../limits/rate-limiter.ts';
import { retryAfterSeconds } from '../limits/retry-after.ts';
import { apiErrorResponse, documentationUrlOf, type ErrorDetails } from './errors.ts';
import type { ApiOperation, ApiRequest, InputFailure, RequestContext } from './operation.ts';
import { parseQuery } from './query.ts';

// Web-standard router: Request -> Response over the operation registry. Matches the path
// template first, then the method (405 with Allow), then parses and validates inputs with the
// operation's zod schemas before the handler sees them (spec 2.5, 4.6, 7.3). A body is paid for
// before it is read, and refused unparsed when it nests too deep (README, "Server limits").

export interface Router {
  handle(request: ApiRequest, context: RequestContext): Response | Promise<Response>;
}

/** How request bodies are admitted. */
export interface BodyLimits {
  /** How deeply a JSON body may nest (JSON_MAX_DEPTH); default DEFAULT_JSON_MAX_DEPTH. */
  jsonMaxDepth?: number;
  /**
   * A bucket per client IP that every request with a body pays before the body is read
   * (API_BODY_REQUESTS_PER_SECOND); absent: none (astro dev, tests of single operations).
   */
  perClient?: { limiter: RateLimiter; requestsPerSecond: number; burst: number; ipv6PrefixLength: number };
}

interface Route {
  template: string;
  pattern: RegExp | null;
  paramNames: string[];
  byMethod: Map<string, ApiOperation>;
  allow: string[];
}

export function createRouter(operations: readonly ApiOperation[], options: { origin: string; bodies?: BodyLimits }): Router {
  const documentationUrl = documentationUrlOf(options.origin);
  const { exact, templated } = compileRoutes(operations);
  const maxDepth = options.bodies?.jsonMaxDepth ?? DEFAULT_JSON_MAX_DEPTH;
  const perClient = options.bodies?.perClient;

  /** Seconds until this client may send another body, or null when it may now (one is taken). */
  const bodyWait = async (clientIp: string | null): Promise<number | null> => {
    if (!perClient) return null;
    const rule = { ratePerSecond: perClient.requestsPerSecond, burst: perClient.burst };
    const decision = await perClient.limiter.take(`api-body:${ipBucketOf(clientIp, perClient.ipv6PrefixLength)}`, 1, rule);
    return decision.allowed ? null : retryAfterSeconds(decision.retryAfterMs);
  };

  const match = (path: string): { route: Route; values: string[] } | undefined => {
    const route = exact.get(path);
    if (route) return { route, values: [] };
    for (const candidate of templated) {
      const found = candidate.pattern!.exec(path);
      if (found) return { route: candidate, values: found.slice(1) };
    }
    return undefined;
  };

  return {
    // Synchronous until something is asynchronous (a body to read, an async handler): every
    // promise here is per-request work, and /api/ip needs none.
    handle(request, context) {
      const url = URL.parse(request.url);
      if (!url) return apiErrorResponse('bad_request', { documentationUrl, problem: 'The request URL could not be parsed.' });
      const details = (extra: Partial<ErrorDetails> = {}): ErrorDetails => ({
        method: request.method,
        path: url.pathname.length > 200 ? `${url.pathname.slice(0, 200)}…` : url.pathname,
        documentationUrl,
        ...extra,
      });
      const failed = (error: unknown): Response => {
        // Logged with the request id; the body names no internals (spec 2.5).
        context.log.error('unhandled exception in API handler', { requestId: context.requestId, error: errorText(error) });
        return apiErrorResponse('internal_error', details());
      };
      try {
        const found = match(url.pathname);
        if (!found) return apiErrorResponse('not_found', details());
        const { route, values } = found;
        const operation = route.byMethod.get(request.method === 'HEAD' ? 'GET' : request.method);
        if (!operation) return apiErrorResponse('method_not_allowed', details({ allow: route.allow }));

        const failures: InputFailure[] = [];
        const params = validate(operation.params, decodeParams(route.paramNames, values), 'params', failures);
        const query = operation.query ? validate(operation.query, parseQuery(url.search), 'query', failures) : {};
        const answer = (body: unknown): Response | Promise<Response> => {
          if (failures.length > 0) {
            if (operation.invalid) return operation.invalid(failures, { request, context });
            return apiErrorResponse('bad_request', details({ problem: describeFailure(failures[0]!) }));
          }
          // Validated by the operation's own schemas above, so the casts only restate them.
          return operation.handler({ request, params: params as Record<string, unknown>, query: query as Record<string, unknown>, body, context });
        };
        const body = operation.body;
        const result = body
          ? bodyWait(context.clientIp).then(async (wait) => {
              if (wait !== null) {
                const problem = `Too many requests with a body from this client: the limit is ${perClient!.requestsPerSecond} a second, in bursts of ${perClient!.burst}.`;
                return apiErrorResponse('rate_limited', details({ problem, retryAfterSeconds: wait }));
              }
              return answer(validate(body.schema, await readJsonBody(request, body.maxBytes, maxDepth), 'body', failures));
            })
          : answer(undefined);
        return result instanceof Promise ? result.catch(failed) : result;
      } catch (error) {
        return failed(error);
      }
    },
  };
}

function compileRoutes(operations: readonly ApiOperation[]) {
  const byTemplate = new Map<string, Route>();
  for (const operation of operations) {
    let route = byTemplate.get(operation.path);
    if (!route) {
      const paramNames: string[] = [];
      const source = operation.path
        .split(/(\{[^}]+\})/)
        .map((part) => {
          const name = /^\{([^}]+)\}$/.exec(part)?.[1];
          if (!name) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
          paramNames.push(name);
          return '([^/]+)';
        })
        .join('');
      route = { template: operation.path, pattern: paramNames.length ? new RegExp(`^${source}$`) : null, paramNames, byMethod: new Map(), allow: [] };
      byTemplate.set(operation.path, route);
    }
    if (route.byMethod.has(operation.method)) throw new Error(`two operations for ${operation.method} ${operation.path}`);
    route.byMethod.set(operation.method, operation);
    route.allow.push(...(operation.method === 'GET' ? ['GET', 'HEAD'] : [operation.method]));
  }
  const routes = [...byTemplate.values()];
  return {
    exact: new Map(routes.filter((r) => !r.pattern).map((r) => [r.template, r])),
    templated: routes.filter((r) => r.pattern),
  };
}

type Parsed = { ok: true; value: unknown } | { ok: false; reason: InputFailure['reason']; maxDepth?: number };

function decodeParams(names: string[], values: string[]): Parsed {
  const params: Record<string, string> = {};
  try {
    names.forEach((name, index) => {
      params[name] = decodeURIComponent(values[index]!);
    });
  } catch {
    return { ok: false, reason: 'unparseable' };
  }
  return { ok: true, value: params };
}

function validate(schema: z.ZodType | undefined, parsed: Parsed, part: InputFailure['part'], failures: InputFailure[]): unknown {
  if (!parsed.ok) {
    failures.push({ part, reason: parsed.reason, issues: [], ...(parsed.maxDepth !== undefined && { maxDepth: parsed.maxDepth }) });
    return undefined;
  }
  if (!schema) return parsed.value;
  const result = schema.safeParse(parsed.value);
  if (result.success) return result.data;
  failures.push({ part, reason: 'invalid', issues: result.error.issues, input: parsed.value });
  return undefined;
}

/** Reads a JSON body of at most `maxBytes` bytes without buffering more than that, and parses it unless it nests deeper than `maxDepth`. */
async function readJsonBody(request: ApiRequest, maxBytes: number, maxDepth: number): Promise<Parsed> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)) return { ok: false, reason: 'unsupported_media_type' };
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBytes) return { ok: false, reason: 'too_large' };
  if (!request.body) return { ok: false, reason: 'unparseable' };
  const chunks: Uint8Array[] = [];
  let size = 0;
  // Refused before JSON.parse, as it arrives: a body of deeply nested arrays holds the main thread
  // for up to a second. The rest of it is not read (the answer closes the connection).
  const deep = jsonDepthScan(maxDepth);
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return { ok: false, reason: 'too_large' };
    }
    if (deep(value)) {
      reader.releaseLock();
      return { ok: false, reason: 'too_deep', maxDepth };
    }
    chunks.push(value);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch {
    return { ok: false, reason: 'unparseable' };
  }
}

const partNames: Record<InputFailure['part'], string> = { params: 'The path', query: 'The query string', body: 'The request body' };

function describeFailure(failure: InputFailure): string {
  const part = partNames[failure.part];
  switch (failure.reason) {
    case 'unparseable':
      return `${part} could not be parsed.`;
    case 'too_large':
      return `${part} is larger than this operation accepts.`;
    case 'too_deep':
      return `${part} nests arrays and objects more than ${failure.maxDepth} deep, the limit.`;
    case 'unsupported_media_type':
      return `${part} must be sent as application/json.`;
    case 'invalid': {
      const issue = failure.issues[0];
      const where = issue?.path.length ? ` (${issue.path.map(String).join('.')})` : '';
      return `${part} is not valid${where}: ${issue?.message ?? 'see the operation schema'}.`;
    }
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
