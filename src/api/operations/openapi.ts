import { z } from 'zod';
import { jsonType } from '../../http/media.ts';
import { BufferedResponse } from '../buffered-response.ts';
import { matchesEtag, strongEtag } from '../etag.ts';
import { defineOperation, type ApiOperation } from '../operation.ts';
import { errorResponseSpec } from '../responses.ts';

// GET /openapi.json and /api/openapi.json (spec 4.5): the document, generated once.

export interface ServedDocument {
  body: string;
  etag: string;
}

export function serveDocument(document: unknown): ServedDocument {
  const body = JSON.stringify(document);
  return { body, etag: strongEtag(body) };
}

export function openApiOperations(document: () => ServedDocument): ApiOperation[] {
  const describe = (operationId: string, path: string) =>
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
      handler: ({ request }) => {
        const { body, etag } = document();
        const headers = { etag, 'cache-control': 'public, max-age=300', 'content-type': jsonType };
        if (matchesEtag(request.headers.get('if-none-match'), etag)) return new BufferedResponse(null, { status: 304, headers });
        return new BufferedResponse(body, { headers });
      },
    });
  return [describe('getOpenApiDocument', '/openapi.json'), describe('getOpenApiDocumentUnderApi', '/api/openapi.json')];
}
