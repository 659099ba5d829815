import { z } from 'zod';
import { apiErrorBody, apiErrorCodes, type ApiErrorBody, type ApiErrorCode } from '../../api/errors.ts';
import { ErrorBody } from '../../api/schemas.ts';

// NFT endpoints answer failures with the Error body of spec 2.5 (platform §5), so a client reading only
// `error.message` (the incumbent's shape) works. The site's table (src/api/errors.ts) has the codes
// its own API needs; the node's refusals add four, with the same fields.

const nodeErrors = {
  unauthorized: { status: 401, hint: 'Use the key of one of your apps (dashboard, or `npm run apps -- create`), or `demo` to try.' },
  forbidden: { status: 403, hint: "Change the app's allowed networks or domains, or enable it, in the dashboard." },
  rate_limited: { status: 429, hint: 'Wait the seconds the Retry-After header gives, or raise the app’s limits.' },
  upstream_unavailable: { status: 503, hint: 'Retry in a few seconds.' },
} as const;

type NodeErrorCode = keyof typeof nodeErrors;
export type NftErrorCode = ApiErrorCode | NodeErrorCode;
const nftErrorCodes = [...apiErrorCodes, ...(Object.keys(nodeErrors) as NodeErrorCode[])] as [NftErrorCode, ...NftErrorCode[]];

interface NftErrorBody {
  error: Omit<ApiErrorBody['error'], 'code'> & { code: NftErrorCode };
}

/** spec 2.5 with the node's codes. */
export const NftError = z.object({
  error: ErrorBody.shape.error.extend({
    code: z.enum(nftErrorCodes),
    documentation_url: z.url().describe('Where the callable surface is described: this node’s /openapi.json.'),
  }),
});

/** An answer of an NFT endpoint: its HTTP status and JSON body, and for a 429 when to come back. */
export interface NftAnswer {
  status: number;
  body: unknown;
  retryAfterSeconds?: number;
}

/** A failure; `message` is one sentence saying what was wrong. */
export function nftFailure(code: NftErrorCode, message: string, documentationUrl: string, retryAfterSeconds?: number): NftAnswer {
  const body: NftErrorBody = Object.hasOwn(nodeErrors, code)
    ? {
        error: {
          code,
          message,
          hint: nodeErrors[code as NodeErrorCode].hint,
          status: nodeErrors[code as NodeErrorCode].status,
          documentation_url: documentationUrl,
        },
      }
    : (() => {
        const site = apiErrorBody(code as ApiErrorCode, { problem: message, documentationUrl });
        // The site's rows write their own sentence except for bad_request; a node failure says what it knows.
        return { error: { ...site.error, message } };
      })();
  return { status: body.error.status, body, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) };
}
