import { once } from 'node:events';
import { readdirSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Router } from '../../src/api/router.ts';
import { createServerLogger } from '../../src/server/log.ts';
import { createSiteServer, listen, type ServerLimits } from '../../src/server/server.ts';
import { openStaticSite } from '../../src/server/static-site.ts';
import { loadSurfaceRules } from '../../src/server/surface-rules.ts';
import { writeFixtureDist, type FixtureDist } from '../support/fixture-dist.ts';

// The production server in-process over a fixture dist/, against clients that misbehave:
// downloads abandoned halfway, headers sent a byte at a time, more connections than it takes.
// Also what it must never hand a shared cache, a browser or a log.

/** Only the error-log test reaches the API, with a router of its own. */
const noApi: Router = {
  handle: () => {
    throw new Error('the API is not part of this test');
  },
};

/** Larger than any socket buffer, so an abandoned download is always cut off mid-file. */
const largeFileBytes = 16 * 1024 * 1024;

let fixture: FixtureDist;
beforeAll(async () => {
  fixture = await writeFixtureDist();
  await mkdir(join(fixture.distDir, 'downloads'));
  await writeFile(join(fixture.distDir, 'downloads/large.bin'), Buffer.alloc(largeFileBytes, 1));
});
afterAll(async () => {
  if (fixture) await rm(fixture.root, { recursive: true, force: true });
});

interface Served {
  url: string;
  port: number;
  server: Server;
  /** Lines the logger wrote to stderr. */
  errors: string[];
  close(): Promise<void>;
}

async function serve(options: { limits?: Partial<ServerLimits>; router?: Router; maxCachedFileBytes?: number } = {}): Promise<Served> {
  const errors: string[] = [];
  const stderr = new Writable({
    write: (chunk, _encoding, done) => {
      errors.push(String(chunk));
      done();
    },
  });
  const rules = await loadSurfaceRules(fixture.distDir);
  const server = createSiteServer({
    site: await openStaticSite(fixture.distDir, rules, { maxCachedFileBytes: options.maxCachedFileBytes }),
    router: options.router ?? noApi,
    origin: rules.site,
    trustProxy: { mode: 'none' },
    logger: createServerLogger({ requests: false, stderr }),
    limits: options.limits,
  });
  const url = await listen(server, 0, '127.0.0.1');
  return {
    url,
    port: Number(new URL(url).port),
    server,
    errors,
    close: async () => {
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      await closed;
    },
  };
}

const openDescriptors = () => readdirSync('/proc/self/fd').length;

const connectionsOf = (server: Server) =>
  new Promise<number>((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count))));

/** What a raw connection receives until the server closes it; rejects if it is still open after a generous bound. */
function receivedUntilClosed(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = '';
    const bound = setTimeout(() => reject(new Error(`the server kept the connection open; received ${JSON.stringify(received)}`)), 10_000);
    socket.setEncoding('latin1').on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => {}); // a reset closes the connection too
    socket.once('close', () => {
      clearTimeout(bound);
      resolve(received);
    });
  });
}

/** Asks for a file, reads the first bytes of the answer and hangs up. */
async function abandonDownload(port: number, path: string): Promise<void> {
  const socket = connect(port, '127.0.0.1');
  socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
  await once(socket, 'data');
  socket.destroy();
}

describe('streamed files', () => {
  it('release their descriptors when clients abandon 200 downloads', async () => {
    const { port, errors, close } = await serve({ maxCachedFileBytes: 1024 });
    try {
      const baseline = openDescriptors();
      for (let i = 0; i < 200; i++) await abandonDownload(port, '/downloads/large.bin');
      await vi.waitFor(() => expect(openDescriptors()).toBeLessThanOrEqual(baseline), { timeout: 10_000, interval: 50 });
      expect(errors, 'a client hanging up is not a server failure').toEqual([]);
    } finally {
      await close();
    }
  });
});

describe('slow clients', () => {
  it('are answered 408 and closed when their headers never end', async () => {
    const { port, close } = await serve({ limits: { headersTimeoutMs: 200, connectionsCheckingIntervalMs: 20 } });
    const socket = connect(port, '127.0.0.1');
    const received = receivedUntilClosed(socket);
    const header = 'GET / HTTP/1.1\r\nHost: localhost\r\nX-Trickle: ';
    let sent = 0;
    const trickle = setInterval(() => socket.writable && socket.write(header[sent++] ?? 'a'), 10);
    try {
      expect(await received).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      clearInterval(trickle);
      socket.destroy();
      await close();
    }
  });

  it('beyond the connection cap are closed unanswered; requests succeed once the others leave', async () => {
    const { url, port, server, close } = await serve({ limits: { maxConnections: 2 } });
    const held = [connect(port, '127.0.0.1'), connect(port, '127.0.0.1')];
    try {
      await vi.waitFor(async () => expect(await connectionsOf(server)).toBe(2), { timeout: 10_000 });
      const extra = connect(port, '127.0.0.1');
      const received = receivedUntilClosed(extra);
      extra.write('GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
      expect(await received).toBe('');
      for (const socket of held) socket.destroy();
      await vi.waitFor(async () => expect(await connectionsOf(server)).toBe(0), { timeout: 10_000 });
      const response = await fetch(url);
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    } finally {
      for (const socket of held) socket.destroy();
      await close();
    }
  });
});

describe('headers', () => {
  it('keep the markdown redirect out of shared caches, still varying on Accept', async () => {
    const { url, close } = await serve();
    try {
      const response = await fetch(new URL('/blog/hello-world', url), { headers: { accept: 'text/markdown' }, redirect: 'manual' });
      expect(response.status).toBe(307);
      expect(response.headers.get('location')).toBe('/blog/hello-world.md');
      expect(response.headers.get('cache-control')).toBe('private');
      expect(response.headers.get('vary')).toBe('Accept');
    } finally {
      await close();
    }
  });

  it('sandbox SVG files opened on their own', async () => {
    const { url, close } = await serve();
    try {
      for (const method of ['GET', 'HEAD']) {
        const response = await fetch(new URL('/apps/uniswap.svg', url), { method });
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe('image/svg+xml');
        expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
        expect(response.headers.get('x-content-type-options')).toBe('nosniff');
        await response.arrayBuffer();
      }
    } finally {
      await close();
    }
  });
});

describe('error log', () => {
  it('names the origins of URLs in a failure, never their credentials, paths or keys', async () => {
    const urls = 'https://user:hunter2@git.example/path/KEY-IN-PATH or redis://:redis-password@cache.example:6379 or https://rpc.example/v2/SECRETKEY';
    const router: Router = {
      handle: () => {
        throw new Error(`nothing answered at ${urls}`);
      },
    };
    const { url, errors, close } = await serve({ router });
    try {
      const response = await fetch(new URL('/api/ip', url));
      expect(response.status).toBe(500);
      await response.arrayBuffer();
      await vi.waitFor(() => expect(errors).toHaveLength(1), { timeout: 10_000, interval: 20 });
      const record = JSON.parse(errors[0]!) as { msg: string; error: string };
      expect(record.msg).toBe('request failed');
      expect(record.error).toContain('nothing answered at https://git.example or redis://cache.example:6379 or https://rpc.example\n');
      expect(errors[0]).not.toMatch(/hunter2|KEY-IN-PATH|redis-password|SECRETKEY|user:/);
    } finally {
      await close();
    }
  });
});
