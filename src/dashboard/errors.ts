import { z } from 'zod';
import { BufferedResponse } from '../api/buffered-response.ts';
import { ACCOUNT_LIMITS } from '../apps/errors.ts';
import type { ResponseSpec } from '../api/operation.ts';
import { jsonType } from '../http/media.ts';

// The dashboard's failures: the Error body of spec 2.5, as the rest of the site API answers it,
// with its own codes and `field` naming the input at fault, so a page shows the sentence next to
// that field. Every answer says what happened in `message`; no stack trace or internal name.

const dashboardErrors = {
  invalid_input: { status: 400, hint: 'Correct the field the error names and send it again.' },
  unauthorized: { status: 401, hint: 'Sign in at /dashboard/sign-in/ and try again.' },
  wrong_credentials: { status: 401, hint: 'Check the email and password, or create an account at /dashboard/sign-up/.' },
  csrf_failed: { status: 403, hint: 'Reload the page and try again: state changes need X-CSRF-Token equal to the CSRF cookie, from this site.' },
  not_found: { status: 404, hint: 'Reload the list: it may have been deleted.' },
  email_taken: { status: 409, hint: 'Sign in at /dashboard/sign-in/ instead.' },
  stale_version: { status: 409, hint: 'Reload the app to see the newer version, then make the change again.' },
  limit_reached: { status: 409, hint: 'Delete one you no longer need to make room, or ask the operator to raise the limit (`limit.name`).' },
  rate_limited: { status: 429, hint: 'Wait the seconds the Retry-After header gives.' },
  server_busy: { status: 503, hint: 'Try again in the seconds the Retry-After header gives.' },
  internal_error: { status: 500, hint: 'Retry in a moment; if it keeps failing, report the X-Request-Id response header to the Crucible team.' },
} as const satisfies Record<string, { status: number; hint: string }>;

export type DashboardErrorCode = keyof typeof dashboardErrors;

/** A cap an account reached (409 `limit_reached`): its name as the docs give it, and its value. */
export const ReachedLimit = z
  .object({
    name: z.enum(ACCOUNT_LIMITS).describe('appsPerAccount: DASHBOARD_APPS_PER_ACCOUNT; webhooksPerAccount: WEBHOOKS_PER_ACCOUNT.'),
    max: z.int().min(1).describe('How many one account may have.'),
  })
  .describe('On 409 `limit_reached`, the cap the account reached.');

export const DashboardError = z.object({
  error: z.object({
    code: z.enum(Object.keys(dashboardErrors) as [DashboardErrorCode, ...DashboardErrorCode[]]),
    message: z.string().describe('One sentence on what went wrong, for a person.'),
    hint: z.string().describe('Concrete next step.'),
    status: z.int().describe('The HTTP status, repeated.'),
    documentation_url: z.url().describe('Where the callable surface is described.'),
    field: z.string().optional().describe('The input at fault (`email`, `allowedDomains`, …): the page shows `message` next to it.'),
    limit: ReachedLimit.optional(),
  }),
});

export interface DashboardFailure {
  code: DashboardErrorCode;
  message: string;
  field?: string;
  limit?: z.infer<typeof ReachedLimit>;
  retryAfterSeconds?: number;
}

/** The Error response of a failure: JSON, never stored, Retry-After on 429 and 503. */
export function dashboardErrorResponse(failure: DashboardFailure, documentationUrl: string): Response {
  const row = dashboardErrors[failure.code];
  const body = {
    error: {
      code: failure.code,
      message: failure.message,
      hint: row.hint,
      status: row.status,
      documentation_url: documentationUrl,
      ...(failure.field !== undefined && { field: failure.field }),
      ...(failure.limit !== undefined && { limit: failure.limit }),
    },
  };
  const headers: Record<string, string> = { 'content-type': jsonType, 'cache-control': 'no-store' };
  if (failure.retryAfterSeconds !== undefined) headers['retry-after'] = String(failure.retryAfterSeconds);
  return new BufferedResponse(JSON.stringify(body), { status: row.status, headers });
}

const RetryAfter = z.int().min(1);

/** The refusals most operations share, as dashboardErrorSpecs takes them. */
export const REFUSED = {
  invalid: ['invalid_input', 'an input is invalid: `field` names it and `message` says why.'],
  unauthorized: ['unauthorized', 'no session: sign in first.'],
  forged: ['csrf_failed', 'the CSRF check failed: no X-CSRF-Token, one that does not match, or a request from another site.'],
  busy: ['server_busy', 'too many passwords are being checked at once: try again after Retry-After.'],
} as const satisfies Record<string, readonly [DashboardErrorCode, string]>;

/**
 * The OpenAPI responses of these failures and of `internal_error`, by status (codes of one status
 * share it); 429 and 503 with their Retry-After.
 */
export function dashboardErrorSpecs(failures: ReadonlyArray<readonly [DashboardErrorCode, string]>): Record<number, ResponseSpec> {
  const specs: Record<number, ResponseSpec> = {};
  for (const [code, when] of [...failures, ['internal_error', 'the server failed unexpectedly.'] as const]) {
    const { status } = dashboardErrors[code];
    const line = `\`${code}\` (${status}): ${when}`;
    const spec = (specs[status] ??= { description: '', content: { 'application/json': DashboardError } });
    spec.description = spec.description ? `${spec.description} ${line}` : line;
    if (code === 'rate_limited') spec.headers = { 'retry-after': { description: 'Seconds until an attempt is counted again.', schema: RetryAfter } };
    if (code === 'server_busy') spec.headers = { 'retry-after': { description: 'Seconds to wait before trying again.', schema: RetryAfter } };
  }
  return specs;
}
