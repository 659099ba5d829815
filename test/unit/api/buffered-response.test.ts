import { describe, expect, it } from 'vitest';
import { BufferedResponse } from '../../../src/api/buffered-response.ts';

describe('BufferedResponse', () => {
  it('is a Response with its status, headers and body', async () => {
    const response = new BufferedResponse('{"a":1}', { status: 201, headers: { 'content-type': 'application/json' } });
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(201);
    expect(response.ok).toBe(true);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(Buffer.from(response.buffered!).toString()).toBe('{"a":1}');
    expect(response.bodyUsed).toBe(false);
    expect(await response.json()).toEqual({ a: 1 });
    expect(response.bodyUsed).toBe(true);
  });

  it('reads as text, bytes or a stream; clones independently', async () => {
    const response = new BufferedResponse('héllo');
    const copy = response.clone();
    expect(await response.text()).toBe('héllo');
    expect(new TextDecoder().decode(await copy.arrayBuffer())).toBe('héllo');
    const chunks: Uint8Array[] = [];
    for await (const chunk of new BufferedResponse(new Uint8Array([1, 2, 3])).body!) chunks.push(chunk);
    expect(Buffer.concat(chunks)).toEqual(Buffer.from([1, 2, 3]));
    expect(new BufferedResponse(null, { status: 304 }).body).toBeNull();
  });
});

describe('BufferedResponse headers', () => {
  it('hands plain headers to the adapter until someone reaches for Headers', () => {
    const response = new BufferedResponse('x', { headers: { 'Content-Type': 'text/plain', 'cache-control': 'no-store' } });
    expect(response.plainHeaders).toEqual({ 'content-type': 'text/plain', 'cache-control': 'no-store' });
    response.headers.set('x-added', '1');
    expect(response.plainHeaders).toBeUndefined();
    expect(response.headers.get('x-added')).toBe('1');
    expect(response.headers.get('content-type')).toBe('text/plain');
  });
});
