import { apiErrorBody, type ApiErrorCode } from '../../api/errors.ts';

// NFT endpoints answer failures with the Error body of spec 2.5 (platform §5), from the site's one
// table of codes (src/api/errors.ts), so a client reading only `error.message` (the incumbent's
// shape) works. Each failure says what it knows in its own sentence.

/** Where a key comes from: the refusal of a missing or unknown one says so. */
const KEY_HINT = 'Use the key of one of your apps (dashboard, or `npm run apps -- create`), or `demo` to try.';

/** An answer of an NFT endpoint: its HTTP status and JSON body, and for a 429 when to come back. */
export interface NftAnswer {
  status: number;
  body: unknown;
  retryAfterSeconds?: number;
}

/** A failure; `message` is one sentence saying what was wrong. */
export function nftFailure(code: ApiErrorCode, message: string, documentationUrl: string, retryAfterSeconds?: number): NftAnswer {
  const body = apiErrorBody(code, { problem: message, documentationUrl, ...(code === 'unauthorized' ? { hint: KEY_HINT } : {}) });
  // The site's rows write their own sentence for 404, 405 and 500; a node failure says what it knows.
  body.error.message = message;
  return { status: body.error.status, body, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) };
}
