import { EmailTakenError, NotFoundError, WrongPasswordError } from '../accounts/errors.ts';
import { PasswordHashingBusyError } from '../accounts/hashing-slots.ts';
import type { Session } from '../accounts/sessions.ts';
import type { Account } from '../accounts/account.ts';
import { BufferedResponse } from '../api/buffered-response.ts';
import type { ApiOperation, ApiRequest, InputFailure } from '../api/operation.ts';
import { jsonResponse } from '../api/responses.ts';
import { AccountLimitError, AppInputError, AppNotFoundError, StaleVersionError } from '../apps/errors.ts';
import { retryAfterSeconds } from '../limits/retry-after.ts';
import type { DashboardApi } from './api.ts';
import { dashboardErrorResponse, type DashboardFailure } from './errors.ts';
import { createDashboardGuard, type DashboardGuard, type Visitor } from './guard.ts';

// What every dashboard operation does around its own work: the guard (CSRF, then the session when
// the operation needs one), the refusals of the stores as Error bodies with their field, and JSON
// answers that are never stored and may set cookies.

export interface SignedIn {
  account: Account;
  session: Session;
  visitor: Visitor;
}

export interface OperationContext {
  /** The services; only a serving router calls a handler, so the described document never reaches them. */
  api(): DashboardApi;
  guard(): DashboardGuard;
  documentationUrl: string;
  fail(failure: DashboardFailure, cookies?: string[]): Response;
  json(body: unknown, options?: { status?: number; cookies?: string[] }): Response;
  noContent(cookies?: string[]): Response;
  /** Answers a request open to every visitor (CSRF-checked when unsafe) with `act`. */
  forVisitor(request: ApiRequest, act: (visitor: Visitor) => Promise<Response>): Promise<Response>;
  /** Answers a request of a signed-in account with `act`: 401 without a session. */
  forAccount(request: ApiRequest, act: (caller: SignedIn) => Promise<Response>): Promise<Response>;
  /** The answer to inputs that failed validation, after the same guard. */
  invalid(access: 'visitors' | 'accounts'): NonNullable<ApiOperation['invalid']>;
}

export function createOperationContext(documentationUrl: string, api: DashboardApi | null): OperationContext {
  const services = () => {
    if (!api) throw new Error('the dashboard is described, not served, here');
    return api;
  };
  let guard: DashboardGuard | undefined;
  const guardOf = () =>
    (guard ??= createDashboardGuard({
      sessions: services().sessions,
      siteOrigin: services().siteOrigin,
      secureCookies: services().secureCookies,
      documentationUrl,
    }));

  const withCookies = (response: Response, cookies: readonly string[]) => {
    // Appending to headers makes the adapter write each Set-Cookie on its own line.
    for (const cookie of cookies) response.headers.append('set-cookie', cookie);
    return response;
  };
  const fail = (failure: DashboardFailure, cookies: readonly string[] = []) => withCookies(dashboardErrorResponse(failure, documentationUrl), cookies);
  const json: OperationContext['json'] = (body, options = {}) =>
    withCookies(jsonResponse(body, { status: options.status ?? 200, headers: { 'cache-control': 'no-store' } }), options.cookies ?? []);
  const noContent: OperationContext['noContent'] = (cookies = []) =>
    withCookies(new BufferedResponse(null, { status: 204, headers: { 'cache-control': 'no-store' } }), cookies);

  /** The guard's answer: a refusal, or the visitor (and for accounts, the session) to go on with. */
  const admit = async (request: ApiRequest, access: 'visitors' | 'accounts'): Promise<{ refused: Response } | { visitor: Visitor }> => {
    const admission = await guardOf().admit(request);
    if (!admission.ok) return { refused: admission.response };
    const { visitor } = admission;
    if (access === 'accounts' && !visitor.signedIn) {
      const cookies = visitor.staleSessionCookie ? [guardOf().endedSessionCookie()] : [];
      return {
        refused: fail({ code: 'unauthorized', message: 'Sign in first: this needs a dashboard session, and none was found (it may have expired).' }, cookies),
      };
    }
    return { visitor };
  };

  const run = async (act: () => Promise<Response>): Promise<Response> => {
    try {
      return await act();
    } catch (error) {
      const failure = failureOf(error);
      if (failure) return fail(failure);
      throw error;
    }
  };

  return {
    api: services,
    guard: guardOf,
    documentationUrl,
    fail,
    json,
    noContent,
    async forVisitor(request, act) {
      const admitted = await admit(request, 'visitors');
      return 'refused' in admitted ? admitted.refused : run(() => act(admitted.visitor));
    },
    async forAccount(request, act) {
      const admitted = await admit(request, 'accounts');
      if ('refused' in admitted) return admitted.refused;
      const { session, account } = admitted.visitor.signedIn!;
      return run(() => act({ account, session, visitor: admitted.visitor }));
    },
    invalid:
      (access) =>
      async (failures, { request }) => {
        const admitted = await admit(request, access);
        return 'refused' in admitted ? admitted.refused : fail(inputFailure(failures[0]!));
      },
  };
}

