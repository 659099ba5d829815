import { isIP, connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

// The gateway's HTTP/1.1 client for one upstream: JSON-RPC POSTs over kept-alive connections.
// node:http's client cost about four times the CPU of this one per call (its request and
// response objects, agent events and stream machinery; BENCHMARKS.md, Node gateway), more than
// the rest of an uncached call. It speaks what an upstream's answer needs: a status line,
// headers, a body by Content-Length, chunked, or up to the close; 1xx heads are skipped.

export interface HttpAnswer {
  status: number;
  text: string;
}

/** Why an exchange got no answer: no connection, a silent upstream, or a broken or oversized answer. */
export class HttpExchangeError extends Error {
  override name = 'HttpExchangeError';
  readonly kind: 'connection' | 'timeout';
  /** No byte of an answer had arrived. */
  unanswered = false;
  constructor(kind: HttpExchangeError['kind'], message: string) {
    super(message);
    this.kind = kind;
  }
}

export interface KeepAliveClientOptions {
  /** Connections open at once; further calls wait for one. */
  maxSockets: number;
  /** An idle connection is closed after this (servers close theirs too; a reused one they closed would fail a call). */
  idleTimeoutMs?: number;
}

export interface KeepAliveClient {
  /** POSTs a JSON body; rejects with HttpExchangeError. `timeoutMs`: the longest silence while waiting. */
  post(body: string, limits: { timeoutMs: number; maxResponseBytes: number }): Promise<HttpAnswer>;
  close(): void;
}

/** The longest status line and headers read. */
const MAX_HEAD_BYTES = 64 * 1024;
const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');
const EMPTY = Buffer.alloc(0);

export function createKeepAliveClient(url: URL, options: KeepAliveClientOptions): KeepAliveClient {
  const secure = url.protocol === 'https:';
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(url.port) || (secure ? 443 : 80);
  const idleTimeoutMs = options.idleTimeoutMs ?? 4_000;
  // Credentials in the URL go as Basic authorization, as node:http sends them.
  const authorization =
    url.username || url.password
      ? `Authorization: Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}\r\n`
      : '';
  const head = `POST ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n${authorization}Content-Type: application/json\r\nAccept: application/json\r\nConnection: keep-alive\r\nContent-Length: `;

  const idle: Connection[] = [];
  const waiting: Array<(connection: Connection) => void> = [];
  let open = 0;
  let closed = false;

  const connect = (): Connection => {
    open++;
    const socket = secure
      ? tlsConnect({ host, port, servername: isIP(host) ? undefined : host })
      : netConnect({ host, port, noDelay: true, keepAlive: true, keepAliveInitialDelay: 1_000 });
    if (secure) socket.setNoDelay(true);
    return new Connection(socket, idleTimeoutMs, {
      onIdle: (connection) => {
        if (closed) return connection.destroy();
        const next = waiting.shift();
        if (next) next(connection);
        else idle.push(connection);
      },
      onClosed: (connection) => {
        open--;
        const at = idle.indexOf(connection);
        if (at !== -1) idle.splice(at, 1);
        // A call waiting for a connection gets a new one in place of the closed one.
        if (waiting.length > 0 && !closed) waiting.shift()!(connect());
      },
    });
  };

  const acquire = (): Connection | Promise<Connection> => {
    const connection = idle.pop();
    if (connection) return connection;
    if (open < options.maxSockets) return connect();
    return new Promise((resolve) => waiting.push(resolve));
  };

  return {
    async post(body, limits) {
      const request = `${head}${Buffer.byteLength(body)}\r\n\r\n${body}`;
      for (;;) {
        if (closed) throw new HttpExchangeError('connection', 'the client is closed');
        const connection = await acquire();
        const reused = connection.exchanges > 0;
        try {
          return await connection.exchange(request, limits);
        } catch (error) {
          // A kept-alive connection the upstream closed just as the call went out (its idle timeout
          // raced ours): it is sent again on another, as HTTP clients do. A new connection that
          // fails so, or any failure after answer bytes arrived, is the upstream's failure.
          if (reused && error instanceof HttpExchangeError && error.kind === 'connection' && error.unanswered) continue;
          throw error;
        }
      }
    },
    close() {
      closed = true;
      for (const connection of idle.splice(0)) connection.destroy();
      waiting.length = 0;
    },
  };
}

/** How a connection tells its client that it is free again, or gone. */
interface ConnectionHooks {
  onIdle(connection: Connection): void;
  onClosed(connection: Connection): void;
}

type BodyMode = { kind: 'length'; remaining: number } | { kind: 'chunked' } | { kind: 'until-close' } | { kind: 'none' };

/** Where a chunked body is: in a size line, in a chunk's data (`left` bytes), in the CRLF after it (`left` bytes), or in the trailers. */
type ChunkState = { at: 'size' } | { at: 'data'; left: number } | { at: 'crlf'; left: number } | { at: 'trailers' };

interface Exchange {
  resolve(answer: HttpAnswer): void;
  reject(error: HttpExchangeError): void;
  maxResponseBytes: number;
  /** Bytes of an unfinished head, chunk size line or trailer. */
  pending: Buffer;
  status: number;
  keepAlive: boolean;
  mode: BodyMode | null;
  chunk: ChunkState;
  body: Buffer[];
  size: number;
  /** A byte of the answer arrived. */
  answered: boolean;
}

/** What a parsing step found: more bytes are needed, the answer is complete, or it is broken (why). */
type Parsed = 'more' | 'done' | { problem: string };

/** One connection: listeners attached once, each exchange parsed as its bytes arrive. */
class Connection {
  readonly #socket: Socket;
  readonly #idleTimeoutMs: number;
  readonly #pool: ConnectionHooks;
  #exchange: Exchange | null = null;
  #timeoutMs = 0;
  #gone = false;
  /** Exchanges begun on this connection. */
  exchanges = 0;

  constructor(socket: Socket, idleTimeoutMs: number, pool: ConnectionHooks) {
    this.#socket = socket;
    this.#idleTimeoutMs = idleTimeoutMs;
    this.#pool = pool;
    socket.on('data', (chunk: Buffer) => this.#onData(chunk));
    socket.on('end', () => this.#onEnd());
    socket.on('timeout', () => this.#onTimeout());
    socket.on('error', (error) => this.#fail(new HttpExchangeError('connection', error.message)));
    socket.on('close', () => {
      this.#fail(new HttpExchangeError('connection', 'the connection closed before the answer ended'));
      if (!this.#gone) {
        this.#gone = true;
        this.#pool.onClosed(this);
      }
    });
  }

  exchange(request: string, limits: { timeoutMs: number; maxResponseBytes: number }): Promise<HttpAnswer> {
    return new Promise((resolve, reject) => {
      if (this.#gone) return reject(Object.assign(new HttpExchangeError('connection', 'the connection closed'), { unanswered: true }));
      this.exchanges++;
      this.#exchange = {
        resolve,
        reject,
        maxResponseBytes: limits.maxResponseBytes,
        pending: EMPTY,
        status: 0,
        keepAlive: false,
        mode: null,
        chunk: { at: 'size' },
        body: [],
        size: 0,
        answered: false,
      };
      this.#timeoutMs = limits.timeoutMs;
      this.#socket.setTimeout(limits.timeoutMs);
      this.#socket.write(request);
    });
  }

  destroy(): void {
    this.#socket.destroy();
  }

  #onTimeout(): void {
    if (this.#exchange) this.#fail(new HttpExchangeError('timeout', `no answer within ${this.#timeoutMs} ms`));
    else this.#socket.destroy();
  }

  #onEnd(): void {
    const exchange = this.#exchange;
    if (exchange?.mode?.kind === 'until-close') this.#finish(exchange, false);
    else this.#fail(new HttpExchangeError('connection', exchange ? 'the upstream closed the connection mid-answer' : 'closed'));
  }

  /** Ends the exchange with an error; the connection is not used again. */
  #fail(error: HttpExchangeError): void {
    const exchange = this.#exchange;
    this.#exchange = null;
    this.#socket.destroy();
    if (!exchange) return;
    error.unanswered = !exchange.answered;
    exchange.reject(error);
  }

  #finish(exchange: Exchange, reusable: boolean): void {
    this.#exchange = null;
    const text = exchange.body.length === 1 ? exchange.body[0]!.toString('utf8') : Buffer.concat(exchange.body, exchange.size).toString('utf8');
    if (reusable && exchange.keepAlive) {
      this.#socket.setTimeout(this.#idleTimeoutMs);
      this.#pool.onIdle(this);
    } else this.#socket.destroy();
    exchange.resolve({ status: exchange.status, text });
  }

  #onData(chunk: Buffer): void {
    const exchange = this.#exchange;
    // Bytes nobody asked for: the connection cannot be trusted with another exchange.
    if (!exchange) return void this.#socket.destroy();
    exchange.answered = true;
    const rest = exchange.mode === null ? readHead(exchange, chunk) : chunk;
    const parsed = Buffer.isBuffer(rest) ? readBody(exchange, rest) : rest;
    if (parsed === 'done') this.#finish(exchange, true);
    else if (parsed !== 'more') this.#fail(new HttpExchangeError('connection', parsed.problem));
  }
}

/** Reads status lines and headers (skipping 1xx heads): the bytes after the head, 'more' while it is unfinished, or why it is broken. */
function readHead(exchange: Exchange, chunk: Buffer): Buffer | Exclude<Parsed, 'done'> {
  let buffer = exchange.pending.length ? Buffer.concat([exchange.pending, chunk]) : chunk;
  for (;;) {
    const end = buffer.indexOf(HEAD_END);
    if (end === -1) {
      if (buffer.length > MAX_HEAD_BYTES) return { problem: 'the answer’s headers are too long' };
      exchange.pending = buffer;
      return 'more';
    }
    const lines = buffer.toString('latin1', 0, end).split('\r\n');
    const statusLine = /^HTTP\/1\.([01]) (\d{3})/.exec(lines[0]!);
    if (!statusLine) return { problem: 'the answer is not HTTP/1.x' };
    buffer = buffer.subarray(end + HEAD_END.length);
    const status = Number(statusLine[2]);
    if (status >= 100 && status < 200) continue;
    let connection = '';
    let length: string | undefined;
    let chunked = false;
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!;
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (name === 'connection') connection = value.toLowerCase();
      else if (name === 'content-length') length = value;
      else if (name === 'transfer-encoding') chunked = value.toLowerCase().includes('chunked');
    }
    exchange.status = status;
    exchange.keepAlive = statusLine[1] === '1' ? !connection.includes('close') : connection.includes('keep-alive');
    exchange.pending = EMPTY;
    if (status === 204 || status === 304) exchange.mode = { kind: 'none' };
    else if (chunked) exchange.mode = { kind: 'chunked' };
    else if (length === undefined) exchange.mode = { kind: 'until-close' };
    else if (/^\d+$/.test(length)) exchange.mode = { kind: 'length', remaining: Number(length) };
    else return { problem: 'the answer’s Content-Length is not a number' };
    return buffer;
  }
}

