import { defineOperation } from '../operation.ts';
import { errorResponseSpec, jsonResponse } from '../responses.ts';
import { ClientIp } from '../schemas.ts';

/** GET /api/ip (docs/website.md#client-ip): the caller's address as the trusted edge saw it. */
export const ipOperation = defineOperation({
  operationId: 'getClientIp',
  method: 'GET',
  path: '/api/ip',
  summary: "Echo the caller's IP address",
  description:
    'The address the edge saw for this request. Taken from the TCP peer unless the server is configured to trust a proxy header (CF-Connecting-IP or X-Forwarded-For); a client-supplied header is never trusted otherwise.',
  tags: ['Utility'],
  responses: {
    200: {
      description: 'The address, or null when the edge supplied none. Never cached (`Cache-Control: no-store`).',
      content: { 'application/json': ClientIp },
    },
    500: errorResponseSpec('internal_error', 'the server failed unexpectedly.'),
  },
  handler: ({ context }) => jsonResponse({ ipAddress: context.clientIp } satisfies ClientIp, { headers: { 'cache-control': 'no-store' } }),
});
