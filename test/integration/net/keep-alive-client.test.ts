import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer as createHttpsServer } from 'node:https';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createKeepAliveClient, type KeepAliveClient } from '../../../src/net/keep-alive-client.ts';
import { OutboundError } from '../../../src/net/outbound-error.ts';
import { startTestAnvil, type TestAnvil } from '../../support/anvil.ts';

// The gateway's HTTP/1.1 client for upstreams (an undici Pool): against a real anvil, and against
// a TCP server that writes exact bytes, for the answer shapes anvil does not send (chunked, 1xx, a
// body up to the close, Connection: close, an idle connection closed by the server) and for
// failures; HTTPS against a node:https server whose certificate (made by openssl) is trusted for
// the test. A pool of one connection where a test follows one connection's life: undici may open a
// second for a call made the moment the first answer ends.

const chainId = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}';
const limits = { timeoutMs: 2_000, maxBytes: 1024 * 1024 };

let chain: TestAnvil;
const clients: KeepAliveClient[] = [];
const servers: Server[] = [];

const client = (url: string, options: { maxSockets?: number; idleTimeoutMs?: number; timeoutMs?: number; maxBytes?: number } = {}) => {
  const created = createKeepAliveClient(new URL(url), { ...limits, ...options, maxSockets: options.maxSockets ?? 8 });
  clients.push(created);
  return created;
};

interface Scripted {
  url: string;
  /** Requests received (head and body as text), connections accepted, and connections closed at both ends. */
  requests: string[];
  connections: number;
  closed: number;
}

