import { request } from 'node:http';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureSite, inlineScript, secretText, writeFixtureDist, type FixtureDist } from '../support/fixture-dist.ts';
import { createResponseValidator, type ResponseValidator } from '../support/openapi-validator.ts';
import { startBuiltSite, type BuiltSite } from '../support/site.ts';

// The production server over a fixture dist/, through real HTTP: every rule of docs/website.md from
// docs/website.md#search-index to docs/website.md#sitemap,
// and every /api response validated against the served /openapi.json.

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** node:http, so paths go out byte for byte (no normalisation, no automatic decompression). */
function raw(origin: string, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const url = new URL(origin);
    const req = request({ host: url.hostname, port: url.port, path, method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

let fixture: FixtureDist;
let server: BuiltSite;
let validator: ResponseValidator;
let checked = 0;

const get = (path: string, headers: Record<string, string> = {}) => raw(server.origin, path, { headers });

/** Every /api answer goes through here: status, then the body against the served document. */
async function api(method: string, path: string, options: { headers?: Record<string, string>; body?: string } = {}) {
  const response = await raw(server.origin, path, { method, ...options });
  const text = response.body.toString('utf8');
  const json = method === 'HEAD' || text === '' ? undefined : JSON.parse(text);
  const pathname = path.split('?')[0]!;
  const result = validator.check(method === 'HEAD' ? 'GET' : method, pathname, response.status, String(response.headers['content-type'] ?? ''), json);
  expect(result.errors, `${method} ${path} -> ${response.status}: ${text}`).toEqual([]);
  checked += 1;
  return { ...response, json };
}

beforeAll(async () => {
  fixture = await writeFixtureDist();
  // The faucet's ledger and limits in a scratch file, so runs never see each other's drips.
  server = await startBuiltSite({ distDir: fixture.distDir, env: { DATABASE_PATH: join(fixture.root, 'faucet.sqlite') } });
  const document = JSON.parse((await get('/openapi.json')).body.toString('utf8'));
  validator = createResponseValidator(document);
});

afterAll(async () => {
  await server?.stop();
  if (fixture) await rm(fixture.root, { recursive: true, force: true });
});

describe('HTML pages', () => {
  it('serve with security headers, a strong ETag and revalidating cache', async () => {
    const response = await get('/');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(response.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(response.headers['cache-control']).toMatch(/^public, max-age=\d+, stale-while-revalidate=\d+$/);
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain(`'sha256-${(await import('node:crypto')).createHash('sha256').update(inlineScript).digest('base64')}'`);
    expect(csp).not.toContain("script-src 'self' 'unsafe-inline'");
    expect(csp).not.toContain('challenges.cloudflare.com');
  });

  it('allow the Turnstile host on faucet pages only', async () => {
    for (const path of ['/faucets/', '/faucets/ethereum-sepolia']) {
      const csp = String((await get(path)).headers['content-security-policy']);
      expect(csp, path).toMatch(/script-src [^;]*https:\/\/challenges\.cloudflare\.com/);
      expect(csp, path).toContain('frame-src https://challenges.cloudflare.com');
    }
  });

  it('redirect the other spelling of a URL with 308, keeping the query', async () => {
    for (const [from, to] of [
      ['/blog', '/blog/'],
      ['/ja', '/ja/'],
      ['/blog/hello-world/', '/blog/hello-world'],
      ['/blog/hello-world.html', '/blog/hello-world'],
      ['/index.html', '/'],
      ['/blog/index.html?x=1', '/blog/?x=1'],
      ['/press%20kit', '/press%20kit/'],
    ]) {
      const response = await get(from!);
      expect(response.status, from).toBe(308);
      expect(response.headers.location, from).toBe(to);
    }
  });

  it('answer 404 with the HTML 404 page for unknown paths, and 405 for other methods', async () => {
    const missing = await get('/no/such/page');
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(missing.body.toString()).toContain('Page not found');
    expect(missing.headers['content-security-policy']).toBeDefined();
    const post = await raw(server.origin, '/', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
  });
});

describe('markdown negotiation (docs/website.md#content-negotiation)', () => {
  const pages = [
    ['/blog/hello-world', '/blog/hello-world.md'],
    ['/', '/index.md'],
    ['/ja/', '/ja/index.md'],
    ['/ja/blog/hello-world', '/ja/blog/hello-world.md'],
  ];

  it.each([
    ['text/markdown', 307],
    ['text/markdown, text/html;q=0.9', 307],
    ['text/markdown;q=0.9, text/html;q=0.5, */*;q=0.1', 307],
    ['text/markdown;q=0', 200],
    ['text/markdown;q=0, */*', 200],
    ['*/*', 200],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 200],
    ['text/html, text/markdown;q=0.9', 200],
  ])('Accept: %s -> %i, with Vary: Accept either way', async (accept, status) => {
    for (const [html, twin] of pages) {
      for (const method of ['GET', 'HEAD']) {
        const response = await raw(server.origin, html!, { method, headers: { accept } });
        expect(response.status, `${method} ${html}`).toBe(status);
        expect(String(response.headers.vary), html).toMatch(/(^|, )Accept(,|$)/);
        if (status === 307) expect(response.headers.location).toBe(twin);
        else expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      }
    }
  });

  it('keeps the query string on the redirect; pages without a twin never redirect', async () => {
    expect((await get('/blog/hello-world?ref=x', { accept: 'text/markdown' })).headers.location).toBe('/blog/hello-world.md?ref=x');
    const index = await get('/blog/', { accept: 'text/markdown' });
    expect(index.status).toBe(200);
    expect(String(index.headers.vary ?? '')).not.toMatch(/(^|, )Accept(,|$)/);
  });

  it('appending .md is one request with a 200 and the twin headers', async () => {
    const response = await get('/blog/hello-world.md');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(response.headers.link).toBe(`<${fixtureSite}/blog/hello-world>; rel="canonical"`);
    expect(response.headers['cache-control']).toMatch(/stale-while-revalidate/);
    expect(response.body.toString()).toBe(await readFile(join(fixture.distDir, 'blog/hello-world.md'), 'utf8'));
    expect((await get('/index.md')).headers.link).toBe(`<${fixtureSite}/>; rel="canonical"`);
  });

  it('answers a missing twin with the markdown 404 body', async () => {
    for (const path of ['/blog/nope.md', '/ja/blog/nope.md', '/nope.md']) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(response.headers['content-type']).toBe('text/markdown; charset=utf-8');
      expect(response.body.toString()).toBe(await readFile(join(fixture.distDir, '404.md'), 'utf8'));
    }
  });
});

describe('content types of generated files', () => {
  it.each([
    ['/llms.txt', 'text/plain; charset=utf-8'],
    ['/blog/llms.txt', 'text/plain; charset=utf-8'],
    ['/llms-full.txt', 'text/plain; charset=utf-8'],
    ['/sitemap.xml', 'application/xml; charset=utf-8'],
    ['/sitemap-0.xml', 'application/xml; charset=utf-8'],
    ['/api/search/en', 'application/json; charset=utf-8'],
    ['/api/search/zh-Hant', 'application/json; charset=utf-8'],
    ['/apps/uniswap.svg', 'image/svg+xml'],
    ['/_astro/page.C3dE4f.js', 'text/javascript; charset=utf-8'],
  ])('%s -> %s', async (path, type) => {
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe(type);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('marks hashed assets immutable', async () => {
    expect((await get('/_astro/site.B1xQ2c.css')).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get('/llms.txt')).headers['cache-control']).not.toContain('immutable');
  });
});

describe('compression and validators', () => {
  it('picks brotli, gzip or identity by Accept-Encoding, with Vary and distinct strong ETags', async () => {
    const identity = await get('/blog/hello-world.md');
    const br = await get('/blog/hello-world.md', { 'accept-encoding': 'gzip, deflate, br' });
    const gz = await get('/blog/hello-world.md', { 'accept-encoding': 'gzip' });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(br.headers['content-encoding']).toBe('br');
    expect(gz.headers['content-encoding']).toBe('gzip');
    for (const response of [identity, br, gz]) expect(String(response.headers.vary)).toContain('Accept-Encoding');
    expect(brotliDecompressSync(br.body)).toEqual(identity.body);
    expect(gunzipSync(gz.body)).toEqual(identity.body);
    expect(Number(br.headers['content-length'])).toBe(br.body.byteLength);
    expect(br.body.byteLength).toBeLessThan(identity.body.byteLength);
    expect(new Set([identity.headers.etag, br.headers.etag, gz.headers.etag]).size).toBe(3);
  });

  it('answers 304 to a matching If-None-Match, per encoding', async () => {
    for (const [path, encoding] of [
      ['/blog/hello-world', 'br'],
      ['/blog/hello-world.md', 'gzip'],
      ['/api/search/ja', ''],
      ['/llms.txt', 'br'],
    ]) {
      const headers: Record<string, string> = encoding ? { 'accept-encoding': encoding } : {};
      const first = await get(path!, headers);
      const etag = String(first.headers.etag);
      const again = await get(path!, { ...headers, 'if-none-match': etag });
      expect(again.status, path).toBe(304);
      expect(again.body.byteLength).toBe(0);
      expect(again.headers.etag).toBe(etag);
      expect(again.headers['cache-control']).toBe(first.headers['cache-control']);
      expect((await get(path!, { ...headers, 'if-none-match': `W/${etag}` })).status).toBe(304);
      expect((await get(path!, { ...headers, 'if-none-match': '"other"' })).status).toBe(200);
    }
    // A tag of one encoding does not validate another.
    const br = await get('/blog/hello-world.md', { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect((await get('/blog/hello-world.md', { 'if-none-match': String(br.headers.etag) })).status).toBe(200);
  });

  it('HEAD sends the headers of GET without a body', async () => {
    const head = await raw(server.origin, '/blog/hello-world.md', { method: 'HEAD', headers: { 'accept-encoding': 'br' } });
    const getResponse = await get('/blog/hello-world.md', { 'accept-encoding': 'br' });
    expect(head.status).toBe(200);
    expect(head.body.byteLength).toBe(0);
    expect(head.headers['content-length']).toBe(getResponse.headers['content-length']);
    expect(head.headers.etag).toBe(getResponse.headers.etag);
  });
});

describe('path traversal never leaves dist/', () => {
  it.each([
    '/../secret.txt',
    '/blog/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/%2E%2E/%2e%2e/secret.txt',
    '/.%2e/secret.txt',
    '/blog/%2e%2e%2f%2e%2e%2fsecret.txt',
    '/..%2fsecret.txt',
    '/..%5csecret.txt',
    '/..\\secret.txt',
    '/blog/..%2F..%2F..%2Fetc%2Fpasswd',
    '/linked-secret.txt',
    '/_surface.json',
    '/%zz',
    '/api/..%2f..%2fsecret.txt',
    '/api/%2e%2e/%2e%2e/secret.txt',
  ])('%s', async (path) => {
    const response = await get(path);
    expect([400, 404]).toContain(response.status);
    expect(response.body.toString()).not.toContain(secretText);
    expect(response.body.toString()).not.toContain('root:');
  });
});

describe('/api (validated against the served /openapi.json)', () => {
  it('GET /api/ip answers the socket peer, never a client-supplied header, uncached', async () => {
    const response = await api('GET', '/api/ip', { headers: { 'x-forwarded-for': '6.6.6.6', 'cf-connecting-ip': '6.6.6.6', 'x-real-ip': '6.6.6.6' } });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ ipAddress: '127.0.0.1' });
    expect(response.headers['cache-control']).toBe('no-store');
    const head = await api('HEAD', '/api/ip');
    expect(head.status).toBe(200);
    expect(head.body.byteLength).toBe(0);
  });

  it('serves the document at /openapi.json and /api/openapi.json, with an ETag', async () => {
    const a = await api('GET', '/openapi.json');
    const b = await api('GET', '/api/openapi.json');
    expect(a.json).toEqual(b.json);
    expect(a.json.openapi).toBe('3.1.0');
    expect(a.json.info.version).toBe('1.0.0');
    expect(a.headers['content-type']).toBe('application/json; charset=utf-8');
    const again = await api('GET', '/openapi.json', { headers: { 'if-none-match': String(a.headers.etag) } });
    expect(again.status).toBe(304);
    expect(again.body.byteLength).toBe(0);
  });

  it('answers unmatched /api paths with 404 not_found, whatever the method', async () => {
    for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      for (const path of ['/api/nope', '/api', '/api/', '/api/ip/extra', '/api/faucets/ethereum-sepolia']) {
        const response = await api(method, path);
        expect(response.status, `${method} ${path}`).toBe(404);
        expect(response.json.error).toMatchObject({ code: 'not_found', status: 404, documentation_url: `${fixtureSite}/openapi.json` });
        expect(response.json.error.message).toBeTruthy();
        expect(response.json.error.hint).toBeTruthy();
      }
    }
  });

  it('answers a known path with another method with 405 and Allow', async () => {
    for (const [method, path, allow] of [
      ['POST', '/api/ip', 'GET, HEAD'],
      ['DELETE', '/openapi.json', 'GET, HEAD'],
      ['POST', '/api/search/en', 'GET, HEAD'],
      ['GET', '/api/faucets/ethereum-sepolia/send', 'POST'],
      ['POST', '/api/faucets/ethereum-sepolia/status', 'GET, HEAD'],
    ]) {
      const response = await api(method!, path!);
      expect(response.status, `${method} ${path}`).toBe(405);
      expect(response.headers.allow).toBe(allow);
      expect(response.json.error.code).toBe('method_not_allowed');
    }
  });

  it('answers malformed /api requests with 400 bad_request', async () => {
    const response = await api('GET', '/api/%zz');
    expect(response.status).toBe(400);
    expect(response.json.error.code).toBe('bad_request');
  });

  it('serves the seven search indexes and 404s any other locale', async () => {
    for (const locale of ['en', 'ja', 'es', 'ko', 'zh-Hans', 'zh-Hant', 'pt-BR']) {
      const response = await api('GET', `/api/search/${locale}`);
      expect(response.status, locale).toBe(200);
      expect(response.json[0].label).toBe('Blog Posts');
    }
    for (const locale of ['xx', 'EN', 'de', 'en-US']) {
      const response = await api('GET', `/api/search/${locale}`);
      expect(response.status, locale).toBe(404);
      expect(response.json.error.code).toBe('not_found');
    }
  });

  it('routes the faucet operations to the faucet (a local devnet here) with FaucetError bodies', async () => {
    const address = `0x${'1'.repeat(40)}`;
    const json = { 'content-type': 'application/json' };
    const ok = await api('POST', '/api/faucets/ethereum-sepolia/send', {
      headers: json,
      body: JSON.stringify({ address, turnstileToken: 'XXXX.DUMMY.TOKEN.XXXX' }),
    });
    expect(ok.status).toBe(200);
    expect(ok.json.statusCode).toBe('success');
    const bad = await api('POST', '/api/faucets/ethereum-sepolia/send', { headers: json, body: JSON.stringify({ address: '0x1', turnstileToken: 't' }) });
    expect(bad.status).toBe(400);
    expect(bad.json.statusCode).toBe('invalid_address');
    const unknown = await api('POST', '/api/faucets/nope/send', { headers: json, body: JSON.stringify({ address, turnstileToken: 't' }) });
    expect(unknown.json.statusCode).toBe('unsupported_faucet');
    expect(unknown.json.supportedChains).toHaveLength(23);
    const body = await api('POST', '/api/faucets/base-sepolia/send', { headers: json, body: '{not json' });
    expect(body.json.statusCode).toBe('invalid_request_body');
    const hash = await api('GET', '/api/faucets/base-sepolia/status?transactionHash=0x12');
    expect(hash.status).toBe(400);
    const status = await api('GET', `/api/faucets/ethereum-sepolia/status?transactionHash=0x${'a'.repeat(64)}`);
    expect(status.status).toBe(200);
    expect(status.json.status).toBe('pending');
  });

  it('validated every /api response above against the document, and the check can fail', () => {
    expect(checked).toBeGreaterThan(50);
    expect(validator.check('GET', '/api/ip', 200, 'application/json', { ipAddress: 5 }).errors).not.toEqual([]);
    expect(validator.check('GET', '/api/ip', 200, 'application/json', { ip: '1.2.3.4' }).errors).not.toEqual([]);
    expect(validator.check('GET', '/api/ip', 418, 'application/json', {}).errors).not.toEqual([]);
    expect(validator.check('GET', '/api/nope', 404, 'application/json', { error: { code: 'nope' } }).errors).not.toEqual([]);
    expect(validator.check('GET', '/api/search/en', 200, 'application/json', [{ label: 'x' }]).errors).not.toEqual([]);
  });
});

describe('TRUST_PROXY', () => {
  it('cloudflare: CF-Connecting-IP, and null when the edge sent none', async () => {
    const behindCloudflare = await startBuiltSite({ distDir: fixture.distDir, env: { TRUST_PROXY: 'cloudflare' } });
    try {
      const read = async (headers: Record<string, string>) => JSON.parse((await raw(behindCloudflare.origin, '/api/ip', { headers })).body.toString());
      expect(await read({ 'cf-connecting-ip': '198.51.100.4', 'x-forwarded-for': '6.6.6.6' })).toEqual({ ipAddress: '198.51.100.4' });
      expect(await read({ 'x-forwarded-for': '6.6.6.6' })).toEqual({ ipAddress: null });
    } finally {
      await behindCloudflare.stop();
    }
  });

  it('hops: the N-th X-Forwarded-For entry from the right', async () => {
    const behindOneProxy = await startBuiltSite({ distDir: fixture.distDir, env: { TRUST_PROXY: '1' } });
    try {
      const response = await raw(behindOneProxy.origin, '/api/ip', { headers: { 'x-forwarded-for': '6.6.6.6, 203.0.113.9' } });
      expect(JSON.parse(response.body.toString())).toEqual({ ipAddress: '203.0.113.9' });
    } finally {
      await behindOneProxy.stop();
    }
  });

  it('refuses to start on an invalid value, naming the variable', async () => {
    await expect(startBuiltSite({ distDir: fixture.distDir, env: { TRUST_PROXY: 'everyone' } })).rejects.toThrow(/TRUST_PROXY: must be/);
    await expect(startBuiltSite({ distDir: fixture.distDir, env: { PORT: 'eighty' } })).rejects.toThrow(/PORT: must be/);
  });
});
