import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { BlockList, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NON_PUBLIC_ADDRESSES } from '../../../src/net/blocked-addresses.ts';
import { MAX_REDIRECTS, safeFetch, type SafeFetchOptions } from '../../../src/nfts/safe-fetch.ts';
import { refusingPort } from '../../support/free-port.ts';

// The safe fetch against real HTTP servers on loopback: 127.0.0.1 and 127.0.0.2 (both loopback on
// Linux), so that a block list holding one of them lets a test fetch from the other and be
// redirected to the first. No test asserts a duration: a short timeout only makes one come sooner.

const CAP = 64 * 1024;
const DOCUMENT = '{"name":"Relic"}';

/** A server on `host` answering by path; `seen` lists the paths it was asked for. */
async function startServer(host: string) {
  const seen: string[] = [];
  const server = createServer((request, response) => {
    seen.push(request.url ?? '');
    route(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const origin = `http://${host}:${(server.address() as AddressInfo).port}`;
  return { server, seen, origin, port: (server.address() as AddressInfo).port };
}

function route(request: IncomingMessage, response: ServerResponse) {
  const url = new URL(request.url ?? '/', 'http://x');
  const hops = /^\/hops\/(\d+)$/.exec(url.pathname);
  if (hops) {
    const left = Number(hops[1]);
    response.writeHead(302, { location: left === 1 ? '/doc.json' : `/hops/${left - 1}` }).end();
    return;
  }
  switch (url.pathname) {
    case '/doc.json':
      response.writeHead(200, { 'content-type': 'application/json' }).end(DOCUMENT);
      return;
    case '/echo-headers':
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(request.headers));
      return;
    case '/to':
      response.writeHead(Number(url.searchParams.get('status') ?? 302), { location: url.searchParams.get('url') ?? '' }).end();
      return;
    case '/relative':
      response.writeHead(301, { location: 'doc.json' }).end();
      return;
    case '/no-location':
      response.writeHead(302).end();
      return;
    case '/status':
      response.writeHead(Number(url.searchParams.get('code'))).end('error page');
      return;
    case '/hang':
      return; // headers never come
    case '/drip':
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{'); // the rest never comes
      return;
    case '/bytes': {
      const size = Number(url.searchParams.get('size'));
      const declared = url.searchParams.get('declared') !== 'no';
      response.writeHead(200, { 'content-type': 'image/png', ...(declared && { 'content-length': size }) });
      response.end(Buffer.alloc(size, 7));
      return;
    }
    case '/endless': {
      // Chunked, no length: writes until the client goes away.
      response.writeHead(200, { 'content-type': 'image/png' });
      const chunk = Buffer.alloc(16 * 1024, 1);
      const write = () => {
        while (!response.destroyed && response.write(chunk));
        if (!response.destroyed) response.once('drain', write);
      };
      write();
      return;
    }
    case '/gzip':
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end('not really gzip');
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

const options = (overrides: Partial<SafeFetchOptions> = {}): SafeFetchOptions => ({ timeoutMs: 10_000, maxBytes: CAP, blockedAddresses: null, ...overrides });

async function reason(url: string, overrides: Partial<SafeFetchOptions> = {}): Promise<string> {
  const result = await safeFetch(new URL(url), options(overrides));
  return result.ok ? 'ok' : `${result.error.code}: ${result.error.reason}`;
}

async function body(url: string, overrides: Partial<SafeFetchOptions> = {}) {
  const result = await safeFetch(new URL(url), options(overrides));
  if (!result.ok) throw new Error(result.error.reason);
  return { url: result.url.href, contentType: result.contentType, text: Buffer.from(result.bytes).toString('latin1'), size: result.bytes.length };
}

const blocking = (...addresses: string[]) => {
  const list = new BlockList();
  for (const address of addresses) list.addAddress(address, address.includes(':') ? 'ipv6' : 'ipv4');
  return list;
};

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

describe('safeFetch: answers', () => {
  it('reads a document with its content type, asking for no compression', async () => {
    expect(await body(`${one.origin}/doc.json`)).toEqual({
      url: `${one.origin}/doc.json`,
      contentType: 'application/json',
      text: DOCUMENT,
      size: DOCUMENT.length,
    });
    const headers = JSON.parse((await body(`${one.origin}/echo-headers`, { accept: 'application/json' })).text) as Record<string, string>;
    expect(headers).toMatchObject({ accept: 'application/json', 'accept-encoding': 'identity' });
  });

  it('fails on a status other than 2xx with the status', async () => {
    expect(await reason(`${one.origin}/status?code=404`)).toBe('http_status: HTTP 404');
    expect(await reason(`${one.origin}/status?code=500`)).toBe('http_status: HTTP 500');
    expect(await reason(`${one.origin}/status?code=204`)).toBe('ok');
    expect(await reason(`${one.origin}/no-location`)).toBe('http_status: HTTP 302');
  });

  it('refuses a body in an encoding it did not ask for', async () => {
    expect(await reason(`${one.origin}/gzip`)).toBe('http_status: unasked content-encoding gzip');
  });

  it('says when nothing answers or the answer breaks off', async () => {
    const dead = await refusingPort();
    try {
      expect(await reason(`http://127.0.0.1:${dead.port}/doc.json`)).toBe('unreachable: connection refused');
    } finally {
      await dead.release();
    }
    expect(await reason(`${one.origin}/cut`)).toBe('unreachable: connection reset');
  });

  it('fetches only http and https', async () => {
    expect(await reason('ftp://127.0.0.1/doc.json')).toBe('unsupported_uri: unsupported URI scheme ftp:');
    expect(await reason('file:///etc/hostname')).toBe('unsupported_uri: unsupported URI scheme file:');
  });
});

describe('safeFetch: time and size', () => {
  it('times out when the headers never come, and when the body never ends', async () => {
    expect(await reason(`${one.origin}/hang`, { timeoutMs: 300 })).toBe('timeout: timeout');
    expect(await reason(`${one.origin}/drip`, { timeoutMs: 300 })).toBe('timeout: timeout');
  });

  it('counts one deadline over every redirect', async () => {
    expect(await reason(`${one.origin}/to?url=/hang`, { timeoutMs: 300 })).toBe('timeout: timeout');
  });

  it('takes a body of exactly the cap, with or without a length', async () => {
    expect((await body(`${one.origin}/bytes?size=${CAP}`)).size).toBe(CAP);
    expect((await body(`${one.origin}/bytes?size=${CAP}&declared=no`)).size).toBe(CAP);
  });

  it('refuses a body one byte over the cap, declared or streamed', async () => {
    expect(await reason(`${one.origin}/bytes?size=${CAP + 1}`)).toBe('too_large: too large');
    expect(await reason(`${one.origin}/bytes?size=${CAP + 1}&declared=no`)).toBe('too_large: too large');
  });

  it('stops reading an endless body at the cap (else it would end in a timeout)', async () => {
    expect(await reason(`${one.origin}/endless`, { timeoutMs: 60_000 })).toBe('too_large: too large');
  });
});

describe('safeFetch: redirects', () => {
  it(`follows up to ${MAX_REDIRECTS}, relative locations included`, async () => {
    expect(await body(`${one.origin}/hops/${MAX_REDIRECTS}`)).toMatchObject({ url: `${one.origin}/doc.json`, text: DOCUMENT });
    expect(await body(`${one.origin}/relative`)).toMatchObject({ url: `${one.origin}/doc.json`, text: DOCUMENT });
    expect(await body(`${one.origin}/to?status=308&url=${two.origin}/doc.json`)).toMatchObject({ url: `${two.origin}/doc.json` });
  });

  it(`refuses a ${MAX_REDIRECTS + 1}th, without asking for it`, async () => {
    one.seen.length = 0;
    expect(await reason(`${one.origin}/hops/${MAX_REDIRECTS + 1}`)).toBe(`too_many_redirects: more than ${MAX_REDIRECTS} redirects`);
    expect(one.seen).toEqual(['/hops/4', '/hops/3', '/hops/2', '/hops/1']);
  });

  it('checks every hop’s scheme', async () => {
    expect(await reason(`${one.origin}/to?url=ftp://127.0.0.1/doc.json`)).toBe('unsupported_uri: unsupported URI scheme ftp:');
    expect(await reason(`${one.origin}/to?url=file:///etc/hostname`)).toBe('unsupported_uri: unsupported URI scheme file:');
  });

  it('checks every hop’s address: an IP literal, and a name by its lookup', async () => {
    two.seen.length = 0;
    expect(await reason(`${one.origin}/to?url=${two.origin}/doc.json`, { blockedAddresses: blocking('127.0.0.2') })).toBe(
      'blocked_address: blocked address 127.0.0.2',
    );
    expect(two.seen).toEqual([]);
    one.seen.length = 0;
    expect(await reason(`${two.origin}/to?url=http://localhost:${one.port}/doc.json`, { blockedAddresses: blocking('127.0.0.1', '::1') })).toMatch(
      /^blocked_address: blocked address (127\.0\.0\.1|::1)$/,
    );
    expect(one.seen).toEqual([]);
  });
});

describe('safeFetch: private addresses', () => {
  it('in deny mode, connects to no loopback address, by name or literal', async () => {
    one.seen.length = 0;
    const deny = { blockedAddresses: NON_PUBLIC_ADDRESSES };
    expect(await reason(`http://localhost:${one.port}/doc.json`, deny)).toMatch(/^blocked_address: blocked address (127\.0\.0\.1|::1)$/);
    expect(await reason(`${one.origin}/doc.json`, deny)).toBe('blocked_address: blocked address 127.0.0.1');
    expect(await reason(`http://0x7f.1:${one.port}/doc.json`, deny)).toBe('blocked_address: blocked address 127.0.0.1');
    expect(await reason(`http://[::ffff:127.0.0.1]:${one.port}/doc.json`, deny)).toBe('blocked_address: blocked address ::ffff:7f00:1');
    expect(await reason(`http://[::1]:${one.port}/doc.json`, deny)).toBe('blocked_address: blocked address ::1');
    expect(await reason(`http://169.254.169.254/latest/meta-data/`, deny)).toBe('blocked_address: blocked address 169.254.169.254');
    expect(one.seen).toEqual([]);
  });

  it('in deny mode, connects to no IPv6 form carrying a non-public IPv4: NAT64, 6to4, Teredo, IPv4-translated, IPv4-compatible', async () => {
    const deny = { blockedAddresses: NON_PUBLIC_ADDRESSES, timeoutMs: 2_000 };
    for (const host of [
      '64:ff9b::a9fe:a9fe',
      '64:ff9b::7f00:1',
      '2002:7f00:1::1',
      '2001:0:4136:e378:8000:63bf:80ff:fffe',
      '::ffff:0:7f00:1',
      '::7f00:1',
      '100::1',
    ]) {
      expect(await reason(`http://[${host}]:${one.port}/doc.json`, deny)).toBe(`blocked_address: blocked address ${host}`);
    }
    // Redirected to one: its IPv4 is checked against the list, before connecting.
    expect(await reason(`${one.origin}/to?url=http://[64:ff9b::a9fe:a9fe]/latest/meta-data/`, { blockedAddresses: blocking('169.254.169.254') })).toBe(
      'blocked_address: blocked address 64:ff9b::a9fe:a9fe',
    );
  });

  it("in site mode (local mode's default), connects to the site's own origin on loopback and nowhere else private", async () => {
    const site = { blockedAddresses: NON_PUBLIC_ADDRESSES, siteOrigin: one.origin };
    expect(await body(`${one.origin}/doc.json`, site)).toMatchObject({ url: `${one.origin}/doc.json`, text: DOCUMENT });
    expect(await body(`${one.origin}/hops/2`, site)).toMatchObject({ url: `${one.origin}/doc.json`, text: DOCUMENT });
    two.seen.length = 0;
    one.seen.length = 0;
    // Another port, another loopback address, the same address by another name: other origins.
    expect(await reason(`${two.origin}/doc.json`, site)).toBe('blocked_address: blocked address 127.0.0.2');
    expect(await reason(`http://127.0.0.1:${two.port}/doc.json`, site)).toBe('blocked_address: blocked address 127.0.0.1');
    expect(await reason(`http://localhost:${one.port}/doc.json`, site)).toMatch(/^blocked_address: blocked address (127\.0\.0\.1|::1)$/);
    expect(await reason(`https://127.0.0.1:${one.port}/doc.json`, site)).toBe('blocked_address: blocked address 127.0.0.1');
    expect(two.seen).toEqual([]);
    expect(one.seen).toEqual([]);
    // The site redirecting elsewhere on this machine is refused before connecting.
    expect(await reason(`${one.origin}/to?url=${two.origin}/doc.json`, site)).toBe('blocked_address: blocked address 127.0.0.2');
    expect(two.seen).toEqual([]);
  });

  it('in allow mode, fetches the same name', async () => {
    expect(await body(`http://localhost:${one.port}/doc.json`)).toMatchObject({ text: DOCUMENT });
  });
});

describe('safeFetch: HTTPS', () => {
  let dir: string;
  let cert: string;
  let key: string;
  let origin: string;
  const trusted = getCACertificates('default');

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'crucible-nft-tls-'));
    const [keyFile, certFile] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
    const subject = ['-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost'];
    const keyPair = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', keyFile, '-out', certFile];
    execFileSync('openssl', ['req', '-x509', ...keyPair, '-days', '1', ...subject], { stdio: 'ignore' });
    [cert, key] = await Promise.all([readFile(certFile, 'utf8'), readFile(keyFile, 'utf8')]);
    const server = createHttpsServer({ cert, key }, route);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server as unknown as Server);
    origin = `https://localhost:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    setDefaultCACertificates(trusted);
    await rm(dir, { recursive: true, force: true });
  });

  it('checks the certificate against the name while connecting to the looked-up address', async () => {
    setDefaultCACertificates([...trusted, cert]);
    expect(await body(`${origin}/doc.json`, { blockedAddresses: blocking('127.0.0.2') })).toMatchObject({ text: DOCUMENT });
    expect(await reason(`${origin}/doc.json`, { blockedAddresses: NON_PUBLIC_ADDRESSES })).toMatch(/^blocked_address: /);
  });

  it('refuses a certificate nobody trusts', async () => {
    setDefaultCACertificates(trusted);
    expect(await reason(`${origin}/doc.json`)).toBe('unreachable: connection failed: DEPTH_ZERO_SELF_SIGNED_CERT');
  });
});
