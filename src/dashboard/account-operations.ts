import type { Account } from '../accounts/account.ts';
import { newSecretToken } from '../accounts/sessions.ts';
import { defineOperation, type ApiOperation, type RequestContext } from '../api/operation.ts';
import { dashboardErrorSpecs, REFUSED } from './errors.ts';
import type { OperationContext, SignedIn as SignedInCaller } from './operation-context.ts';
import type { Visitor } from './guard.ts';
import { Credentials, PasswordChange, SessionState, SignedIn } from './schemas.ts';
import { accountView } from './views.ts';

// Accounts under /api/dashboard/ (docs/dashboard.md#endpoints): the session, sign-up, sign-in, sign-out (here and
// everywhere) and the password. Signing in always issues a new session and CSRF token, and ends
// the session the request carried, so a session id planted before sign-in is worth nothing.
// Sign-up, sign-in and a password change count against their limits (src/accounts/attempt-limits.ts)
// before any password is hashed.

const BODY_MAX_BYTES = 16 * 1024;
const CSRF_SHAPE = /^[A-Za-z0-9_-]{43}$/;
/** Expired sessions of every account are swept at most this often, by a sign-in. */
const SWEEP_EVERY_MS = 3_600_000;

const tags = ['Dashboard'];
const csrf = 'A state change: send X-CSRF-Token equal to the CSRF cookie (and to the session’s token when signed in), from this site’s pages.';

