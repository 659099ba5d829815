import { type Dispatcher, request } from 'undici';
import { ANY_ADDRESS, type AddressPolicy, blockListFor, refusedTarget } from './address-policy.ts';
import { dispatcherFor } from './dispatchers.ts';
import { connectionError, OutboundError, statusError } from './outbound-error.ts';

// One outbound HTTP request of the platform's (README.md): one deadline for all of it, every hop
// and the body; one size cap on the body, counted as it streams (a larger Content-Length fails at
// once); redirects off or followed by hand, each hop checked again as the first; the address policy
// on every connection; and every failure one OutboundError. Compression is not asked for, and a
// compressed body is refused rather than inflated past the cap.

export interface OutboundOptions {
  method?: 'GET' | 'POST';
  headers?: Readonly<Record<string, string>>;
  body?: string;
  /** The whole request: every hop, the answer and its body. */
  timeoutMs: number;
  /** Body bytes read at most. */
  maxBytes: number;
  /** Redirects followed; 0 (the default): a 3xx is an answer like any other. */
  maxRedirects?: number;
  /** Which addresses connections may reach; default any. */
  addresses?: AddressPolicy;
  /** The statuses whose answer the caller takes; another fails `status`, its body unread. Default: all. */
  takes?: (status: number) => boolean;
  /** `status`: the answer is its status and headers, and the body is read within the cap and the deadline and dropped. */
  read?: 'body' | 'status';
}

export interface OutboundAnswer {
  /** The URL answered, after redirects. */
  url: URL;
  status: number;
  /** Lowercase names. */
  headers: Record<string, string | string[] | undefined>;
  /** Empty with `read: 'status'`. */
  body: Uint8Array;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const EMPTY = new Uint8Array(0);

type Body = Dispatcher.ResponseData['body'];

/** Requests `url`; rejects with an OutboundError. */
export async function outboundRequest(url: URL, options: OutboundOptions): Promise<OutboundAnswer> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs);
  const maxRedirects = options.maxRedirects ?? 0;
  let draining = false;
  try {
    let target = url;
    let method = options.method ?? 'GET';
    let body = options.body;
    for (let redirects = 0; ; redirects++) {
      const blocked = blockListFor(target, options.addresses ?? ANY_ADDRESS);
      const refused = refusedTarget(target, blocked);
      if (refused) throw refused;
      const response = await request(target, {
        dispatcher: dispatcherFor(blocked),
        method,
        headers: hopHeaders(target, options.headers, body !== undefined),
        body,
        signal: deadline.signal,
      });
      const status = response.statusCode;
      const { headers } = response;
      const location = headerText(headers.location);
      if (maxRedirects > 0 && REDIRECTS.has(status) && location !== null) {
        discard(response.body);
        if (redirects === maxRedirects) throw new OutboundError('too_many_redirects', `more than ${maxRedirects} redirects`);
        if (!URL.canParse(location, target)) throw new OutboundError('bad_redirect', `HTTP ${status} to a bad location`, { status });
        target = new URL(location, target);
        // As browsers do: a 303, and a 301 or 302 answering a POST, are followed with a GET.
        if (status === 303 || (status !== 307 && status !== 308 && method === 'POST')) [method, body] = ['GET', undefined];
        continue;
      }
      if (options.takes && !options.takes(status)) {
        discard(response.body);
        throw statusError(status, headers);
      }
      if (options.read === 'status') {
        draining = true;
        void drain(response.body, options.maxBytes, deadline.signal).finally(() => clearTimeout(timer));
        return { url: target, status, headers, body: EMPTY };
      }
      const encoding = headerText(headers['content-encoding'])?.trim().toLowerCase();
      if (encoding && encoding !== 'identity') {
        discard(response.body);
        throw new OutboundError('encoding', `unasked content-encoding ${encoding}`);
      }
      return { url: target, status, headers, body: await readAtMost(response.body, headerText(headers['content-length']), options.maxBytes) };
    }
  } catch (error) {
    if (deadline.signal.aborted) throw new OutboundError('timeout', `no answer within ${options.timeoutMs} ms`);
    throw connectionError(error);
  } finally {
    if (!draining) clearTimeout(timer);
  }
}

/** Credentials in a URL as node:http sends them: Basic authorization; null without any. */
export function basicAuthorization(url: URL): string | null {
  if (!url.username && !url.password) return null;
  return `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
}

/** A header's value as one string (repeated ones joined as HTTP joins them); null when absent. */
export function headerText(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

function hopHeaders(url: URL, headers: Readonly<Record<string, string>> = {}, withBody: boolean): Record<string, string> {
  const sent: Record<string, string> = { 'accept-encoding': 'identity' };
  const authorization = basicAuthorization(url);
  if (authorization) sent.authorization = authorization;
  for (const [name, value] of Object.entries(headers)) {
    // A redirect followed with a GET leaves the body, and what described it, behind.
    if (!withBody && name.toLowerCase() === 'content-type') continue;
    sent[name.toLowerCase()] = value;
  }
  return sent;
}

/** The body, failing `too_large` once it passes `maxBytes` (at once when its declared length does); the rest is not read. */
async function readAtMost(body: Body, declared: string | null, maxBytes: number): Promise<Uint8Array> {
  const tooLarge = () => new OutboundError('too_large', `larger than ${maxBytes} bytes`, { maxBytes });
  if (Number(declared) > maxBytes) {
    discard(body);
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge(); // leaving the loop destroys the body
    chunks.push(chunk);
  }
  return new Uint8Array(Buffer.concat(chunks, size));
}

/** Closes a body unread (and its connection, unless it had all come). */
function discard(body: Body): void {
  body.on('error', () => undefined).destroy();
}

/** Reads a body nobody needs, at most `maxBytes` of it (then the connection is closed), within the deadline. */
async function drain(body: Body, maxBytes: number, signal: AbortSignal): Promise<void> {
  await body.dump({ limit: maxBytes, signal }).catch(() => undefined);
}
