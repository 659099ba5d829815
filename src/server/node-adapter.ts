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
    if (!this.#headers) {
      this.#headers = new Headers();
      const raw = this.#req.rawHeaders;
      for (let i = 0; i < raw.length; i += 2) this.#headers.append(raw[i]!, raw[i + 1]!);
    }
    return this.#headers;
  }

  get body(): ApiRequest['body'] {
    if (this.#body === undefined) {
      this.#body = this.method === 'GET' || this.method === 'HEAD' ? null : (Readable.toWeb(this.#req) as ApiRequest['body']);
    }
    return this.#body;
  }
}

/** One request header as a string; repeated headers joined as HTTP allows. */
export function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
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
  if (options.requestId) headers['x-request-id'] = options.requestId;
  const finish = (body: Uint8Array | null | undefined) => {
    if (body && !headers['content-length']) headers['content-length'] = String(body.byteLength);
    res.writeHead(response.status, headers);
    res.end(options.head ? undefined : (body ?? undefined));
  };
  if (response.status === 204 || response.status === 304) return finish(undefined);
  if (buffered) return finish(response.buffered);
  if (!response.body) return finish(undefined);
  return response.arrayBuffer().then((bytes) => finish(new Uint8Array(bytes)));
}
