import { setTimeout as sleep } from 'node:timers/promises';
import { OutboundError } from '../../net/outbound-error.ts';
import { headerText, outboundRequest } from '../../net/outbound-request.ts';
import { fail, type Failure, type Result } from '../result.ts';
import { type BackoffPolicy, createHostBackoff, DEFAULT_BACKOFF } from './backoff.ts';
import type { ExchangeCode } from './response.ts';
import { retryAfterMs } from './retry-after.ts';

// One GET of an exchange's public REST API (docs/prices.md#sources: "real HTTP clients with timeouts and
// backoff"), through the outbound layer (src/net/README.md). Every failure is a value: a timeout, a connection that failed, an HTTP status, a rate
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
/** Redirects followed, as many as fetch follows. */
const MAX_REDIRECTS = 20;
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
  const now = options.now ?? Date.now;
  const retryDelayMs = options.retryDelayMs ?? jitteredRetryDelay;
  const backoff = createHostBackoff(options.backoff ?? DEFAULT_BACKOFF);

  async function attempt<T>(url: URL, read: BodyReader<T>): Promise<ExchangeResult<T>> {
    const where = `${url.host}${url.pathname}`;
    try {
      const { status, body } = await outboundRequest(url, {
        headers: { accept: 'application/json', 'user-agent': USER_AGENT },
        timeoutMs,
        maxBytes,
        maxRedirects: MAX_REDIRECTS,
        // A 2xx body, and a 4xx one for the exchange's own refusal; a rate limit or a 5xx says all in its status.
        takes: (code) => (code >= 200 && code <= 299) || (code >= 400 && code <= 499 && code !== 429 && code !== 418),
      });
      const answer = read(Buffer.from(body).toString('utf8'), now());
      if (status < 400) return answer;
      // A 4xx carrying the exchange's own words (Coinbase's `message`, Binance's `msg`) says more than its status.
      if (!answer.ok && answer.error.code === 'exchange-error') return fail('exchange-error', `${answer.error.message} (HTTP ${status})`);
      return { ok: false, error: { code: 'http-status', message: `${where} answered HTTP ${status}`, status, retryable: false } };
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      return { ok: false, error: exchangeFailure(error, where, { timeoutMs, now: now() }) };
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

/** The layer's failure as an exchange call's. */
function exchangeFailure(error: OutboundError, where: string, at: { timeoutMs: number; now: number }): ExchangeFailure {
  switch (error.kind) {
    case 'status': {
      const status = error.status!;
      if (status !== 429 && status !== 418) return { code: 'http-status', message: `${where} answered HTTP ${status}`, status, retryable: status >= 500 };
      const wait = retryAfterMs(headerText(error.headers?.['retry-after']), at.now);
      const asked = wait === null ? '' : `, Retry-After ${Math.ceil(wait / 1000)} s`;
      return { code: 'rate-limited', message: `${where} answered HTTP ${status}${asked}`, status, retryAfterMs: wait };
    }
    case 'timeout':
      return { code: 'timeout', message: `${where} did not answer within ${at.timeoutMs} ms` };
    case 'too_large':
      return { code: 'garbage', message: `${where} answered more than ${error.maxBytes} bytes` };
    case 'encoding':
      return { code: 'garbage', message: `${where}: ${error.message}` };
    default:
      return { code: 'network', message: `${where}: ${error.message}` };
  }
}
