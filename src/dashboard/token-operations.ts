import { z } from 'zod';
import { defineOperation, type ApiOperation } from '../api/operation.ts';
import { NotFoundError } from '../accounts/errors.ts';
import { dashboardErrorSpecs, REFUSED } from './errors.ts';
import type { OperationContext } from './operation-context.ts';
import { CreatedToken, NewToken, TokenList } from './schemas.ts';
import { tokenView } from './views.ts';

// The account's auth tokens for the webhook API (docs/webhooks.md#authentication, `X-Crucible-Token`): list, create
// (the secret is shown once) and revoke. Another account's token answers 404 as a missing one.

const tags = ['Dashboard'];
const TokenParams = z.object({ tokenId: z.string().min(1).max(100).describe('The token’s id.') });

export function tokenOperations(dashboard: OperationContext): ApiOperation[] {
  return [
    defineOperation({
      operationId: 'listAccountTokens',
      method: 'GET',
      path: '/api/dashboard/tokens',
      summary: 'The account’s auth tokens',
      description: 'Never their secrets. Needs a session.',
      tags,
      responses: { 200: { description: 'The tokens.', content: { 'application/json': TokenList } }, ...dashboardErrorSpecs([REFUSED.unauthorized]) },
      invalid: dashboard.invalid('accounts'),
      handler: ({ request }) =>
        dashboard.forAccount(request, async ({ account }) => dashboard.json({ tokens: (await dashboard.api().tokens.list(account.id)).map(tokenView) })),
    }),
    defineOperation({
      operationId: 'createAccountToken',
      method: 'POST',
      path: '/api/dashboard/tokens',
      summary: 'Create an auth token for the webhook API',
      description: 'The secret is answered this once. Needs a session and X-CSRF-Token (a state change).',
      tags,
      body: { schema: NewToken, maxBytes: 16 * 1024 },
      responses: {
        201: { description: 'The token and its secret.', content: { 'application/json': CreatedToken } },
        ...dashboardErrorSpecs([['invalid_input', 'the name is too long.'], REFUSED.unauthorized, REFUSED.forged]),
      },
      invalid: dashboard.invalid('accounts'),
      handler: ({ request, body }) =>
        dashboard.forAccount(request, async ({ account }) => {
          const { token, secret } = await dashboard.api().tokens.create({ ownerId: account.id, name: body.name ?? null });
          return dashboard.json({ token: tokenView(token), secret }, { status: 201 });
        }),
    }),
    defineOperation({
      operationId: 'revokeAccountToken',
      method: 'DELETE',
      path: '/api/dashboard/tokens/{tokenId}',
      summary: 'Revoke an auth token',
      description: 'It stops working at once; revoking it again does nothing. Needs a session and X-CSRF-Token (a state change).',
      tags,
      params: TokenParams,
      responses: {
        204: { description: 'Revoked.' },
        ...dashboardErrorSpecs([REFUSED.unauthorized, REFUSED.forged, ['not_found', 'the account has no token with this id.']]),
      },
      invalid: dashboard.invalid('accounts'),
      handler: ({ request, params }) =>
        dashboard.forAccount(request, async ({ account }) => {
          const { tokens } = dashboard.api();
          if (!(await tokens.list(account.id)).some((token) => token.id === params.tokenId)) throw new NotFoundError('token', params.tokenId);
          await tokens.revoke(params.tokenId);
          return dashboard.noContent();
        }),
    }),
  ] as unknown as ApiOperation[];
}
