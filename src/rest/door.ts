import type { Admission } from '../admission/admission.ts';
import { callerLabel } from '../admission/admission.ts';
import { payForBody, type BodyBucket } from '../admission/body-bucket.ts';
import { KEYED_CORS_HEADERS } from '../admission/cors.ts';
import { BufferedResponse } from '../api/buffered-response.ts';
import { describeInputFailure } from '../api/input-failure.ts';
import { documentationUrlOf } from '../api/openapi.ts';
import type { ApiRequest, RequestContext } from '../api/operation.ts';
import { shownPath } from '../api/router.ts';
import { CrucibleError, fail } from '../errors/crucible-error.ts';
import { errorBodyResponse } from '../errors/error-body.ts';
import { readJsonBody } from '../http/json-body.ts';
import { DEFAULT_JSON_MAX_DEPTH } from '../http/json-depth.ts';
import { jsonType } from '../http/media.ts';
import type { RestOperation, RestProduct } from './operation.ts';
import { nodeOpenApiDocument } from './openapi.ts';
import { readQuery } from './query.ts';

// The one door of every REST product behind an app key (docs/keys-and-limits.md#admission-order):
// below each network's `{node_url}` (the NFT endpoints and the network's openapi.json) and under a
// site product's prefix (`/prices/`). For a request it finds the entry (404; another method 405),
// takes a body's per-client-IP charge before reading it, admits the key (src/admission/: 401,
// 403), reads and validates the query and body with the entry's schemas (400), charges the
// entry's compute units (429), runs the handler, meters the call, and answers JSON or the Error
// body, with the keyed products' CORS headers on every answer and the preflight answered.

// biome-ignore lint/suspicious/noExplicitAny: products of different services share one door.
type AnyProduct = RestProduct<any>;

/** A product with what its handlers stand on: per network for a node product (null: not on that network, 404), once for a site product. */
export interface MountedProduct {
  product: AnyProduct;
  services(network: string | null): unknown;
}

export function mountProduct<S>(product: RestProduct<S>, services: (network: string | null) => S | null): MountedProduct {
  return { product, services };
}

export interface RestDoorOptions {
  admission: Admission;
  siteOrigin: string;
  /** The networks that have a `{node_url}`, by id. */
  networks: ReadonlyMap<string, { name: string }>;
  nodeUrlOf(network: string): string;
  products: readonly MountedProduct[];
  /** Request bodies' nesting limit (JSON_MAX_DEPTH) and per-client-IP bucket, as the site API's router takes them. */
  bodies?: { jsonMaxDepth?: number; perClient?: BodyBucket };
}

interface RestContext extends RequestContext {
  /** The request's path as received: messages name it. */
  path: string;
  /** Told who the key names once it is known: request logs show the app id, never the key. */
  identified?(caller: string): void;
}

export interface RestDoor {
  /** Whether a site path (percent-decoded) is under a site product's prefix, so the door answers it. */
  answersSitePath(path: string): boolean;
  /** A site product's path: `path` is percent-decoded. */
  handleSite(request: ApiRequest, path: string, context: RestContext): Promise<Response>;
  /** A path below `{node_url}` of `network` that is not the JSON-RPC gateway's. */
  handleNode(request: ApiRequest, at: { network: string; path: string }, context: RestContext): Promise<Response>;
}

interface Route {
  pattern: RegExp;
  operation: RestOperation<unknown>;
}

interface Matched {
  mounted: MountedProduct;
  operation: RestOperation<unknown>;
  key: string;
}

const corsHeaders = KEYED_CORS_HEADERS;

