// The dashboard's calls from the browser (docs/dashboard.md#endpoints): JSON to /api/dashboard/ and /api/webhooks,
// the session's CSRF token in X-CSRF-Token on every state change, and the Error body (docs/errors.md#dashboard-errors)
// read into a value rather than thrown.
import type { Session } from './types.ts';

/** The Error body's `error`; `network_error` when no answer came. */
interface ApiError {
  code: string;
  message: string;
  field?: string;
}

export type ApiResult<T> =
  | { ok: true; status: number; body: T }
  | {
      ok: false;
      /** 0 when no answer came. */
      status: number;
      error: ApiError;
      /** Retry-After in seconds, on a 429. */
      retryAfter: number | null;
    };

const SESSION_PATH = '/api/dashboard/session';
const SAFE_METHODS = new Set(['GET', 'HEAD']);

let csrfToken: string | null = null;

/** Who is signed in, and the CSRF token every state change carries (the endpoint sets its cookie when absent). */
export async function fetchSession(): Promise<ApiResult<Session>> {
  const result = await send<Session>('GET', SESSION_PATH);
  if (result.ok) csrfToken = result.body.csrfToken;
  return result;
}

/** One call; an unsafe one first reads the CSRF token if this page has none yet, and once more if the server refuses it (a new session in another tab). */
export async function api<T>(method: string, path: string, body?: unknown): Promise<ApiResult<T>> {
  if (SAFE_METHODS.has(method)) return send<T>(method, path, body);
  if (csrfToken === null) {
    const session = await fetchSession();
    if (!session.ok) return session;
  }
  const result = await send<T>(method, path, body);
  if (result.ok || result.error.code !== 'csrf_failed') return result;
  const session = await fetchSession();
  return session.ok ? send<T>(method, path, body) : session;
}

async function send<T>(method: string, path: string, body?: unknown): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (!SAFE_METHODS.has(method) && csrfToken !== null) headers['x-csrf-token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch (error) {
    return { ok: false, status: 0, error: { code: 'network_error', message: error instanceof Error ? error.message : String(error) }, retryAfter: null };
  }
  const parsed: unknown = response.status === 204 ? null : await response.json().catch(() => null);
  if (response.ok) return { ok: true, status: response.status, body: parsed as T };
  return { ok: false, status: response.status, error: errorOf(parsed, response.status), retryAfter: retryAfterOf(response.headers.get('retry-after')) };
}

function errorOf(body: unknown, status: number): ApiError {
  const error = (body as { error?: Partial<ApiError> } | null)?.error;
  return {
    code: typeof error?.code === 'string' ? error.code : `http_${status}`,
    message: typeof error?.message === 'string' ? error.message : `HTTP ${status}`,
    ...(typeof error?.field === 'string' && { field: error.field }),
  };
}

function retryAfterOf(header: string | null): number | null {
  if (header === null) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}
