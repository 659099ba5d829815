import { z } from 'zod';
import type { ResponseSpec } from '../api/operation.ts';
import { DashboardError, type ReachedLimit } from '../api/schemas.ts';
import { errorCodes, type DashboardCode } from '../errors/codes.ts';
import { CrucibleError } from '../errors/crucible-error.ts';
import { errorBodyResponse } from '../errors/error-body.ts';

// The dashboard's failures: the Error body (src/errors/error-body.ts), as the rest of the site API
// answers it, with the dashboard's codes and `field` naming the input at fault, so a page shows the
// sentence next to that field. Every answer says what happened in `message`; no stack trace or
// internal name. Codes and statuses are rows of the one error table (src/errors/codes.ts); a few
// codes the site API shares read differently to a person in the dashboard, and take their hints here.

/** The next steps of the codes whose site API hint does not fit the dashboard. */
const DASHBOARD_HINTS: Partial<Record<DashboardErrorCode, string>> = {
  unauthorized: 'Sign in at /dashboard/sign-in/ and try again.',
  not_found: 'Reload the list: it may have been deleted.',
  rate_limited: 'Wait the seconds the Retry-After header gives.',
};

export type DashboardErrorCode = DashboardCode;

/** What a dashboard refusal says; dashboardError makes it the one error. */
export interface DashboardFailure {
  code: DashboardErrorCode;
  message: string;
  field?: string;
  limit?: z.infer<typeof ReachedLimit>;
  retryAfterSeconds?: number;
}

function dashboardError(failure: DashboardFailure): CrucibleError {
  const hint = DASHBOARD_HINTS[failure.code];
  return new CrucibleError(failure.code, failure.message, {
    ...(hint !== undefined && { hint }),
    ...(failure.field !== undefined && { field: failure.field }),
    ...(failure.limit !== undefined && { members: { limit: failure.limit } }),
    ...(failure.retryAfterSeconds !== undefined && { retryAfterSeconds: failure.retryAfterSeconds }),
  });
}

/** The Error response of a failure: JSON, never stored, Retry-After on 429 and 503. */
export function dashboardErrorResponse(failure: DashboardFailure, documentationUrl: string): Response {
  return errorBodyResponse(dashboardError(failure), documentationUrl);
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
    const { status } = errorCodes[code];
    const line = `\`${code}\` (${status}): ${when}`;
    const spec = (specs[status] ??= { description: '', content: { 'application/json': DashboardError } });
    spec.description = spec.description ? `${spec.description} ${line}` : line;
    if (code === 'rate_limited') spec.headers = { 'retry-after': { description: 'Seconds until an attempt is counted again.', schema: RetryAfter } };
    if (code === 'server_busy') spec.headers = { 'retry-after': { description: 'Seconds to wait before trying again.', schema: RetryAfter } };
  }
  return specs;
}