/** Adds bytes to the body, within the limit. */
function keep(exchange: Exchange, bytes: Buffer): Parsed {
  exchange.size += bytes.length;
  if (exchange.size > exchange.maxResponseBytes) return { problem: `the answer is larger than ${exchange.maxResponseBytes} bytes` };
  if (bytes.length) exchange.body.push(bytes);
  return 'more';
}

function readBody(exchange: Exchange, data: Buffer): Parsed {
  const mode = exchange.mode!;
  switch (mode.kind) {
    case 'none':
      return data.length ? { problem: 'the answer has a body it may not have' } : 'done';
    case 'until-close':
      return keep(exchange, data);
    case 'length': {
      if (data.length > mode.remaining) return { problem: 'the answer is longer than its Content-Length' };
      const kept = keep(exchange, data);
      mode.remaining -= data.length;
      return kept === 'more' && mode.remaining === 0 ? 'done' : kept;
    }
    case 'chunked':
      return readChunks(exchange, data);
  }
}

/** Chunked transfer coding (RFC 9112 §7.1): size lines, data and CRLF, a last chunk of 0, trailers up to an empty line. */
function readChunks(exchange: Exchange, data: Buffer): Parsed {
  let buffer = exchange.pending.length ? Buffer.concat([exchange.pending, data]) : data;
  exchange.pending = EMPTY;
  while (buffer.length > 0) {
    const state = exchange.chunk;
    if (state.at === 'data') {
      const take = Math.min(state.left, buffer.length);
      const kept = keep(exchange, buffer.subarray(0, take));
      if (kept !== 'more') return kept;
      buffer = buffer.subarray(take);
      exchange.chunk = take === state.left ? { at: 'crlf', left: 2 } : { at: 'data', left: state.left - take };
      continue;
    }
    if (state.at === 'crlf') {
      const take = Math.min(state.left, buffer.length);
      if (!buffer.subarray(0, take).equals(CRLF.subarray(2 - state.left, 2 - state.left + take)))
        return { problem: 'a chunk of the answer does not end with CRLF' };
      buffer = buffer.subarray(take);
      exchange.chunk = take === state.left ? { at: 'size' } : { at: 'crlf', left: state.left - take };
      continue;
    }
    const lineEnd = buffer.indexOf(CRLF);
    if (lineEnd === -1) {
      if (buffer.length > MAX_HEAD_BYTES) return { problem: 'a chunk size line of the answer is too long' };
      exchange.pending = buffer;
      return 'more';
    }
    const line = buffer.toString('latin1', 0, lineEnd);
    buffer = buffer.subarray(lineEnd + 2);
    if (state.at === 'trailers') {
      // Trailers are ignored, up to the empty line that ends the answer.
      if (line !== '') continue;
      return buffer.length > 0 ? { problem: 'bytes after the end of the answer' } : 'done';
    }
    const size = /^([0-9a-fA-F]{1,12})[ \t]*(;.*)?$/.exec(line);
    if (!size) return { problem: 'a chunk size of the answer is not hexadecimal' };
    const bytes = Number.parseInt(size[1]!, 16);
    exchange.chunk = bytes === 0 ? { at: 'trailers' } : { at: 'data', left: bytes };
  }
  return 'more';
}
