import { type Dispatcher, Pool } from 'undici';
import { connectionError, OutboundError } from './outbound-error.ts';
import { basicAuthorization } from './outbound-request.ts';

// The gateway's client for one upstream: JSON-RPC POSTs over kept-alive HTTP/1.1 connections,
// an undici Pool driven through its dispatch API (no stream per answer: the body's chunks are kept
// as they come). Measured against the hand-written client it replaces in BENCHMARKS.md (Node gateway).

export interface KeepAliveClientOptions {
  /** Connections open at once; further calls wait for one. */
  maxSockets: number;
  /** The longest silence while waiting for the answer's head, or between bytes of its body. */
  timeoutMs: number;
  /** Body bytes of an answer at most. */
  maxBytes: number;
  /** An idle connection is closed after this (servers close theirs too; a reused one they closed would fail a call). */
  idleTimeoutMs?: number;
}

export interface HttpAnswer {
  status: number;
  text: string;
}

export interface KeepAliveClient {
  /**
   * POSTs a JSON body; rejects with an OutboundError: `timeout`, `too_large` or `unreachable`.
   * `timeoutMs` replaces the client's for this call (a traced execution may take longer than a read).
   */
  post(body: string, options?: { timeoutMs?: number }): Promise<HttpAnswer>;
  close(): void;
}

export function createKeepAliveClient(url: URL, options: KeepAliveClientOptions): KeepAliveClient {
  const idleTimeoutMs = options.idleTimeoutMs ?? 4_000;
  const pool = new Pool(url.origin, {
    connections: options.maxSockets,
    keepAliveTimeout: idleTimeoutMs,
    keepAliveMaxTimeout: idleTimeoutMs,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    allowH2: false,
  });
  // Flat name/value pairs: undici reads them without walking an object.
  const headers = ['content-type', 'application/json', 'accept', 'application/json'];
  const authorization = basicAuthorization(url);
  if (authorization) headers.push('authorization', authorization);
  const path = `${url.pathname}${url.search}`;

  return {
    async post(body, call) {
      const timeoutMs = call?.timeoutMs ?? options.timeoutMs;
      // The pool's own timeouts unless this call has another (undici takes them per request too).
      const timeouts = call?.timeoutMs === undefined ? {} : { headersTimeout: timeoutMs, bodyTimeout: timeoutMs };
      for (let attempt = 0; ; attempt++) {
        const answer = new Answer(options.maxBytes);
        pool.dispatch({ path, method: 'POST', headers, body, ...timeouts }, answer);
        try {
          return await answer.promise;
        } catch (error) {
          // A kept-alive connection the upstream closed just as the call went out (its idle timeout
          // raced ours): it is sent again, once, as HTTP clients do. A failure after answer bytes
          // arrived, or on a connection that never answered anything, is the upstream's failure.
          if (attempt === 0 && !answer.started && closedWhileKeptAlive(error)) continue;
          throw upstreamFailure(error, timeoutMs);
        }
      }
    },
    close() {
      void pool.close().catch(() => undefined);
    },
  };
}

/** One exchange's answer, as undici hands it over: its status, then its body's chunks within the cap. */
class Answer implements Dispatcher.DispatchHandler {
  readonly promise: Promise<HttpAnswer>;
  /** A byte of the answer arrived. */
  started = false;
  #resolve!: (answer: HttpAnswer) => void;
  #reject!: (error: unknown) => void;
  #status = 0;
  #chunks: Buffer[] = [];
  #size = 0;
  readonly #maxBytes: number;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
    this.promise = new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
  }

  onRequestStart(): void {}

  onResponseStarted(): void {
    this.started = true;
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    this.#status = statusCode;
    if (Number(headers['content-length']) > this.#maxBytes) controller.abort(this.#tooLarge());
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#size += chunk.length;
    if (this.#size > this.#maxBytes) controller.abort(this.#tooLarge());
    else this.#chunks.push(chunk);
  }

  onResponseEnd(): void {
    const chunks = this.#chunks;
    this.#resolve({ status: this.#status, text: chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, this.#size).toString('utf8') });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.#reject(error);
  }

  #tooLarge(): OutboundError {
    return new OutboundError('too_large', `the answer is larger than ${this.#maxBytes} bytes`, { maxBytes: this.#maxBytes });
  }
}

/**
 * A connection that had answered before, closed by the other side before any byte of this answer:
 * undici's `other side closed` on a socket that had read earlier answers, or the kernel's reset or
 * broken pipe for a request written to a connection the upstream had just closed.
 */
function closedWhileKeptAlive(error: unknown): boolean {
  const { code, socket } = error as { code?: string; socket?: { bytesRead?: number } };
  if (code === 'UND_ERR_SOCKET') return (socket?.bytesRead ?? 0) > 0;
  return code === 'ECONNRESET' || code === 'EPIPE';
}

const TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

function upstreamFailure(error: unknown, timeoutMs: number): OutboundError {
  if (TIMEOUTS.has((error as { code?: string }).code ?? '')) return new OutboundError('timeout', `no answer within ${timeoutMs} ms`, { cause: error });
  return connectionError(error);
}
