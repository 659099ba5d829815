import type { z } from 'zod';
import type { ResponseSpec } from '../api/operation.ts';

// A keyed REST operation is one entry: where it answers, what it takes (zod schemas), what it
// costs, what it does and how the documents describe it. The door (./door.ts) validates, admits,
// charges, runs and meters from the entry; the OpenAPI documents (./openapi.ts) are written from
// the same entries. A product is a set of entries with what they share: where they are mounted,
// how their queries are read, what their key is and where their failures point.

/** What a handler is given: the validated query and body, the network it was called on (null off `{node_url}`), and who called. */
interface RestInput<Q, B> {
  query: Q;
  body: B;
  network: string | null;
  /** The caller's app (null for the demo key) and client address, for what a product records per caller. */
  caller: { appId: string | null; clientIp: string | null };
}

export interface RestOperation<S = never, Q extends z.ZodObject = z.ZodObject, B extends z.ZodType = z.ZodType> {
  operationId: string;
  method: 'GET' | 'POST';
  /**
   * Where it answers under its product's mount (`{apiKey}` where the key goes), each with the
   * operationId the documents give that path (an operation served under two prefixes is two
   * operations there).
   */
  paths: ReadonlyArray<{ path: string; operationId: string }>;
  summary: string;
  description: string;
  tags: string[];
  query?: Q;
  body?: { schema: B; maxBytes: number };
  /** Taken from the caller's rate and monthly quota once its inputs are valid (docs/keys-and-limits.md#compute-units). */
  computeUnits: number;
  /** The method usage records and metrics name it by; default the operationId. */
  meteredAs?: string;
  /** The documents' responses: the answer and the refusals, by status. */
  responses: Record<number, ResponseSpec>;
  /** The answer's body (200); a refusal is a thrown CrucibleError (src/errors/). */
  handler(input: RestInput<z.output<Q>, z.output<B>>, services: S): Promise<unknown>;
}

export interface RestProduct<S> {
  name: string;
  /** Where its paths are: below each network's `{node_url}`, or on the site (`prefix` is then the paths' common start). */
  mount: { at: 'node' } | { at: 'site'; prefix: string };
  /**
   * How a query string becomes the query schema's input (./query.ts): `sdk` as alchemy-sdk sends
   * it (`name[]=` lists, a name given twice refused), `plain` as the site API reads it.
   */
  queryStyle: 'sdk' | 'plain';
  /** The buckets and usage records its calls count under: the network called, or the product's own name (prices belong to no network). */
  scope: { network: true } | { name: string };
  /** The `{apiKey}` path parameter as the documents describe it. */
  apiKey: z.ZodObject<{ apiKey: z.ZodType<string> }>;
  /** What its 500 says. */
  internalErrorMessage?: string;
  operations: ReadonlyArray<RestOperation<S>>;
  /** A node product's part of `{node_url}/openapi.json` (./openapi.ts); a site product's operations are in the site's /openapi.json. */
  nodeDocument?: {
    title(networkName: string): string;
    description(networkName: string): string;
    tags: Array<{ name: string; description: string }>;
    /** Named schemas (`#/components/schemas/<name>`). */
    components: Record<string, z.ZodType>;
  };
}

/** Keeps an entry's handler typed by its schemas where it is written. */
export function defineRestOperation<S, Q extends z.ZodObject = z.ZodObject, B extends z.ZodType = z.ZodUndefined>(
  operation: RestOperation<S, Q, B>,
): RestOperation<S> {
  return operation as unknown as RestOperation<S>;
}