export function createRestDoor(options: RestDoorOptions): RestDoor {
  const { admission } = options;
  const siteDocumentation = documentationUrlOf(options.siteOrigin);
  const maxDepth = options.bodies?.jsonMaxDepth ?? DEFAULT_JSON_MAX_DEPTH;
  const routes = new Map(options.products.map((mounted) => [mounted, compileRoutes(mounted.product)]));
  const at = (where: 'node' | 'site') => options.products.filter((mounted) => mounted.product.mount.at === where);
  const [nodeProducts, siteProducts] = [at('node'), at('site')];
  const sitePrefixes = siteProducts.map((mounted) => (mounted.product.mount as { prefix: string }).prefix);
  const nodeDocuments = new Map<string, Record<string, unknown>>();

  const json = (body: unknown) => new BufferedResponse(JSON.stringify(body), { status: 200, headers: { 'content-type': jsonType, ...corsHeaders } });
  const refuse = (error: CrucibleError, documentationUrl: string) => errorBodyResponse(error, documentationUrl, corsHeaders);
  const preflight = () => new BufferedResponse(null, { status: 204, headers: corsHeaders });
  const noOperation = (request: ApiRequest, context: RestContext) =>
    refuse(fail('not_found', { method: request.method, path: shownPath(context.path) }), siteDocumentation);

  const match = (products: readonly MountedProduct[], path: string): Matched | null => {
    for (const mounted of products) {
      for (const route of routes.get(mounted)!) {
        const found = route.pattern.exec(path);
        if (found) return { mounted, operation: route.operation, key: found[1]! };
      }
    }
    return null;
  };

  /** One operation: paid, admitted, read, charged, run and metered. */
  const serve = async (request: ApiRequest, matched: Matched, network: string | null, services: unknown, context: RestContext): Promise<Response> => {
    const { product } = matched.mounted;
    const { operation } = matched;
    const documentationUrl = network === null ? siteDocumentation : `${options.nodeUrlOf(network)}/openapi.json`;
    const failed = (error: CrucibleError) => refuse(error, documentationUrl);
    if (request.method === 'OPTIONS') return preflight();
    if ((request.method === 'HEAD' ? 'GET' : request.method) !== operation.method) {
      const allow = [...(operation.method === 'GET' ? ['GET', 'HEAD'] : [operation.method]), 'OPTIONS'];
      return failed(fail('method_not_allowed', { method: request.method, path: shownPath(context.path) }, { allow }));
    }
    // Nothing is read for a client before it pays (README, "Security limits").
    if (operation.body) {
      const unpaid = await payForBody(options.bodies?.perClient, context.clientIp);
      if (unpaid) return failed(unpaid);
    }
    const identified = await admission.identify(matched.key, { network: 'network' in product.scope ? network : null, origin: request.headers.get('origin') });
    if (!identified.ok) return failed(identified.error);
    const { caller } = identified;
    context.identified?.(callerLabel(caller));

    let query: unknown = {};
    if (operation.query) {
      const read = readQuery(product.queryStyle, operation.query, URL.parse(request.url)?.search ?? '');
      if (!read.ok) return failed(new CrucibleError('bad_request', read.problem));
      query = read.query;
    }
    let body: unknown;
    if (operation.body) {
      const read = await readJsonBody(request, operation.body.maxBytes, maxDepth);
      if (!read.ok)
        return failed(new CrucibleError('bad_request', describeInputFailure({ part: 'body', reason: read.reason, issues: [], maxDepth: read.maxDepth })));
      const checked = operation.body.schema.safeParse(read.value);
      if (!checked.success) {
        return failed(
          new CrucibleError('bad_request', describeInputFailure({ part: 'body', reason: 'invalid', issues: checked.error.issues, input: read.value })),
        );
      }
      body = checked.data;
    }

    const scope = 'network' in product.scope ? network! : product.scope.name;
    const limited = await admission.charge(caller, scope, operation.computeUnits, context.clientIp);
    if (limited) return failed(limited);
    let response: Response;
    try {
      const who = { appId: caller.kind === 'app' ? caller.app.id : null, clientIp: context.clientIp };
      response = json(await operation.handler({ query: query as never, body, network, caller: who }, services as never));
    } catch (error) {
      if (error instanceof CrucibleError) response = failed(error);
      else {
        // Logged with the request id; the body names no internals.
        context.log.error('unhandled exception in API handler', {
          requestId: context.requestId,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        });
        response = failed(new CrucibleError('internal_error', product.internalErrorMessage));
      }
    }
    admission.meter(caller, scope, operation.meteredAs ?? operation.operationId, operation.computeUnits, response.status === 200 ? null : response.status);
    return response;
  };

  const nodeDocument = (request: ApiRequest, network: string, products: readonly MountedProduct[], context: RestContext): Response => {
    const documentationUrl = `${options.nodeUrlOf(network)}/openapi.json`;
    if (request.method === 'OPTIONS') return preflight();
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      const allow = ['GET', 'HEAD', 'OPTIONS'];
      return refuse(fail('method_not_allowed', { method: request.method, path: shownPath(context.path) }, { allow }), documentationUrl);
    }
    let document = nodeDocuments.get(network);
    if (!document) {
      const { name } = options.networks.get(network)!;
      document = nodeOpenApiDocument(
        products.map((mounted) => mounted.product),
        { nodeUrl: options.nodeUrlOf(network), networkName: name, siteOrigin: options.siteOrigin },
      );
      nodeDocuments.set(network, document);
    }
    return json(document);
  };

  return {
    answersSitePath: (path) => sitePrefixes.some((prefix) => path.startsWith(prefix)),
    async handleSite(request, path, context) {
      const matched = match(siteProducts, path);
      if (!matched) return noOperation(request, context);
      return serve(request, matched, null, matched.mounted.services(null), context);
    },
    async handleNode(request, { network, path }, context) {
      if (!options.networks.has(network)) return noOperation(request, context);
      const here = nodeProducts.filter((mounted) => mounted.services(network) !== null);
      if (here.length === 0) return noOperation(request, context);
      if (path === '/openapi.json') return nodeDocument(request, network, here, context);
      const matched = match(here, path);
      if (!matched) return noOperation(request, context);
      return serve(request, matched, network, matched.mounted.services(network), context);
    },
  };
}

/** Each path of each entry as a pattern whose first group is the key. */
function compileRoutes(product: AnyProduct): Route[] {
  return product.operations.flatMap((operation) =>
    operation.paths.map(({ path }) => {
      const [before, after] = path.split('{apiKey}');
      if (after === undefined) throw new Error(`${product.name} ${operation.operationId}: ${path} has no {apiKey}`);
      // A client `url` ending in `/` makes alchemy-sdk ask `<url>//<method>`: the slashes after the key are one.
      const rest = after.startsWith('/') ? `/+${escapeRegExp(after.slice(1))}` : escapeRegExp(after);
      return { pattern: new RegExp(`^${escapeRegExp(before!)}([^/]*)${rest}$`), operation };
    }),
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&');
}