export function accountOperations(dashboard: OperationContext): ApiOperation[] {
  const now = () => (dashboard.api().now ?? Date.now)();
  let sweptAt = 0;

  /** A new session for `account` in place of the one the request carried: its cookies and CSRF token. */
  const startSession = async (account: Account, visitor: Visitor, context: RequestContext) => {
    const { sessions } = dashboard.api();
    if (visitor.signedIn) await sessions.end(visitor.signedIn.session.idHash);
    if (now() - sweptAt >= SWEEP_EVERY_MS) {
      sweptAt = now();
      await sessions.sweep().catch((error: unknown) => context.log.error('sweeping expired sessions failed', { error: String(error) }));
    }
    const { token, session } = await sessions.start(account.id);
    return { csrfToken: session.csrfToken, cookies: dashboard.guard().sessionCookies(token, session.csrfToken) };
  };
  const signedIn = async (account: Account, visitor: Visitor, context: RequestContext, status: number) => {
    const { csrfToken, cookies } = await startSession(account, visitor, context);
    return dashboard.json({ account: accountView(account), csrfToken }, { status, cookies });
  };
  /** 429 for too many attempts of one kind (`Too many sign-in attempts`, `Too many sign-ups from this address`). */
  const tooMany = (what: string, retryAfterSeconds: number) =>
    dashboard.fail({
      code: 'rate_limited',
      message: `Too many ${what}. Try again in ${retryAfterSeconds < 120 ? `${retryAfterSeconds} seconds` : `${Math.ceil(retryAfterSeconds / 60)} minutes`}.`,
      retryAfterSeconds,
    });

  /** Ends sessions (`end`) and the caller's cookie. */
  const signOut = (operationId: string, path: string, summary: string, what: string, end: (caller: SignedInCaller) => Promise<void>) =>
    defineOperation({
      operationId,
      method: 'POST',
      path,
      summary,
      description: `${what} ${csrf}`,
      tags,
      responses: { 204: { description: 'Signed out.' }, ...dashboardErrorSpecs([REFUSED.unauthorized, REFUSED.forged]) },
      invalid: dashboard.invalid('accounts'),
      handler: ({ request }) =>
        dashboard.forAccount(request, async (caller) => {
          await end(caller);
          return dashboard.noContent([dashboard.guard().endedSessionCookie()]);
        }),
    });

  return [
    defineOperation({
      operationId: 'getDashboardSession',
      method: 'GET',
      path: '/api/dashboard/session',
      summary: 'The signed-in account and the CSRF token',
      description:
        'Sets the CSRF cookie when it is absent (signed-out visitors get one too: sign-in and sign-up are CSRF-checked) and answers its value with the account, or null when signed out.',
      tags,
      responses: { 200: { description: 'The session.', content: { 'application/json': SessionState } }, ...dashboardErrorSpecs([]) },
      handler: ({ request }) =>
        dashboard.forVisitor(request, async (visitor) => {
          const cookies = visitor.staleSessionCookie ? [dashboard.guard().endedSessionCookie()] : [];
          const held = visitor.cookies.get(dashboard.guard().names.csrf);
          // Signed in, the session's own token; signed out, the cookie's if it is one this site set.
          const csrfToken = visitor.signedIn?.session.csrfToken ?? (held !== undefined && CSRF_SHAPE.test(held) ? held : newSecretToken());
          if (held !== csrfToken) cookies.push(dashboard.guard().csrfCookie(csrfToken));
          return dashboard.json({ account: visitor.signedIn ? accountView(visitor.signedIn.account) : null, csrfToken }, { cookies });
        }),
    }),
    defineOperation({
      operationId: 'signUp',
      method: 'POST',
      path: '/api/dashboard/sign-up',
      summary: 'Create an account and sign in',
      description: `Sets a new session cookie and CSRF cookie. An email that has an account answers 409 (without e-mail delivery there is no way to hide it); sign-ups are limited per client IP (10 per hour by default, DASHBOARD_SIGN_UPS_PER_IP), whatever their outcome, which bounds how fast emails can be tried. ${csrf}`,
      tags,
      body: { schema: Credentials, maxBytes: BODY_MAX_BYTES },
      responses: {
        201: { description: 'The account, signed in.', content: { 'application/json': SignedIn } },
        ...dashboardErrorSpecs([
          REFUSED.invalid,
          REFUSED.forged,
          ['email_taken', 'an account with this email exists: sign in instead.'],
          ['rate_limited', 'too many sign-ups from this address.'],
          REFUSED.busy,
        ]),
      },
      invalid: dashboard.invalid('visitors'),
      handler: ({ request, body, context }) =>
        dashboard.forVisitor(request, async (visitor) => {
          const attempt = await dashboard.api().attemptLimits.signUp(context.clientIp);
          if (!attempt.allowed) return tooMany('sign-ups from this address', attempt.retryAfterSeconds);
          return signedIn(await dashboard.api().accounts.create(body), visitor, context, 201);
        }),
    }),
    defineOperation({
      operationId: 'signIn',
      method: 'POST',
      path: '/api/dashboard/sign-in',
      summary: 'Sign in',
      description: `Sets a new session cookie and CSRF cookie; the session the request carried, if any, ends. Attempts are limited per email and client IP together (10 per 15 minutes by default), so attempts from elsewhere never lock the owner out, and per client IP (50 per 15 minutes), known email or not. ${csrf}`,
      tags,
      body: { schema: Credentials, maxBytes: BODY_MAX_BYTES },
      responses: {
        200: { description: 'The account, signed in.', content: { 'application/json': SignedIn } },
        ...dashboardErrorSpecs([
          REFUSED.invalid,
          ['wrong_credentials', '`Email or password is wrong.`, the same for an unknown email and a wrong password.'],
          REFUSED.forged,
          ['rate_limited', 'too many attempts for this email from this address, or from this address.'],
          REFUSED.busy,
        ]),
      },
      invalid: dashboard.invalid('visitors'),
      handler: ({ request, body, context }) =>
        dashboard.forVisitor(request, async (visitor) => {
          const attempt = await dashboard.api().attemptLimits.signIn(body.email, context.clientIp);
          if (!attempt.allowed) return tooMany('sign-in attempts', attempt.retryAfterSeconds);
          const account = await dashboard.api().accounts.verify(body);
          if (!account) return dashboard.fail({ code: 'wrong_credentials', message: 'Email or password is wrong.' });
          return signedIn(account, visitor, context, 200);
        }),
    }),
    signOut('signOut', '/api/dashboard/sign-out', 'Sign out', 'Ends this session and deletes its cookie.', ({ session }) =>
      dashboard.api().sessions.end(session.idHash),
    ),
    signOut(
      'signOutEverywhere',
      '/api/dashboard/sign-out-everywhere',
      'Sign out on every device',
      'Ends every session of the account, this one included.',
      ({ account }) => dashboard.api().sessions.endAll(account.id),
    ),
    defineOperation({
      operationId: 'changePassword',
      method: 'POST',
      path: '/api/dashboard/password',
      summary: 'Change the password',
      description: `Ends every other session of the account and issues this one anew (new session and CSRF cookies). A wrong current password is a field error of \`currentPassword\`; attempts count as sign-in attempts. ${csrf}`,
      tags,
      body: { schema: PasswordChange, maxBytes: BODY_MAX_BYTES },
      responses: {
        200: { description: 'The account, with a new session.', content: { 'application/json': SignedIn } },
        ...dashboardErrorSpecs([
          REFUSED.invalid,
          REFUSED.unauthorized,
          REFUSED.forged,
          ['rate_limited', 'too many attempts for this account from this address, or from this address.'],
          REFUSED.busy,
        ]),
      },
      invalid: dashboard.invalid('accounts'),
      handler: ({ request, body, context }) =>
        dashboard.forAccount(request, async ({ account, visitor }) => {
          const attempt = await dashboard.api().attemptLimits.signIn(account.email, context.clientIp);
          if (!attempt.allowed) return tooMany('sign-in attempts', attempt.retryAfterSeconds);
          const changed = await dashboard.api().accounts.changePassword(account.id, body);
          await dashboard.api().sessions.endAll(account.id);
          return signedIn(changed, { ...visitor, signedIn: null }, context, 200);
        }),
    }),
  ] as unknown as ApiOperation[];
}
