import type { z } from 'zod';
import { payForBody, type BodyBucket } from '../admission/body-bucket.ts';
import { CrucibleError, fail } from '../errors/crucible-error.ts';
import { errorBodyResponse } from '../errors/error-body.ts';
import { DEFAULT_JSON_MAX_DEPTH } from '../http/json-depth.ts';
import { readJsonBody, type JsonBodyRead } from '../http/json-body.ts';
import { describeInputFailure } from './input-failure.ts';
import { documentationUrlOf } from './openapi.ts';
import type { ApiOperation, ApiRequest, InputFailure, RequestContext } from './operation.ts';
import { parseQuery } from './query.ts';

// Web-standard router: Request -> Response over the operation registry. Matches the path
// template first, then the method (405 with Allow), then parses and validates inputs with the
// operation's zod schemas before the handler sees them (docs/errors.md#error-body). A body is paid for
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
  perClient?: BodyBucket;
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
  const refuse = (error: CrucibleError) => errorBodyResponse(error, documentationUrl);

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
      if (!url) return refuse(new CrucibleError('bad_request', 'The request URL could not be parsed.'));
      const at = { method: request.method, path: shownPath(url.pathname) };
      const failed = (error: unknown): Response => {
        // Logged with the request id; the body names no internals (docs/errors.md#error-body).
        context.log.error('unhandled exception in API handler', { requestId: context.requestId, error: errorText(error) });
        return refuse(new CrucibleError('internal_error'));
      };
      try {
        const found = match(url.pathname);
        if (!found) return refuse(fail('not_found', at));
        const { route, values } = found;
        const operation = route.byMethod.get(request.method === 'HEAD' ? 'GET' : request.method);
        if (!operation) return refuse(fail('method_not_allowed', at, { allow: route.allow }));

        const failures: InputFailure[] = [];
        const params = validate(operation.params, decodeParams(route.paramNames, values), 'params', failures);
        const query = operation.query ? validate(operation.query, parseQuery(url.search), 'query', failures) : {};
        const answer = (body: unknown): Response | Promise<Response> => {
          if (failures.length > 0) {
            if (operation.invalid) return operation.invalid(failures, { request, context });
            return refuse(new CrucibleError('bad_request', describeInputFailure(failures[0]!)));
          }
          // Validated by the operation's own schemas above, so the casts only restate them.
          return operation.handler({ request, params: params as Record<string, unknown>, query: query as Record<string, unknown>, body, context });
        };
        const body = operation.body;
        const result = body
          ? payForBody(perClient, context.clientIp).then(async (unpaid) =>
              unpaid ? refuse(unpaid) : answer(validate(body.schema, await readJsonBody(request, body.maxBytes, maxDepth), 'body', failures)),
            )
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

type Parsed = JsonBodyRead | { ok: false; reason: InputFailure['reason']; maxDepth?: number };

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

/** A path as error messages show it: long ones cut at 200 characters. */
export function shownPath(path: string): string {
  return path.length > 200 ? `${path.slice(0, 200)}…` : path;
}

function errorText(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
