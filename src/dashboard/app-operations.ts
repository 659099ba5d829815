import { z } from 'zod';
import type { App as AppRecord } from '../apps/app.ts';
import { AppNotFoundError } from '../apps/errors.ts';
import { defineOperation, type ApiOperation } from '../api/operation.ts';
import { dashboardErrorSpecs, REFUSED } from './errors.ts';
import type { OperationContext } from './operation-context.ts';
import { AppChange, AppKey, AppList, AppWithKey, KeyRotation, NetworkList, NewApp, OneApp, Usage, UsageQuery } from './schemas.ts';
import { readAppUsage } from './usage.ts';
import { appView } from './views.ts';

// An account's apps under /api/dashboard/ (docs/dashboard.md#apps-in-the-dashboard): the networks they may use, the list,
// create, read, change (refused over a newer version), delete, the key shown again, rotation and
// usage. The apps are the rows the CLI (`npm run apps`) manages; another account's app answers 404
// exactly as a missing one.

const BODY_MAX_BYTES = 64 * 1024;
const tags = ['Dashboard'];
const csrf = 'Needs a session and X-CSRF-Token (a state change).';
const session = 'Needs a session.';

const AppParams = z.object({ appId: z.string().min(1).max(100).describe('The app’s id.') });

export function appOperations(dashboard: OperationContext): ApiOperation[] {
  const now = () => (dashboard.api().now ?? Date.now)();
  /** The account's app, or AppNotFoundError: another account's is no different from none. */
  const owned = async (ownerId: string, appId: string): Promise<AppRecord> => {
    const app = await dashboard
      .api()
      .apps.get(appId)
      .catch((error: unknown) => {
        if (error instanceof AppNotFoundError) return null;
        throw error;
      });
    if (app?.ownerId !== ownerId) throw new AppNotFoundError(appId);
    return app;
  };
  const view = (app: AppRecord) => appView(app, dashboard.api().networks);

  const missing = ['not_found', 'the account has no app with this id.'] as const;

  return [
    defineOperation({
      operationId: 'listDashboardNetworks',
      method: 'GET',
      path: '/api/dashboard/networks',
      summary: 'The networks an app may use',
      description: `Each with its \`{node_url}\`. ${session}`,
      tags,
      responses: { 200: { description: 'Every network.', content: { 'application/json': NetworkList } }, ...dashboardErrorSpecs([REFUSED.unauthorized]) },
      invalid: dashboard.invalid('accounts'),
      handler: ({ request }) => dashboard.forAccount(request, async () => dashboard.json({ networks: dashboard.api().networks })),
    }),
    defineOperation({
      operationId: 'listDashboardApps',
      method: 'GET',
      path: '/api/dashboard/apps',
      summary: 'The account’s apps',
      description: `Newest first, with the most apps the account may have. ${session}`,
      tags,
      responses: { 200: { description: 'The apps.', content: { 'application/json': AppList } }, ...dashboardErrorSpecs([REFUSED.unauthorized]) },
      invalid: dashboard.invalid('accounts'),
      handler: ({ request }) =>
        dashboard.forAccount(request, async ({ account }) =>
          dashboard.json({ apps: (await dashboard.api().apps.listByOwner(account.id)).map(view), maxApps: dashboard.api().maxAppsPerAccount }),
        ),
    }),
    defineOperation({
      operationId: 'createDashboardApp',
      method: 'POST',
      path: '/api/dashboard/apps',
      summary: 'Create an app',
      description: `With the default rate and monthly quota. Answers its key, which can be shown again later. An account may have at most 20 apps by default (DASHBOARD_APPS_PER_ACCOUNT; \`maxApps\` of the list says how many): one more answers 409 \`limit_reached\`. ${csrf}`,
      tags,
      body: { schema: NewApp, maxBytes: BODY_MAX_BYTES },
      responses: {
        201: { description: 'The app and its key.', content: { 'application/json': AppWithKey } },
        ...dashboardErrorSpecs([
          REFUSED.invalid,
          REFUSED.unauthorized,
          REFUSED.forged,
          ['limit_reached', 'the account has as many apps as it may: `limit` names the cap (`appsPerAccount`) and its value.'],
        ]),
      },
      invalid: dashboard.invalid('accounts'),
      handler: ({ request, body }) =>
        dashboard.forAccount(request, async ({ account }) => {
          const { app, key } = await dashboard.api().apps.create({ ...body, ownerId: account.id }, { maxPerOwner: dashboard.api().maxAppsPerAccount });
          return dashboard.json({ app: view(app), key }, { status: 201 });
        }),
    }),
    defineOperation({
      operationId: 'getDashboardApp',
      method: 'GET',
      path: '/api/dashboard/apps/{appId}',
      summary: 'One app',
      description: session,
      tags,
      params: AppParams,
      responses: { 200: { description: 'The app.', content: { 'application/json': OneApp } }, ...dashboardErrorSpecs([REFUSED.unauthorized, missing]) },
      invalid: dashboard.invalid('accounts'),
      handler: ({ request, params }) =>
        dashboard.forAccount(request, async ({ account }) => dashboard.json({ app: view(await owned(account.id, params.appId)) })),
    }),
    defineOperation({
      operationId: 'changeDashboardApp',
      method: 'PATCH',
      path: '/api/dashboard/apps/{appId}',
      summary: 'Change an app’s name, networks, domains or state',
      description: `Only if the app is still at \`version\`: a form saved over a newer version (another tab, the CLI) is refused with 409 \`stale_version\` and changes nothing. ${csrf}`,
      tags,
      params: AppParams,
      body: { schema: AppChange, maxBytes: BODY_MAX_BYTES },
      responses: {
        200: { description: 'The app as changed.', content: { 'application/json': OneApp } },
        ...dashboardErrorSpecs([
          REFUSED.invalid,
          REFUSED.unauthorized,
          REFUSED.forged,
          missing,
          ['stale_version', 'the app changed since `version`: read it again.'],
        ]),
      },
      invalid: dashboard.invalid('accounts'),
      handler: ({ request, params, body }) =>
        dashboard.forAccount(request, async ({ account }) => {
          await owned(account.id, params.appId);
          const { version, ...change } = body;
          const app = await dashboard.api().apps.update(params.appId, change, version);
          if (change.state !== undefined) dashboard.api().keysChanged?.();
          return dashboard.json({ app: view(app) });
        }),
    }),
    defineOperation({
      operationId: 'deleteDashboardApp',
      method: 'DELETE',
      path: '/api/dashboard/apps/{appId}',
      summary: 'Delete an app',
      description: `Its key stops working. ${csrf}`,
      tags,
      params: AppParams,
      responses: { 204: { description: 'Deleted.' }, ...dashboardErrorSpecs([REFUSED.unauthorized, REFUSED.forged, missing]) },
      invalid: dashboard.invalid('accounts'),
      handler: ({ request, params }) =>
        dashboard.forAccount(request, async ({ account }) => {
          await owned(account.id, params.appId);
          await dashboard.api().apps.delete(params.appId);
          dashboard.api().keysChanged?.();
          return dashboard.noContent();
        }),
    }),
    defineOperation({
      operationId: 'showDashboardAppKey',
      method: 'POST',
      path: '/api/dashboard/apps/{appId}/key',
      summary: 'Show an app’s key again',
      description: `A POST, so that no cache keeps the key and a page of another site cannot ask for it. ${csrf}`,
      tags,
      params: AppParams,
      responses: {
        200: { description: 'The key.', content: { 'application/json': AppKey } },
        ...dashboardErrorSpecs([REFUSED.unauthorized, REFUSED.forged, missing]),
      },
      invalid: dashboard.invalid('accounts'),
      handler: ({ request, params }) =>
        dashboard.forAccount(request, async ({ account }) => {
          await owned(account.id, params.appId);
          return dashboard.json({ key: await dashboard.api().apps.revealKey(params.appId) });
        }),
    }),
    defineOperation({
      operationId: 'rotateDashboardAppKey',
      method: 'POST',
      path: '/api/dashboard/apps/{appId}/rotate',
      summary: 'Rotate an app’s key',
      description: `A new key; the old one stops working at once, or after \`graceSeconds\`. ${csrf}`,
      tags,
      params: AppParams,
      body: { schema: KeyRotation, maxBytes: BODY_MAX_BYTES },
      responses: {
        200: { description: 'The app and its new key.', content: { 'application/json': AppWithKey } },
        ...dashboardErrorSpecs([REFUSED.invalid, REFUSED.unauthorized, REFUSED.forged, missing]),
      },
      invalid: dashboard.invalid('accounts'),
      handler: ({ request, params, body }) =>
        dashboard.forAccount(request, async ({ account }) => {
          await owned(account.id, params.appId);
          const { app, key } = await dashboard.api().apps.rotate(params.appId, { graceSeconds: body.graceSeconds ?? 0 });
          dashboard.api().keysChanged?.();
          return dashboard.json({ app: view(app), key });
        }),
    }),
    defineOperation({
      operationId: 'getDashboardAppUsage',
      method: 'GET',
      path: '/api/dashboard/apps/{appId}/usage',
      summary: 'An app’s usage over the last hour, day or month',
      description: `Requests, compute units and errors per bucket, network and method, and errors by code, from the usage meter's stored sums (it stores every few seconds). ${session}`,
      tags,
      params: AppParams,
      query: UsageQuery,
      responses: {
        200: { description: 'The usage.', content: { 'application/json': Usage } },
        ...dashboardErrorSpecs([REFUSED.invalid, REFUSED.unauthorized, missing]),
      },
      invalid: dashboard.invalid('accounts'),
      handler: ({ request, params, query }) =>
        dashboard.forAccount(request, async ({ account }) => {
          await owned(account.id, params.appId);
          return dashboard.json(await readAppUsage(dashboard.api().db, params.appId, query.range, now()));
        }),
    }),
  ] as unknown as ApiOperation[];
}
