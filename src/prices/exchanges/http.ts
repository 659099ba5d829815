import { setTimeout as sleep } from 'node:timers/promises';
import { fail, type Failure, type Result } from '../result.ts';
import { type BackoffPolicy, createHostBackoff, DEFAULT_BACKOFF } from './backoff.ts';
import type { ExchangeCode } from './response.ts';
import { retryAfterMs } from './retry-after.ts';

// One GET of an exchange's public REST API (platform §7: "real HTTP clients with timeouts and
// backoff"). Every failure is a value: a timeout, a connection that failed, an HTTP status, a rate
// limit, a body over the size cap or not of the documented shape, the exchange's own refusal. Within a
// call a transient failure is tried once more after a short jittered delay; across calls a host that
// failed is left alone for a backoff (backoff.ts), during which a call answers `backing-off` at once.

type ExchangeFailure =
  | Failure<'timeout' | 'network' | ExchangeCode>
  /** 5xx (retryable) or a 4xx other than 429 (the request's fault: not retried). */
  | (Failure<'http-status'> & { status: number; retryable: boolean })
  /** 429, or Binance's 418 (an IP banned for ignoring 429s); `retryAfterMs` from Retry-After when sent. */
  | (Failure<'rate-limited'> & { status: number; retryAfterMs: number | null })
  /** The host failed lately and is not asked before `until` (ms). */
  | (Failure<'backing-off'> & { until: number });

/** What an exchange call answers: a Result whose failure may carry a status, a Retry-After or a backoff's end. */
export type ExchangeResult<T> = { ok: true; value: T } | { ok: false; error: ExchangeFailure };

/** Reads a body that came at `receivedAt` (ms): a 2xx one, and a 4xx one for the exchange's own refusal. */
type BodyReader<T> = (body: string, receivedAt: number) => Result<T, ExchangeCode>;

export interface ExchangeHttpOptions {
  /** One request, headers and body (default 10 s). */
  timeoutMs?: number;
  /** Body bytes at most; a larger body is `garbage` (default 1 MiB). */
  maxBytes?: number;
  /** Waits between failed calls to one host. */
  backoff?: BackoffPolicy;
  /** The wait before the one retry within a call (default 250–750 ms, jittered). */
  retryDelayMs?: () => number;
  fetch?: typeof globalThis.fetch;
  /** The clock (ms): when answers came, backoffs, Retry-After dates. */
  now?: () => number;
}

export interface ExchangeHttp {
  /** GET `url` as JSON and read its body; a host in backoff is not asked. */
  get<T>(url: URL, read: BodyReader<T>): Promise<ExchangeResult<T>>;
  /** The clock the answers are stamped by. */
  now(): number;
}

const USER_AGENT = 'Crucible-Prices/1';
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 1024 * 1024;
/** A 429 asking for a longer wait than this ends the call; a shorter one is waited out and retried. */
const MAX_RETRY_AFTER_IN_CALL_MS = 2_000;

const jitteredRetryDelay = () => 250 + Math.random() * 500;

/** An exchange endpoint under `base` (which may carry a path of its own, as a proxy's does), with its query. */
export function exchangeUrl(base: string, path: string, query: Record<string, string | number> = {}): URL {
  const url = new URL(`${base.replace(/\/+$/, '')}${path}`);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, String(value));
  return url;
}

