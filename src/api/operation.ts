import type { z } from 'zod';

// An operation is one method + path template of the public surface, with the zod schemas of
// its inputs and responses. The router (src/api/router.ts) serves the ones that have a
// handler; src/api/openapi.ts describes all of them, including the prerendered files.

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The parts of a web Request the router and handlers use. A real Request fits (tests, any
 * fetch-style host); the Node adapter passes just these without constructing a Request, which
 * measured as the largest single cost of an /api request (BENCHMARKS.md, Server).
 */
export type ApiRequest = Pick<Request, 'method' | 'url' | 'headers' | 'body'>;

export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** What the server knows about a request beyond the Request itself. */
export interface RequestContext {
  requestId: string;
  /** The caller's address under the configured proxy trust (docs/website.md#client-ip); null when unknown. */
  clientIp: string | null;
  log: Logger;
}

export interface ResponseSpec {
  description: string;
  /** Media type -> body schema (`undefined` for a body the document does not shape, e.g. HTML). */
  content?: Record<string, z.ZodType | undefined>;
  headers?: Record<string, { description: string; schema: z.ZodType }>;
}

/** Fields every described operation has, served by the router or prerendered into dist/. */
export interface DescribedOperation {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI path template, e.g. `/api/faucets/{faucetId}/send`. */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: { schema: z.ZodType; description?: string };
  responses: Record<number, ResponseSpec>;
}

/** Why the router could not hand an operation its inputs. */
export interface InputFailure {
  part: 'params' | 'query' | 'body';
  /** `too_deep`: the body nests deeper than `maxDepth`, refused before it was parsed. */
  reason: 'unparseable' | 'too_large' | 'too_deep' | 'unsupported_media_type' | 'invalid';
  /** zod issues when `reason` is `invalid`. */
  issues: z.core.$ZodIssue[];
  /** The parsed value that failed validation (`invalid` only), for operations that branch on it. */
  input?: unknown;
  /** The nesting limit a `too_deep` body passed (JSON_MAX_DEPTH). */
  maxDepth?: number;
}

export interface OperationInput<P, Q, B> {
  request: ApiRequest;
  params: P;
  query: Q;
  body: B;
  context: RequestContext;
}

export interface ApiOperation<P extends z.ZodObject = z.ZodObject, Q extends z.ZodObject = z.ZodObject, B extends z.ZodType = z.ZodType>
  extends DescribedOperation {
  params?: P;
  query?: Q;
  body?: { schema: B; description?: string; maxBytes: number };
  handler(input: OperationInput<z.output<P>, z.output<Q>, z.output<B>>): Response | Promise<Response>;
  /**
   * Answers a request whose inputs failed to parse or validate, for operations with a richer
   * error shape than Error (the faucet's FaucetError). Without it the router answers 400
   * `bad_request`. Receives every failure so the operation can pick by its own precedence.
   */
  invalid?(failures: InputFailure[], input: { request: ApiRequest; context: RequestContext }): Response | Promise<Response>;
}

/** Keeps the handler's input types tied to the schemas at the definition site. */
/** An operation with no path parameters or no query: an object schema with no keys. */
type NoFields = z.ZodObject<Record<never, never>>;

export function defineOperation<P extends z.ZodObject = NoFields, Q extends z.ZodObject = NoFields, B extends z.ZodType = z.ZodUndefined>(
  operation: ApiOperation<P, Q, B>,
): ApiOperation<P, Q, B> {
  return operation;
}
