import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, BlockList } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NON_PUBLIC_ADDRESSES } from '../../../src/net/blocked-addresses.ts';
import { OutboundError } from '../../../src/net/outbound-error.ts';
import { type OutboundOptions, outboundRequest } from '../../../src/net/outbound-request.ts';
import { freePort } from '../../support/free-port.ts';

// The outbound layer against real node:http servers on loopback: 127.0.0.1 and 127.0.0.2 (both
// loopback on Linux), so that a block list holding one lets a request reach the other and be
// redirected to the first. No test asserts a duration: a short deadline only makes a timeout come sooner.

const CAP = 16 * 1024;

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

async function startServer(host: string) {
  const seen: Seen[] = [];
  /** Connections closed so far (a body left unread closes its connection). */
  const closed = { count: 0 };
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      route(request, response);
    });
  });
  server.on('connection', (socket) => socket.on('close', () => closed.count++));
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return { server, seen, closed, port, origin: `http://${host}:${port}` };
}

function route(request: IncomingMessage, response: ServerResponse) {
  const url = new URL(request.url ?? '/', 'http://x');
  const query = (name: string) => url.searchParams.get(name);
  switch (url.pathname) {
    case '/text':
      response.writeHead(200, { 'content-type': 'text/plain', 'x-many': ['a', 'b'] }).end('hello');
      return;
    case '/to':
      response.writeHead(Number(query('status') ?? 302), { location: query('url') ?? '' }).end('moved');
      return;
    case '/status':
      response.writeHead(Number(query('code')), { 'retry-after': '7' }).end('an error page');
      return;
    case '/hang':
      return; // headers never come
    case '/drip':
      response.writeHead(200);
      response.write('{'); // the rest never comes
      return;
    case '/bytes': {
      const size = Number(query('size'));
      response.writeHead(200, query('declared') === 'no' ? {} : { 'content-length': size }).end(Buffer.alloc(size, 7));
      return;
    }
    case '/endless': {
      response.writeHead(200);
      const chunk = Buffer.alloc(16 * 1024, 1);
      const write = () => {
        while (!response.destroyed && response.write(chunk));
        if (!response.destroyed) response.once('drain', write);
      };
      response.on('error', () => undefined);
      write();
      return;
    }
    case '/gzip':
      response.writeHead(200, { 'content-encoding': 'gzip' }).end('not really gzip');
      return;
    case '/cut':
      response.writeHead(200, { 'content-length': 100 });
      response.write('0123456789');
      setImmediate(() => response.socket?.destroy());
      return;
    default:
      response.writeHead(404).end();
  }
}

let one: Awaited<ReturnType<typeof startServer>>;
let two: Awaited<ReturnType<typeof startServer>>;
const servers: Server[] = [];

beforeAll(async () => {
  [one, two] = await Promise.all([startServer('127.0.0.1'), startServer('127.0.0.2')]);
  servers.push(one.server, two.server);
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const options = (overrides: Partial<OutboundOptions> = {}): OutboundOptions => ({ timeoutMs: 10_000, maxBytes: CAP, ...overrides });

async function text(url: string, overrides: Partial<OutboundOptions> = {}) {
  const answer = await outboundRequest(new URL(url), options(overrides));
  return { url: answer.url.href, status: answer.status, text: Buffer.from(answer.body).toString('latin1') };
}

/** The OutboundError a request fails with, as `kind: message`. */
async function failure(url: string, overrides: Partial<OutboundOptions> = {}): Promise<string> {
  const error = await outboundRequest(new URL(url), options(overrides)).then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof OutboundError)) throw new Error(`expected an OutboundError, got ${String(error)}`);
  return `${error.kind}: ${error.message}`;
}

const blocking = (...addresses: string[]) => {
  const list = new BlockList();
  for (const address of addresses) list.addAddress(address, address.includes(':') ? 'ipv6' : 'ipv4');
  return list;
};

