import { buildOpenApiDocument } from '../api/openapi.ts';
import type { DescribedOperation } from '../api/operation.ts';
import type { RestProduct } from './operation.ts';

// The keyed REST operations as the OpenAPI documents describe them, from their entries: each path
// of an entry is one operation. The site's products are part of the site's /openapi.json
// (src/runtime/site-api.ts); the node's make each network's `{node_url}/openapi.json`.

// biome-ignore lint/suspicious/noExplicitAny: a list of products of any services.
type AnyProduct = RestProduct<any>;

export function describedOperations(product: AnyProduct): DescribedOperation[] {
  return product.operations.flatMap((operation) =>
    operation.paths.map(
      ({ path, operationId }): DescribedOperation => ({
        operationId,
        method: operation.method,
        path,
        summary: operation.summary,
        description: operation.description,
        tags: operation.tags,
        params: product.apiKey,
        ...(operation.query && { query: operation.query }),
        ...(operation.body && { body: { schema: operation.body.schema } }),
        responses: operation.responses,
      }),
    ),
  );
}

/** `{node_url}/openapi.json` of one network: the node products' operations, with the node as the server. */
export function nodeOpenApiDocument(
  products: readonly AnyProduct[],
  options: { nodeUrl: string; networkName: string; siteOrigin: string },
): Record<string, unknown> {
  const documented = products.filter((product) => product.nodeDocument);
  const [first] = documented;
  if (!first?.nodeDocument) throw new Error('no product under {node_url} has a document');
  const document = buildOpenApiDocument({
    origin: options.siteOrigin,
    components: Object.assign({}, ...documented.map((product) => product.nodeDocument!.components)),
    operations: documented.flatMap(describedOperations),
    tags: documented.flatMap((product) => product.nodeDocument!.tags),
    description: first.nodeDocument.description(options.networkName),
  });
  const info = document.info as Record<string, unknown>;
  return { ...document, info: { ...info, title: first.nodeDocument.title(options.networkName) }, servers: [{ url: options.nodeUrl }] };
}