/** A TCP server that answers each complete request (its head and Content-Length body) with `reply`. */
async function scriptedServer(reply: (socket: Socket, request: string, index: number) => void): Promise<Scripted> {
  const state: Scripted = { url: '', requests: [], connections: 0, closed: 0 };
  const server = createServer((socket) => {
    state.connections++;
    // Closed here once the client has closed its end too: the client has seen the connection go.
    socket.on('close', () => state.closed++);
    let buffered = '';
    socket.setEncoding('latin1').on('data', (chunk: string) => {
      buffered += chunk;
      for (;;) {
        const headEnd = buffered.indexOf('\r\n\r\n');
        if (headEnd === -1) return;
        const length = Number(/content-length: *(\d+)/i.exec(buffered.slice(0, headEnd))?.[1] ?? 0);
        if (buffered.length < headEnd + 4 + length) return;
        const request = buffered.slice(0, headEnd + 4 + length);
        buffered = buffered.slice(request.length);
        state.requests.push(request);
        reply(socket, request, state.requests.length - 1);
      }
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rpc?x=1`;
  return state;
}

const answer = (body: string, headers = '') =>
  `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${headers}\r\n${body}`;

/** The OutboundError a call failed with. */
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(OutboundError);
      return error as OutboundError;
    },
  );

beforeAll(async () => {
  chain = await startTestAnvil({ chainId: 31337 });
});

afterEach(() => {
  for (const created of clients.splice(0)) created.close();
});

afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await chain.stop();
});

describe('against anvil', () => {
  it('answers JSON-RPC calls, many at once over a few kept-alive connections', async () => {
    const rpc = client(chain.rpcUrl, { maxSockets: 4 });
    const answers = await Promise.all(Array.from({ length: 200 }, () => rpc.post(chainId)));
    for (const { status, text } of answers) {
      expect(status).toBe(200);
      expect(JSON.parse(text)).toEqual({ jsonrpc: '2.0', id: 1, result: '0x7a69' });
    }
  });
});

describe('answer shapes', () => {
  it('sends one POST to the URL’s path with the JSON body, and reuses its connection', async () => {
    const server = await scriptedServer((socket) => socket.write(answer('{"ok":1}')));
    const rpc = client(server.url, { maxSockets: 1 });
    expect(await rpc.post('{"a":"é"}')).toEqual({ status: 200, text: '{"ok":1}' });
    expect(await rpc.post('{"b":2}')).toEqual({ status: 200, text: '{"ok":1}' });
    expect(server.connections).toBe(1);
    expect(server.requests[0]).toMatch(/^POST \/rpc\?x=1 HTTP\/1\.1\r\n/);
    expect(server.requests[0]).toMatch(/\r\ncontent-type: application\/json\r\n/i);
    // The server reads bytes as latin1: é is its two UTF-8 bytes, counted in Content-Length.
    expect(server.requests[0]).toMatch(/\r\ncontent-length: 10\r\n\r\n/i);
    expect(server.requests[0]!.endsWith(Buffer.from('{"a":"é"}').toString('latin1'))).toBe(true);
  });

  it('reads a chunked answer that arrives a few bytes at a time, trailers and all', async () => {
    const body = '{"jsonrpc":"2.0","id":1,"result":"0x1"}';
    const wire = `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${(10).toString(16)};ext=1\r\n${body.slice(0, 10)}\r\n${(body.length - 10).toString(16)}\r\n${body.slice(10)}\r\n0\r\nX-Trailer: y\r\n\r\n`;
    const server = await scriptedServer((socket) => {
      for (let i = 0; i < wire.length; i += 3) setTimeout(() => socket.write(wire.slice(i, i + 3), 'latin1'), i / 3);
    });
    const rpc = client(server.url, { maxSockets: 1 });
    expect(await rpc.post(chainId)).toEqual({ status: 200, text: body });
    expect(await rpc.post(chainId)).toEqual({ status: 200, text: body });
    expect(server.connections).toBe(1);
  });

  it('skips a 103 Early Hints head (an unasked 100 Continue is a broken answer to undici)', async () => {
    const server = await scriptedServer((socket) => socket.write(`HTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\n${answer('{"ok":2}')}`));
    expect(await client(server.url).post(chainId)).toEqual({ status: 200, text: '{"ok":2}' });
  });

  it('reads an answer without a length up to the close, and opens a new connection after it', async () => {
    const server = await scriptedServer((socket) => socket.end('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{"until":"close"}'));
    const rpc = client(server.url);
    expect(await rpc.post(chainId)).toEqual({ status: 200, text: '{"until":"close"}' });
    expect(await rpc.post(chainId)).toEqual({ status: 200, text: '{"until":"close"}' });
    expect(server.connections).toBe(2);
  });

  it('does not reuse a connection the server said it closes, nor one it closed while idle', async () => {
    const server = await scriptedServer((socket, _request, index) => {
      if (index === 0) socket.write(answer('{"n":0}', 'Connection: close\r\n'));
      else socket.end(answer(`{"n":${index}}`));
    });
    const rpc = client(server.url);
    expect((await rpc.post(chainId)).text).toBe('{"n":0}');
    expect((await rpc.post(chainId)).text).toBe('{"n":1}');
    // The server ended that connection after answering: once the client has seen it go, the next call must not be sent on it.
    await vi.waitFor(() => expect(server.closed).toBe(2), { timeout: 10_000, interval: 5 });
    expect((await rpc.post(chainId)).text).toBe('{"n":2}');
    expect(server.connections).toBe(3);
  });

  it('sends a call again on a new connection when a kept-alive one is closed as the call arrives, unanswered', async () => {
    // The server's idle timeout racing the client's: the second request on the first connection is dropped unread.
    const server = await scriptedServer((socket, _request, index) => (index === 1 ? socket.destroy() : socket.write(answer(`{"n":${index}}`))));
    const rpc = client(server.url, { maxSockets: 1 });
    expect((await rpc.post(chainId)).text).toBe('{"n":0}');
    expect((await rpc.post(chainId)).text).toBe('{"n":2}');
    expect(server.requests).toHaveLength(3);
    expect(server.connections).toBe(2);
  });

  it('does not send a call again when a new connection drops it, nor when part of the answer came', async () => {
    const dropping = await scriptedServer((socket) => socket.destroy());
    expect((await failure(client(dropping.url).post(chainId))).kind).toBe('unreachable');
    expect(dropping.requests).toHaveLength(1);
    const cutting = await scriptedServer((socket, _request, index) =>
      index === 0 ? socket.write(answer('{"n":0}')) : socket.end('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{"cut'),
    );
    const rpc = client(cutting.url, { maxSockets: 1 });
    await rpc.post(chainId);
    expect((await failure(rpc.post(chainId))).code).toBe('ECONNRESET');
    expect(cutting.requests).toHaveLength(2);
  });

  it('hands other statuses back with their body (the pool decides what a 5xx means)', async () => {
    const server = await scriptedServer((socket) => socket.write('HTTP/1.1 503 Service Unavailable\r\nContent-Length: 4\r\n\r\nbusy'));
    expect(await client(server.url).post(chainId)).toEqual({ status: 503, text: 'busy' });
  });

  it('sends credentials in the URL as Basic authorization', async () => {
    const server = await scriptedServer((socket) => socket.write(answer('{}')));
    const url = new URL(server.url);
    url.username = 'user';
    url.password = 'p@ss word';
    await client(url.href).post(chainId);
    // Header names are case-insensitive: undici writes them as given, lowercase here.
    const header = server.requests[0]!.split('\r\n').find((line) => /^authorization:/i.test(line));
    expect(header).toBe(`authorization: Basic ${Buffer.from('user:p@ss word').toString('base64')}`);
  });

  it('closes idle connections after its idle timeout', async () => {
    const server = await scriptedServer((socket) => socket.write(answer('{}')));
    const rpc = client(server.url, { idleTimeoutMs: 50 });
    await rpc.post(chainId);
    await vi.waitFor(() => expect(server.closed).toBe(1), { timeout: 10_000, interval: 5 });
    await rpc.post(chainId);
    expect(server.connections).toBe(2);
  });
});

describe('failures are OutboundErrors', () => {
  it('an answer larger than the limit', async () => {
    const server = await scriptedServer((socket) => socket.write(answer('x'.repeat(5_000))));
    const error = await failure(client(server.url, { maxBytes: 4_096 }).post(chainId));
    expect(error.kind).toBe('too_large');
    expect(error.message).toMatch(/larger than 4096 bytes/);
  });

  it('a server that says nothing for longer than the timeout', async () => {
    const server = await scriptedServer(() => undefined);
    const error = await failure(client(server.url, { timeoutMs: 100 }).post(chainId));
    expect(error.kind).toBe('timeout');
  });

  it('a call with its own deadline is held to it, not to the client’s (a trace’s, shorter or longer)', async () => {
    const server = await scriptedServer(() => undefined);
    // The client would wait ten minutes: only the call's own 100 ms lets this test end.
    const error = await failure(client(server.url, { timeoutMs: 600_000 }).post(chainId, { timeoutMs: 100 }));
    expect(error.kind).toBe('timeout');
    expect(error.message).toMatch(/within 100 ms/);
  });

  it('a connection closed mid-answer, and a closed port', async () => {
    const server = await scriptedServer((socket) => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{"cut'));
    expect((await failure(client(server.url).post(chainId))).message).toBe('connection reset');
    const closed = await scriptedServer(() => undefined);
    const url = closed.url;
    await new Promise((resolve) => servers.pop()!.close(resolve));
    expect(await failure(client(url).post(chainId))).toMatchObject({ kind: 'unreachable', code: 'ECONNREFUSED', message: 'connection refused' });
  });

  it('an answer that is not HTTP', async () => {
    const server = await scriptedServer((socket) => socket.write('SSH-2.0-OpenSSH\r\n\r\n'));
    expect((await failure(client(server.url).post(chainId))).message).toMatch(/not match the HTTP\/1\.1 protocol/);
  });
});

describe('HTTPS', () => {
  let dir: string;
  let cert: string;
  let key: string;
  // The process's trusted certificates: global, so the test puts them back as they were.
  const trusted = getCACertificates('default');

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'crucible-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    [cert, key] = await Promise.all([readFile(join(dir, 'cert.pem'), 'utf8'), readFile(join(dir, 'key.pem'), 'utf8')]);
  });

  afterAll(async () => {
    setDefaultCACertificates(trusted);
    await rm(dir, { recursive: true, force: true });
  });

  const serveTls = async () => {
    const server = createHttpsServer({ cert, key }, (request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk));
      request.on('end', () => response.end(JSON.stringify({ body, host: request.headers.host })));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server as unknown as Server);
    return `https://localhost:${(server.address() as AddressInfo).port}/`;
  };

  it('talks to a server whose certificate is trusted, by name', async () => {
    setDefaultCACertificates([...trusted, cert]);
    const url = await serveTls();
    const answers = await Promise.all([1, 2, 3].map((i) => client(url, { maxSockets: 2 }).post(`{"i":${i}}`)));
    expect(answers.map((a) => JSON.parse(a.text))).toEqual([1, 2, 3].map((i) => ({ body: `{"i":${i}}`, host: new URL(url).host })));
  });

  it('refuses a certificate nobody trusts', async () => {
    setDefaultCACertificates(trusted);
    const error = await client(await serveTls())
      .post(chainId)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OutboundError);
    expect((error as OutboundError).code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
  });
});

describe('connections', () => {
  it('opens at most maxSockets at once; later calls wait for a free one', async () => {
    const server = await scriptedServer((socket) => setTimeout(() => socket.write(answer('{}')), 20));
    const rpc = client(server.url, { maxSockets: 3 });
    const answers = await Promise.all(Array.from({ length: 12 }, () => rpc.post(chainId)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(server.connections).toBe(3);
  });
});
