import { z } from 'zod';
import { defineOperation, type ApiOperation } from '../operation.ts';
import { errorResponseSpec } from '../responses.ts';

// GET /openapi.json and /api/openapi.json (docs/website.md#openapi-document). Everything the document says is known at
// build, so the build writes it into dist/ (integrations/surface/openapi.ts) and the server
// answers with that file; the router keeps the operations for their other methods (405).

/** Where the document is served. */
export const openApiDocumentPaths = ['/openapi.json', '/api/openapi.json'] as const;

export function openApiOperations(): ApiOperation[] {
  const describe = (operationId: string, path: (typeof openApiDocumentPaths)[number]) =>
    defineOperation({
      operationId,
      method: 'GET',
      path,
      summary: path === '/openapi.json' ? 'This OpenAPI document' : 'This OpenAPI document (under /api/)',
      description: 'OpenAPI 3.1.0, description version 1.0.0, generated from the schemas the server validates with.',
      tags: ['Meta'],
      responses: {
        200: {
          description: 'The OpenAPI document.',
          content: { 'application/json': z.object({ openapi: z.literal('3.1.0') }).loose() },
          headers: { ETag: { description: 'Strong validator of the document.', schema: z.string() } },
        },
        304: { description: 'Not modified (If-None-Match matched the ETag).' },
        500: errorResponseSpec('internal_error', 'the server failed unexpectedly.'),
      },
      // The server answers GET and HEAD from dist/ before routing; reaching here means the build wrote no document.
      handler: () => {
        throw new Error(`dist/ holds no ${path}: rebuild the site (npm run build)`);
      },
    });
  return [describe('getOpenApiDocument', '/openapi.json'), describe('getOpenApiDocumentUnderApi', '/api/openapi.json')];
}
