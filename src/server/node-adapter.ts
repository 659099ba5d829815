import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { BufferedResponse } from '../api/buffered-response.ts';
import type { ApiRequest } from '../api/operation.ts';

// node:http <-> the router's web-standard shapes. Kept thin, and cheap: no Request object is
// built (ApiRequest), and a BufferedResponse is written without a stream round trip.

export function toApiRequest(req: IncomingMessage, origin: string): ApiRequest {
  return new NodeApiRequest(req, origin);
}

/** Headers and body are built on first use: most GETs never look at them. */
class NodeApiRequest implements ApiRequest {
  readonly method: string;
  readonly url: string;
  readonly #req: IncomingMessage;
  #headers?: Headers;
  #body?: ApiRequest['body'];

  constructor(req: IncomingMessage, origin: string) {
    this.#req = req;
    this.method = req.method ?? 'GET';
    // req.url is origin-form here ('/path?query'), checked by the server before routing.
    this.url = origin + (req.url ?? '/');
  }

  get headers(): Headers {
    return (this.#headers ??= new IncomingHeaders(this.#req.rawHeaders));
  }

  get body(): ApiRequest['body'] {
    if (this.#body === undefined) {
      this.#body = this.method === 'GET' || this.method === 'HEAD' ? null : (Readable.toWeb(this.#req) as ApiRequest['body']);
    }
    return this.#body;
  }

  /** The body as text within `maxBytes` (bodyTextWithin). */
  textWithin(maxBytes: number, stop?: (chunk: Buffer) => boolean): Promise<string | null> {
    return this.method === 'GET' || this.method === 'HEAD' ? Promise.resolve('') : bodyTextWithin(this.#req, maxBytes, stop);
  }
}

/**
 * A request's body as text, or null once it passes `maxBytes` (counted as it arrives: Content-Length
 * may be absent or wrong) or `stop` is true of a chunk, read from the socket's chunks: a web stream
 * costs more than a JSON-RPC call answered from cache (BENCHMARKS.md, Node gateway). The rest of a
 * refused body is not read: the answer closes the connection (writeWebResponse).
 */
export function bodyTextWithin(req: IncomingMessage, maxBytes: number, stop?: (chunk: Buffer) => boolean): Promise<string | null> {
  if (req.readableEnded) return Promise.resolve('');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const detach = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes && !stop?.(chunk)) return void chunks.push(chunk);
      detach();
      req.pause(); // nothing more is read from the socket until the answer closes it
      resolve(null);
    };
    const onEnd = () => {
      detach();
      resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'));
    };
    const onError = (error: Error) => {
      detach();
      reject(error);
    };
    // Closed before its end: the client went away mid-body.
    const onClose = () => onError(new Error('the request was closed before its body ended'));
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', onError);
    req.once('close', onClose);
  });
}

/**
 * A request's Headers that answers get() and has() from node's raw header list, and builds the
 * whole validated list only when something reads or changes more: the node gateway asks for two
 * headers per call, and building the list cost it more than that call's rate limit and quota.
 */
class IncomingHeaders extends Headers {
  #raw: readonly string[] | null;

  constructor(raw: readonly string[]) {
    super();
    this.#raw = raw;
  }

  /** Repeated headers joined with ', ', as Headers does; names compared without case. */
  override get(name: string): string | null {
    const raw = this.#raw;
    if (!raw) return super.get(name);
    const wanted = name.toLowerCase();
    let value: string | null = null;
    for (let i = 0; i < raw.length; i += 2) {
      const header = raw[i]!;
      if (header.length === wanted.length && header.toLowerCase() === wanted) value = value === null ? raw[i + 1]! : `${value}, ${raw[i + 1]!}`;
    }
    return value;
  }

  override has(name: string): boolean {
    return this.#raw ? this.get(name) !== null : super.has(name);
  }

  /** Builds the whole list (once): everything but get() and has() reads or changes it. */
  #fill(): void {
    const raw = this.#raw;
    if (!raw) return;
    this.#raw = null;
    for (let i = 0; i < raw.length; i += 2) super.append(raw[i]!, raw[i + 1]!);
  }

  override append(name: string, value: string): void {
    this.#fill();
    super.append(name, value);
  }
  override delete(name: string): void {
    this.#fill();
    super.delete(name);
  }
  override set(name: string, value: string): void {
    this.#fill();
    super.set(name, value);
  }
  override getSetCookie(): string[] {
    this.#fill();
    return super.getSetCookie();
  }
  override forEach(callback: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void {
    this.#fill();
    super.forEach(callback, thisArg);
  }
  override entries(): HeadersIterator<[string, string]> {
    this.#fill();
    return super.entries();
  }
  override keys(): HeadersIterator<string> {
    this.#fill();
    return super.keys();
  }
  override values(): HeadersIterator<string> {
    this.#fill();
    return super.values();
  }
  override [Symbol.iterator](): HeadersIterator<[string, string]> {
    return this.entries();
  }
}

/** One request header as a string; repeated headers joined as HTTP allows. */
export function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Whether the request has a body that has not all arrived and been read (a request without one is complete only after its handler starts). */
function bodyUnread(req: IncomingMessage): boolean {
  if (req.complete) return false;
  const length = req.headers['content-length'];
  return length !== undefined ? Number(length) > 0 : req.headers['transfer-encoding'] !== undefined;
}

/** Writes a web Response; HEAD and bodiless statuses get headers only. Synchronous for a BufferedResponse. */
export function writeWebResponse(res: ServerResponse, response: Response, options: { head: boolean; requestId?: string }): void | Promise<void> {
  const buffered = response instanceof BufferedResponse;
  let headers: Record<string, string | string[]> | undefined = buffered ? response.plainHeaders : undefined;
  if (!headers) {
    headers = {};
    const cookies: string[] = [];
    response.headers.forEach((value, name) => {
      if (name === 'set-cookie') cookies.push(value);
      else headers![name] = value;
    });
    if (cookies.length) headers['set-cookie'] = cookies;
  }
  const finish = (body: string | Uint8Array | null | undefined) => writeAnswer(res, response.status, headers, body, options);
  if (response.status === 204 || response.status === 304) return finish(undefined);
  if (buffered) return finish(response.writableBody);
  if (!response.body) return finish(undefined);
  return response.arrayBuffer().then((bytes) => finish(new Uint8Array(bytes)));
}

/**
 * Writes a status, a header record (lower-case names; this adds x-request-id, content-length and,
 * for a body left unread, connection: close) and a body, the head and a string body in one write.
 */
export function writeAnswer(
  res: ServerResponse,
  status: number,
  headers: Record<string, string | string[]>,
  body: string | Uint8Array | null | undefined,
  options: { head: boolean; requestId?: string },
): void {
  if (options.requestId) headers['x-request-id'] = options.requestId;
  // Answered before its body was read (refused, or past a limit): node:http would read the rest
  // to keep the connection, at the cost a limit is there to spare, so the connection is closed.
  if (bodyUnread(res.req)) headers.connection = 'close';
  if (status === 204 || status === 304) body = undefined;
  if (body != null && !headers['content-length']) headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
  res.writeHead(status, headers);
  // A string goes out in one write with the head (node:http joins them).
  res.end(options.head ? undefined : (body ?? undefined));
}