/** The HTTP side of every exchange client, with one backoff per host shared by all of them. */
export function createExchangeHttp(options: ExchangeHttpOptions = {}): ExchangeHttp {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const fetchOnce = options.fetch ?? globalThis.fetch;
  const now = options.now ?? Date.now;
  const retryDelayMs = options.retryDelayMs ?? jitteredRetryDelay;
  const backoff = createHostBackoff(options.backoff ?? DEFAULT_BACKOFF);

  async function attempt<T>(url: URL, read: BodyReader<T>): Promise<ExchangeResult<T>> {
    const where = `${url.host}${url.pathname}`;
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const response = await fetchOnce(url, { headers: { accept: 'application/json', 'user-agent': USER_AGENT }, signal });
      const { status } = response;
      if (status === 429 || status === 418) {
        await response.body?.cancel();
        const wait = retryAfterMs(response.headers.get('retry-after'), now());
        const asked = wait === null ? '' : `, Retry-After ${Math.ceil(wait / 1000)} s`;
        return { ok: false, error: { code: 'rate-limited', message: `${where} answered HTTP ${status}${asked}`, status, retryAfterMs: wait } };
      }
      const clientError = status >= 400 && status <= 499;
      if (!(status >= 200 && status <= 299) && !clientError) {
        await response.body?.cancel();
        return { ok: false, error: { code: 'http-status', message: `${where} answered HTTP ${status}`, status, retryable: status >= 500 } };
      }
      const body = await readAtMost(response, maxBytes);
      if (body === null) return fail('garbage', `${where} answered more than ${maxBytes} bytes`);
      const answer = read(body, now());
      if (!clientError) return answer;
      // A 4xx carrying the exchange's own words (Coinbase's `message`, Binance's `msg`) says more than its status.
      if (!answer.ok && answer.error.code === 'exchange-error') return fail('exchange-error', `${answer.error.message} (HTTP ${status})`);
      return { ok: false, error: { code: 'http-status', message: `${where} answered HTTP ${status}`, status, retryable: false } };
    } catch (error) {
      if (signal.aborted) return fail('timeout', `${where} did not answer within ${timeoutMs} ms`);
      return fail('network', `${where}: ${connectionFailure(error)}`);
    }
  }

  return {
    now,
    async get(url, read) {
      const until = backoff.until(url.host, now());
      if (until !== null) {
        const message = `${url.host} failed lately and is not asked again before ${new Date(until).toISOString()}`;
        return { ok: false, error: { code: 'backing-off', message, until } };
      }
      let answer = await attempt(url, read);
      const retryWait = answer.ok ? null : retryWaitMs(answer.error);
      if (retryWait !== null) {
        await sleep(Math.max(retryWait, retryDelayMs()));
        answer = await attempt(url, read);
      }
      if (!answer.ok && hostUnwell(answer.error)) {
        backoff.failed(url.host, now(), answer.error.code === 'rate-limited' ? answer.error.retryAfterMs : null);
      } else {
        backoff.succeeded(url.host);
      }
      return answer;
    },
  };
}

/**
 * How long to wait before trying a failure again within the call (at least the jittered delay), or null
 * when it is not retried: a connection that failed, a 5xx and a 429 with no long Retry-After are worth a
 * second try; a timeout already spent the caller's time, and the rest will answer the same.
 */
function retryWaitMs(failure: ExchangeFailure): number | null {
  if (failure.code === 'network') return 0;
  if (failure.code === 'http-status') return failure.retryable ? 0 : null;
  if (failure.code === 'rate-limited') {
    const wait = failure.retryAfterMs ?? 0;
    return failure.status === 429 && wait <= MAX_RETRY_AFTER_IN_CALL_MS ? wait : null;
  }
  return null;
}

/**
 * Whether a failure says the host is unwell or pushing back, so that it is left alone for a backoff. A 4xx
 * and the exchange's refusal say the request was wrong (an unknown product): the host answered, and
 * backing off would starve the other tokens priced by it.
 */
function hostUnwell(failure: ExchangeFailure): boolean {
  switch (failure.code) {
    case 'http-status':
      return failure.retryable;
    case 'exchange-error':
    case 'backing-off':
      return false;
    default:
      return true;
  }
}

/** The body as text, or null once it passes `maxBytes` (a larger Content-Length fails before reading). */
async function readAtMost(response: Response, maxBytes: number): Promise<string | null> {
  if (Number(response.headers.get('content-length')) > maxBytes) {
    await response.body?.cancel();
    return null;
  }
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

const CONNECTION_FAILURES: Record<string, string> = {
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  UND_ERR_SOCKET: 'connection closed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

/** fetch's TypeError names the system's error in its cause. */
function connectionFailure(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = (cause as NodeJS.ErrnoException).code;
  return (code && CONNECTION_FAILURES[code]) ?? `connection failed: ${code ?? (cause instanceof Error ? cause.message : String(cause))}`;
}
