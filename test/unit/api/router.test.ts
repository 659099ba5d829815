import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineOperation, type RequestContext } from '../../../src/api/operation.ts';
import { createRouter } from '../../../src/api/router.ts';
import { jsonResponse } from '../../../src/api/responses.ts';
import { createMemoryRateLimiter } from '../../../src/limits/memory-rate-limiter.ts';

const origin = 'https://crucible.dev';
const errors: Array<Record<string, unknown> | undefined> = [];
const context: RequestContext = { requestId: 'req-1', clientIp: '192.0.2.1', log: { info() {}, error: (_msg, fields) => errors.push(fields) } };

const echo = defineOperation({
  operationId: 'echo',
  method: 'POST',
  path: '/api/things/{id}/echo',
  summary: 'Echo',
  tags: [],
  params: z.object({ id: z.string().regex(/^[a-z]+$/) }),
  query: z.object({ n: z.coerce.number().int().optional() }),
  body: { schema: z.object({ text: z.string() }), maxBytes: 64 },
  responses: {},
  handler: ({ params, query, body, context }) => jsonResponse({ id: params.id, n: query.n ?? null, text: body.text, ip: context.clientIp }),
});
const read = defineOperation({
  operationId: 'read',
  method: 'GET',
  path: '/api/things/{id}/echo',
  summary: 'Read',
  tags: [],
  params: z.object({ id: z.string() }),
  responses: {},
  handler: ({ params }) => jsonResponse({ read: params.id }),
});
const boom = defineOperation({
  operationId: 'boom',
  method: 'GET',
  path: '/api/boom',
  summary: 'Boom',
  tags: [],
  responses: {},
  handler: () => {
    throw new Error('secret internals at /srv/app.ts:12');
  },
});
const custom = defineOperation({
  operationId: 'custom',
  method: 'GET',
  path: '/api/custom',
  summary: 'Custom',
  tags: [],
  query: z.object({ q: z.string() }),
  responses: {},
  handler: () => jsonResponse({}),
  invalid: (failures) => jsonResponse({ failures: failures.map((f) => `${f.part}:${f.reason}`) }, { status: 422 }),
});

const router = createRouter([echo, read, boom, custom], { origin });
const call = (path: string, init: RequestInit = {}) => router.handle(new Request(`${origin}${path}`, init), context);
const post = (path: string, body: string, type = 'application/json') => call(path, { method: 'POST', body, headers: { 'content-type': type } });

describe('router', () => {
  it('routes by template and method, with validated, typed inputs', async () => {
    const response = await post('/api/things/abc/echo?n=3', '{"text":"hi"}');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: 'abc', n: 3, text: 'hi', ip: '192.0.2.1' });
    expect(await (await call('/api/things/zz%20z/echo')).json()).toEqual({ read: 'zz z' });
  });

  it('HEAD runs the GET operation', async () => {
    expect((await call('/api/things/abc/echo', { method: 'HEAD' })).status).toBe(200);
  });

  it('answers 404 not_found for unmatched paths, any method', async () => {
    for (const method of ['GET', 'POST', 'DELETE', 'OPTIONS', 'PATCH']) {
      const response = await call('/api/nothing/here', { method });
      expect(response.status).toBe(404);
      const body = await response.json();
      expect(body.error).toMatchObject({ code: 'not_found', status: 404, documentation_url: `${origin}/openapi.json` });
      expect(body.error.message).toContain(`${method} /api/nothing/here`);
    }
  });

  it('answers 405 with Allow for a known path and another method', async () => {
    const response = await call('/api/things/abc/echo', { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST, GET, HEAD');
    expect((await response.json()).error.code).toBe('method_not_allowed');
  });

  it.each([
    ['invalid path parameter', '/api/things/ABC/echo', '{"text":"hi"}', 'application/json', /path is not valid \(id\)/],
    ['malformed path escape', '/api/things/%zz/echo', '{"text":"hi"}', 'application/json', /path could not be parsed/],
    ['unparseable query', '/api/things/abc/echo?n=%zz', '{"text":"hi"}', 'application/json', /query string could not be parsed/],
    ['invalid query', '/api/things/abc/echo?n=x', '{"text":"hi"}', 'application/json', /query string is not valid \(n\)/],
    ['unparseable body', '/api/things/abc/echo', '{"text":', 'application/json', /body could not be parsed/],
    ['invalid body', '/api/things/abc/echo', '{"text":1}', 'application/json', /body is not valid \(text\)/],
    ['oversized body', '/api/things/abc/echo', JSON.stringify({ text: 'x'.repeat(100) }), 'application/json', /larger than/],
    ['wrong media type', '/api/things/abc/echo', '{"text":"hi"}', 'text/plain', /application\/json/],
  ])('%s -> 400 bad_request', async (_name, path, body, type, message) => {
    const response = await post(path, body, type);
    expect(response.status).toBe(400);
    const json = await response.json();
    expect(json.error.code).toBe('bad_request');
    expect(json.error.message).toMatch(message);
  });

  it('lets an operation shape its own input errors', async () => {
    const response = await call('/api/custom?q=%zz');
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ failures: ['query:unparseable'] });
  });

  it('turns an exception into 500 internal_error, logged with the request id, no internals in the body', async () => {
    errors.length = 0;
    const response = await call('/api/boom');
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text).error).toMatchObject({ code: 'internal_error', status: 500 });
    expect(text).not.toContain('secret');
    expect(text).not.toContain('app.ts');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ requestId: 'req-1' });
    expect(String(errors[0]!.error)).toContain('secret internals');
  });
});

describe('request bodies', () => {
  const limited = (limiter = createMemoryRateLimiter()) =>
    createRouter([echo, read], {
      origin,
      bodies: { jsonMaxDepth: 3, perClient: { limiter, requestsPerSecond: 1, burst: 2, ipv6PrefixLength: 64 } },
    });
  const send = (target: ReturnType<typeof createRouter>, body: string, clientIp = '192.0.2.1') =>
    target.handle(new Request(`${origin}/api/things/abc/echo`, { method: 'POST', body, headers: { 'content-type': 'application/json' } }), {
      ...context,
      clientIp,
    });

  it('refuses nesting past jsonMaxDepth with the limit named, and parses a body at it', async () => {
    const router = limited();
    const deep = await send(router, '{"text":[[["x"]]]}');
    expect(deep.status).toBe(400);
    expect((await deep.json()).error.message).toBe('The request body nests arrays and objects more than 3 deep, the limit.');
    expect((await (await send(router, '{"text":[["x"]]}')).json()).error.message).toMatch(/body is not valid \(text\)/);
  });

  it('takes one from the client’s bucket before the body is read: 429 rate_limited with Retry-After, per client', async () => {
    const router = limited();
    for (let i = 0; i < 2; i++) expect((await send(router, '{"text":"hi"}')).status).toBe(200);
    let read = false;
    const body = new ReadableStream<Uint8Array>(
      {
        pull: () => {
          read = true;
        },
      },
      { highWaterMark: 0 },
    );
    const refused = await router.handle(
      new Request(`${origin}/api/things/abc/echo`, { method: 'POST', body, headers: { 'content-type': 'application/json' }, duplex: 'half' } as RequestInit),
      context,
    );
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect((await refused.json()).error).toMatchObject({ code: 'rate_limited', message: expect.stringMatching(/1 a second, in bursts of 2/) });
    expect(read).toBe(false);
    expect((await send(router, '{"text":"hi"}', '192.0.2.2')).status).toBe(200);
    // Requests without a body pay nothing.
    expect((await router.handle(new Request(`${origin}/api/things/abc/echo`), context)).status).toBe(200);
  });
});
