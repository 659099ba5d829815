import { z } from 'zod';
import { fail } from '../../errors/crucible-error.ts';
import { errorBodyResponse } from '../../errors/error-body.ts';
import { documentationUrlOf } from '../openapi.ts';
import { defineOperation, type ApiRequest } from '../operation.ts';
import { errorResponseSpec } from '../responses.ts';
import { Locale, SearchIndex } from '../schemas.ts';

/**
 * GET /api/search/{locale} (docs/website.md#search-index). The seven indexes are prerendered files the server
 * answers before the router; a request reaching this handler names no such file.
 */
export function searchOperation(origin: string) {
  const notFound = (request: ApiRequest) =>
    errorBodyResponse(fail('not_found', { method: request.method, path: new URL(request.url).pathname }), documentationUrlOf(origin));
  return defineOperation({
    operationId: 'getSearchIndex',
    method: 'GET',
    path: '/api/search/{locale}',
    summary: 'Search index of one locale',
    description:
      'The whole index of a locale, meant to be fetched once and filtered on the client (docs/website.md#search-index): groups for blog posts, guides, case studies and apps; empty groups are omitted. A prerendered file: cache it.',
    tags: ['Search'],
    params: z.object({ locale: Locale }),
    responses: {
      200: { description: 'The search index.', content: { 'application/json': SearchIndex } },
      304: { description: 'Not modified (If-None-Match matched the ETag).' },
      404: errorResponseSpec('not_found', 'the locale is not one of the seven; there is no fallback to English.'),
    },
    handler: ({ request }) => notFound(request),
    invalid: (_failures, { request }) => notFound(request),
  });
}