/** The stores' field names in a sentence a person reads ("The list of networks has …"). */
const FIELD_WORDS: Readonly<Record<string, string>> = {
  name: 'name',
  allowedNetworks: 'list of networks',
  allowedDomains: 'list of domains',
  state: 'state',
  graceSeconds: 'grace period',
};

/** How long a client is asked to wait when every password slot is taken: a hash takes about a second. */
const PASSWORD_QUEUE_RETRY_MS = 2_000;

/** A store's refusal as the failure a person reads; null for anything else (a 500). */
function failureOf(error: unknown): DashboardFailure | null {
  if (error instanceof AppNotFoundError) return { code: 'not_found', message: `There is no app ${error.appId} in your account.` };
  if (error instanceof NotFoundError) return { code: 'not_found', message: error.message };
  if (error instanceof StaleVersionError)
    return {
      code: 'stale_version',
      message: `This app changed since you read it: it is at version ${error.currentVersion} now, not ${error.expectedVersion}.`,
    };
  // An account token's refusal (its name) is one too.
  if (error instanceof AppInputError) {
    const label = FIELD_WORDS[error.field];
    return label
      ? { code: 'invalid_input', message: `The ${label} ${error.reason}.`, field: error.field }
      : { code: 'invalid_input', message: capitalized(error.message) };
  }
  if (error instanceof AccountLimitError) return { code: 'limit_reached', message: error.message, limit: { name: error.limit, max: error.max } };
  if (error instanceof PasswordHashingBusyError)
    return {
      code: 'server_busy',
      message: 'Too many passwords are being checked right now. Try again in a few seconds.',
      retryAfterSeconds: retryAfterSeconds(PASSWORD_QUEUE_RETRY_MS),
    };
  if (error instanceof EmailTakenError) return { code: 'email_taken', message: 'An account with this email already exists. Sign in instead.', field: 'email' };
  if (error instanceof WrongPasswordError) return { code: 'invalid_input', message: 'The current password is wrong.', field: 'currentPassword' };
  return null;
}

/** The first failure of a request's inputs, naming the field at fault where there is one. */
export function inputFailure(failure: InputFailure): DashboardFailure {
  if (failure.reason !== 'invalid') {
    const why = {
      unparseable: 'could not be read as JSON',
      too_large: 'is larger than this operation accepts',
      too_deep: `nests arrays and objects more than ${failure.maxDepth} deep, the limit`,
      unsupported_media_type: 'must be sent as application/json',
    }[failure.reason];
    return { code: 'invalid_input', message: `The request ${failure.part === 'body' ? 'body' : failure.part} ${why}.` };
  }
  const issue = failure.issues[0];
  if (!issue) return { code: 'invalid_input', message: 'The request is not valid.' };
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0]!;
    return { code: 'invalid_input', message: `There is no field ${key} here.`, field: key };
  }
  const field = issue.path.length > 0 ? String(issue.path[0]) : undefined;
  const message = issue.path.length === 0 && issue.code === 'invalid_type' ? 'The request body must be a JSON object.' : issue.message;
  return { code: 'invalid_input', message, ...(field !== undefined && { field }) };
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
