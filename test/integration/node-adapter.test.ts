import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BufferedResponse } from '../../src/api/buffered-response.ts';
import { toApiRequest, writeWebResponse } from '../../src/server/node-adapter.ts';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('node adapter', () => {
  it('hands the router method, URL, headers and body', async () => {
    let seen: unknown;
    const origin = await serve(async (req, res) => {
      const request = toApiRequest(req, 'https://crucible.dev');
      seen = { method: request.method, url: request.url, type: request.headers.get('content-type'), body: await new Response(request.body).text() };
      res.end();
    });
    await fetch(`${origin}/api/x?y=1`, { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } });
    expect(seen).toEqual({ method: 'POST', url: 'https://crucible.dev/api/x?y=1', type: 'application/json', body: '{"a":1}' });
  });

  it.each([
    ['a streamed Response', () => new Response('streamed body', { status: 201, headers: { 'x-a': '1' } })],
    ['a BufferedResponse', () => new BufferedResponse('streamed body', { status: 201, headers: { 'x-a': '1' } })],
  ])('writes %s with its status, headers, length and the request id', async (_name, make) => {
    const origin = await serve((_req, res) => void writeWebResponse(res, make(), { head: false, requestId: 'rid' }));
    const response = await fetch(origin);
    expect(response.status).toBe(201);
    expect(response.headers.get('x-a')).toBe('1');
    expect(response.headers.get('x-request-id')).toBe('rid');
    expect(response.headers.get('content-length')).toBe('13');
    expect(await response.text()).toBe('streamed body');
  });

  it('keeps every Set-Cookie and sends no body for HEAD', async () => {
    const origin = await serve((_req, res) => {
      const headers = new Headers();
      headers.append('set-cookie', 'a=1');
      headers.append('set-cookie', 'b=2');
      void writeWebResponse(res, new Response('body', { headers }), { head: true });
    });
    const response = await fetch(origin, { method: 'HEAD' });
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(response.headers.get('content-length')).toBe('4');
    expect(await response.text()).toBe('');
  });
});

describe('node adapter and changed headers', () => {
  it('writes headers added to a BufferedResponse after it was made', async () => {
    const origin = await serve((_req, res) => {
      const response = new BufferedResponse('ok', { headers: { 'content-type': 'text/plain' } });
      response.headers.set('x-later', 'yes');
      void writeWebResponse(res, response, { head: false });
    });
    const response = await fetch(origin);
    expect(response.headers.get('x-later')).toBe('yes');
    expect(response.headers.get('content-type')).toBe('text/plain');
  });
});
