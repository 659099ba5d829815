import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { toApiRequest } from '../../src/server/node-adapter.ts';

// What the Node adapter hands handlers of a request, over real node:http: headers read without
// building the whole list until something needs it, and the node gateway's body reader.

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** Serves `handler`'s JSON answer; `raw` is the whole request as sent on the wire, one byte per character. */
async function exchange(raw: string, handler: (req: IncomingMessage) => Promise<unknown>): Promise<{ status: number; body: string }> {
  server = createServer((req, res) => {
    handler(req).then(
      (value) => {
        const json = JSON.stringify(value);
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) }).end(json);
      },
      (error: unknown) => res.writeHead(500, { 'content-length': Buffer.byteLength(String(error)) }).end(String(error)),
    );
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
  socket.write(raw, 'latin1');
  let received = Buffer.alloc(0);
  // One answer is enough (the server may keep the connection open); a refused body may reset it after.
  socket.on('error', () => undefined);
  const answered = new Promise<void>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const headEnd = received.indexOf('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(received.toString('latin1', 0, Math.max(headEnd, 0)))?.[1] ?? 0);
      if (headEnd !== -1 && received.length >= headEnd + 4 + length) resolve();
    });
    socket.once('close', () => resolve());
  });
  await answered;
  socket.destroy();
  const headEnd = received.indexOf('\r\n\r\n');
  return { status: Number(received.toString('latin1', 9, 12)), body: received.toString('utf8', headEnd + 4) };
}

const post = (body: string | Buffer, headers = '') => {
  const bytes = Buffer.from(body);
  return `POST /node/x/v2/key HTTP/1.1\r\nHost: crucible.test\r\nContent-Type: application/json\r\n${headers}Content-Length: ${bytes.length}\r\n\r\n${bytes.toString('latin1')}`;
};

describe('request headers', () => {
  it('are read by name without case; repeated ones are joined as Headers joins them', async () => {
    const { body } = await exchange(post('{}', 'X-Tag: a\r\nx-tag: b\r\nOrigin: https://app.example\r\n'), async (req) => {
      const { headers } = toApiRequest(req, 'https://crucible.test');
      return {
        tag: headers.get('X-TAG'),
        origin: headers.get('origin'),
        has: headers.has('x-tag'),
        missing: headers.get('x-none'),
        hasMissing: headers.has('x-none'),
      };
    });
    expect(JSON.parse(body)).toEqual({ tag: 'a, b', origin: 'https://app.example', has: true, missing: null, hasMissing: false });
  });

  it('list, copy and change like any Headers', async () => {
    const { body } = await exchange(post('{}', 'X-Tag: a\r\nx-tag: b\r\n'), async (req) => {
      const { headers } = toApiRequest(req, 'https://crucible.test');
      const copied = new Headers(headers);
      const listed = [...headers];
      headers.set('x-tag', 'c');
      headers.append('x-more', 'd');
      headers.delete('content-type');
      return {
        listed,
        copied: copied.get('x-tag'),
        after: Object.fromEntries(headers.entries()),
        request: new Request('https://crucible.test', { headers }).headers.get('x-more'),
      };
    });
    const seen = JSON.parse(body) as { listed: string[][]; copied: string; after: Record<string, string>; request: string };
    expect(seen.listed).toContainEqual(['x-tag', 'a, b']);
    expect(seen.listed).toContainEqual(['content-type', 'application/json']);
    expect(seen.copied).toBe('a, b');
    expect(seen.after).toMatchObject({ 'x-tag': 'c', 'x-more': 'd', host: 'crucible.test' });
    expect(seen.after['content-type']).toBeUndefined();
    expect(seen.request).toBe('d');
  });
});

describe('the body read within a limit (textWithin)', () => {
  const reader = (req: IncomingMessage) =>
    toApiRequest(req, 'https://crucible.test') as ReturnType<typeof toApiRequest> & { textWithin(max: number): Promise<string | null> };

  it('is the whole body as UTF-8, in however many chunks it arrived', async () => {
    const text = `{"v":"${'é'.repeat(40_000)}"}`;
    const { body } = await exchange(post(text), async (req) => reader(req).textWithin(1_000_000));
    expect(JSON.parse(body)).toBe(text);
  });

  it('is null past the limit, and the client still reads the answer', async () => {
    const { status, body } = await exchange(post('x'.repeat(100_000)), async (req) => reader(req).textWithin(1_000));
    expect(status).toBe(200);
    expect(JSON.parse(body)).toBeNull();
  });

  it('counts a chunked body as it arrives', async () => {
    const chunked = `POST /node/x/v2/key HTTP/1.1\r\nHost: crucible.test\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nabcde\r\n5\r\nfghij\r\n0\r\n\r\n`;
    expect(JSON.parse((await exchange(chunked, async (req) => reader(req).textWithin(8))).body)).toBeNull();
    expect(JSON.parse((await exchange(chunked, async (req) => reader(req).textWithin(10))).body)).toBe('abcdefghij');
  });
});