/** Polls until `check` holds (bounded: the test times out otherwise). */
async function until(check: () => boolean) {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('answers', () => {
  it('reads the body and headers, asking for no compression', async () => {
    const answer = await outboundRequest(new URL(`${one.origin}/text`), options({ headers: { 'user-agent': 'Test/1', Accept: 'text/plain' } }));
    expect([answer.status, Buffer.from(answer.body).toString(), answer.headers['content-type'], answer.headers['x-many']]).toEqual([
      200,
      'hello',
      'text/plain',
      ['a', 'b'],
    ]);
    expect(one.seen.at(-1)!.headers).toMatchObject({ 'accept-encoding': 'identity', 'user-agent': 'Test/1', accept: 'text/plain' });
  });

  it('POSTs a body with its headers', async () => {
    await outboundRequest(new URL(`${one.origin}/text`), options({ method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":"é"}' }));
    expect(one.seen.at(-1)).toMatchObject({ method: 'POST', body: '{"a":"é"}', headers: { 'content-type': 'application/json', 'content-length': '10' } });
  });

  it('sends credentials in the URL as Basic authorization, as node:http did', async () => {
    const url = new URL(`${one.origin}/text`);
    [url.username, url.password] = ['user', 'p@ss word'];
    await outboundRequest(url, options());
    expect(one.seen.at(-1)!.headers.authorization).toBe(`Basic ${Buffer.from('user:p@ss word').toString('base64')}`);
  });

  it('fails `status` on a status the caller does not take, with its headers, and `encoding` on a compressed body', async () => {
    const takes2xx = { takes: (status: number) => status >= 200 && status <= 299 };
    expect(await failure(`${one.origin}/status?code=503`, takes2xx)).toBe('status: HTTP 503');
    const error = (await outboundRequest(new URL(`${one.origin}/status?code=429`), options(takes2xx)).catch((caught: unknown) => caught)) as OutboundError;
    expect([error.status, error.headers?.['retry-after']]).toEqual([429, '7']);
    // Without `takes`, any status is an answer.
    expect(await text(`${one.origin}/status?code=404`)).toMatchObject({ status: 404, text: 'an error page' });
    expect(await failure(`${one.origin}/gzip`)).toBe('encoding: unasked content-encoding gzip');
  });

  it('fails `unreachable` with the system’s code when nothing answers or the answer breaks off', async () => {
    expect(await failure(`http://127.0.0.1:${await freePort()}/`)).toBe('unreachable: connection refused');
    expect(await failure(`${one.origin}/cut`)).toBe('unreachable: connection reset');
    const refused = (await outboundRequest(new URL(`http://127.0.0.1:${await freePort()}/`), options()).catch((caught: unknown) => caught)) as OutboundError;
    expect(refused.code).toBe('ECONNREFUSED');
  });

  it('requests http and https only', async () => {
    expect(await failure('ftp://127.0.0.1/')).toBe('unsupported_scheme: unsupported URI scheme ftp:');
    expect(await failure('file:///etc/hostname')).toBe('unsupported_scheme: unsupported URI scheme file:');
  });
});

describe('one deadline', () => {
  it('times out when the headers never come, and when the body never ends', async () => {
    expect(await failure(`${one.origin}/hang`, { timeoutMs: 200 })).toBe('timeout: no answer within 200 ms');
    expect(await failure(`${one.origin}/drip`, { timeoutMs: 200 })).toBe('timeout: no answer within 200 ms');
  });

  it('counts over every redirect', async () => {
    expect(await failure(`${one.origin}/to?url=/hang`, { timeoutMs: 200, maxRedirects: 3 })).toBe('timeout: no answer within 200 ms');
  });

  it('with read: status, answers at the headers, then reads the body within the deadline and drops it', async () => {
    const closedBefore = one.closed.count;
    const answer = await outboundRequest(new URL(`${one.origin}/drip`), options({ timeoutMs: 300, read: 'status' }));
    expect([answer.status, answer.body.length]).toEqual([200, 0]);
    // The body never ends: its connection is closed at the deadline.
    await until(() => one.closed.count > closedBefore);
  });
});

describe('one size cap', () => {
  it('takes a body of exactly the cap, with or without a length', async () => {
    expect((await text(`${one.origin}/bytes?size=${CAP}`)).text).toHaveLength(CAP);
    expect((await text(`${one.origin}/bytes?size=${CAP}&declared=no`)).text).toHaveLength(CAP);
  });

  it('refuses a body one byte over, declared or streamed, and stops reading an endless one', async () => {
    expect(await failure(`${one.origin}/bytes?size=${CAP + 1}`)).toBe(`too_large: larger than ${CAP} bytes`);
    expect(await failure(`${one.origin}/bytes?size=${CAP + 1}&declared=no`)).toBe(`too_large: larger than ${CAP} bytes`);
    expect(await failure(`${one.origin}/endless`, { timeoutMs: 60_000 })).toBe(`too_large: larger than ${CAP} bytes`);
  });
});

describe('redirects', () => {
  it('are answers when not followed (the default)', async () => {
    one.seen.length = 0;
    expect(await text(`${one.origin}/to?url=/text`)).toMatchObject({ status: 302, text: 'moved' });
    expect(one.seen.map((request) => request.url)).toEqual(['/to?url=/text']);
  });

  it('are followed up to maxRedirects, relative locations included; one more is refused without asking for it', async () => {
    one.seen.length = 0;
    const twice = `/to?url=${encodeURIComponent(`/to?url=${encodeURIComponent(`${two.origin}/text`)}`)}`;
    expect(await text(`${one.origin}${twice}`, { maxRedirects: 2 })).toEqual({ url: `${two.origin}/text`, status: 200, text: 'hello' });
    two.seen.length = 0;
    expect(await failure(`${one.origin}${twice}`, { maxRedirects: 1 })).toBe('too_many_redirects: more than 1 redirects');
    expect(two.seen).toEqual([]);
    expect(await failure(`${one.origin}/to?url=http://%5B::1`, { maxRedirects: 1 })).toBe('bad_redirect: HTTP 302 to a bad location');
  });

  it('turn a POST into a GET on 301, 302 and 303, and keep it, body and all, on 307 and 308', async () => {
    for (const status of [301, 302, 303, 307, 308]) {
      one.seen.length = 0;
      const post = { method: 'POST' as const, headers: { 'content-type': 'text/plain' }, body: 'payload', maxRedirects: 1 };
      await outboundRequest(new URL(`${one.origin}/to?status=${status}&url=/text`), options(post));
      const followed = one.seen[1]!;
      const kept = status === 307 || status === 308;
      expect([followed.method, followed.body, followed.headers['content-type']]).toEqual(kept ? ['POST', 'payload', 'text/plain'] : ['GET', '', undefined]);
    }
  });

  it('check every hop’s scheme and address as the first’s', async () => {
    expect(await failure(`${one.origin}/to?url=file:///etc/hostname`, { maxRedirects: 1 })).toBe('unsupported_scheme: unsupported URI scheme file:');
    two.seen.length = 0;
    const guarded = { maxRedirects: 1, addresses: { blocked: blocking('127.0.0.2'), exemptOrigin: null } };
    expect(await failure(`${one.origin}/to?url=${two.origin}/text`, guarded)).toBe('blocked_address: blocked address 127.0.0.2');
    expect(two.seen).toEqual([]);
    one.seen.length = 0;
    const byName = { maxRedirects: 1, addresses: { blocked: blocking('127.0.0.1', '::1'), exemptOrigin: null } };
    expect(await failure(`${two.origin}/to?url=http://localhost:${one.port}/text`, byName)).toMatch(/^blocked_address: blocked address (127\.0\.0\.1|::1)$/);
    expect(one.seen).toEqual([]);
  });
});

describe('the address policy', () => {
  it('refuses non-public addresses by literal and by name, and an IPv6 form carrying one, before any request', async () => {
    one.seen.length = 0;
    const deny = { addresses: { blocked: NON_PUBLIC_ADDRESSES, exemptOrigin: null } };
    expect(await failure(`${one.origin}/text`, deny)).toBe('blocked_address: blocked address 127.0.0.1');
    expect(await failure(`http://localhost:${one.port}/text`, deny)).toMatch(/^blocked_address: blocked address (127\.0\.0\.1|::1)$/);
    expect(await failure(`http://[64:ff9b::7f00:1]:${one.port}/text`, deny)).toBe('blocked_address: blocked address 64:ff9b::7f00:1');
    expect(one.seen).toEqual([]);
  });

  it('lets the exempt origin through, and no other origin on the same address', async () => {
    const site = { addresses: { blocked: NON_PUBLIC_ADDRESSES, exemptOrigin: one.origin } };
    expect(await text(`${one.origin}/text`, site)).toMatchObject({ status: 200, text: 'hello' });
    expect(await failure(`http://localhost:${one.port}/text`, site)).toMatch(/^blocked_address: /);
    expect(await failure(`${one.origin}/to?url=${two.origin}/text`, { ...site, maxRedirects: 1 })).toBe('blocked_address: blocked address 127.0.0.2');
  });
});
