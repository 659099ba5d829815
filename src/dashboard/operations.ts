import type { ApiOperation, ApiRequest } from '../api/operation.ts';
import { documentationUrlOf } from '../api/openapi.ts';
import { accountOperations } from './account-operations.ts';
import type { DashboardApi } from './api.ts';
import { appOperations } from './app-operations.ts';
import { DashboardError } from '../api/schemas.ts';
import { createOperationContext } from './operation-context.ts';
import { AccountToken, Account, App } from './schemas.ts';
import { tokenOperations } from './token-operations.ts';

// The developer dashboard's JSON endpoints under /api/dashboard/ (docs/dashboard.md#endpoints), all in
// /openapi.json under the tag Dashboard; and the session a webhook API call may carry instead of
// X-Crucible-Token.

/** Named schemas for the OpenAPI document's components (each used in more than one place). */
export const dashboardComponentSchemas = { DashboardAccount: Account, DashboardApp: App, AccountToken, DashboardError };

export const dashboardTag = {
  name: 'Dashboard',
  description:
    'The developer dashboard’s data (docs/dashboard.md#endpoints): accounts and sessions (cookies), apps and keys, usage, auth tokens. Every POST, PATCH, PUT and DELETE needs X-CSRF-Token equal to the CSRF cookie (GET /api/dashboard/session sets it).',
};

export interface DashboardEndpoints {
  operations: ApiOperation[];
  /**
   * The owner a request's dashboard session names, for the webhook API: null without a live
   * session; a refusal (403 `csrf_failed`) when an unsafe request fails the CSRF check.
   */
  sessionOwner(request: ApiRequest): Promise<{ ownerId: string } | { refused: Response } | null>;
}

/** `api` null: described only (the document the build writes). */
export function dashboardEndpoints(origin: string, api: DashboardApi | null): DashboardEndpoints {
  const dashboard = createOperationContext(documentationUrlOf(origin), api);
  return {
    operations: [...accountOperations(dashboard), ...appOperations(dashboard), ...tokenOperations(dashboard)],
    async sessionOwner(request) {
      const guard = dashboard.guard();
      if (!guard.carriesSession(request)) return null;
      const admission = await guard.admit(request);
      if (!admission.ok) return { refused: admission.response };
      const signedIn = admission.visitor.signedIn;
      return signedIn ? { ownerId: signedIn.account.id } : null;
    },
  };
}
