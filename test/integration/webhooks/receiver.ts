import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A webhook receiver on loopback, as a customer would write one: it reads the raw body, checks the
// signatures with the webhook's key (its own HMAC, not Crucible's code) and the timestamp against its
// own clock, and answers what the test says. Every request is recorded with what it carried.

export interface Received {
  body: string;
  payload: { webhookId: string; id: string; createdAt: string; type: string; event: Record<string, unknown> };
  headers: IncomingMessage['headers'];
  /** X-Alchemy-Signature (the incumbent's) matched HMAC-SHA256 of the raw body with the key the test registered. */
  signatureValid: boolean;
  /**
   * X-Crucible-Signature matched HMAC-SHA256 of `<X-Crucible-Timestamp>.<raw body>`, and that
   * timestamp (unix seconds) was within the guide's replay window (5 minutes) of the receiver's clock.
   */
  timestampValid: boolean;
}

/** The replay window the webhook guide tells receivers to keep. */
const REPLAY_WINDOW_SECONDS = 5 * 60;

/** The status to answer (or `hold`: never answer), given the request's number (from 1) and payload. */
export type Responder = (count: number, received: Received) => number | 'hold' | Promise<number | 'hold'>;

export interface TestReceiver {
  url: string;
  received: Received[];
  /** Keys by webhook id, to check signatures. */
  keys: Map<string, string>;
  respond: Responder;
  /** The receiver's clock (ms), which X-Crucible-Timestamp is checked against; Date.now unless a test moves it. */
  now: () => number;
  close(): Promise<void>;
}

export async function startReceiver(respond: Responder = () => 200): Promise<TestReceiver> {
  const held: ServerResponse[] = [];
  const receiver: TestReceiver = {
    url: '',
    received: [],
    keys: new Map(),
    respond,
    now: Date.now,
    close: async () => {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const payload = JSON.parse(body) as Received['payload'];
    const key = receiver.keys.get(payload.webhookId);
    const expected = key === undefined ? null : createHmac('sha256', key).update(body).digest('hex');
    const timestamp = String(request.headers['x-crucible-timestamp']);
    const timestamped = key === undefined ? null : createHmac('sha256', key).update(`${timestamp}.${body}`).digest('hex');
    const entry: Received = {
      body,
      payload,
      headers: request.headers,
      signatureValid: expected !== null && request.headers['x-alchemy-signature'] === expected,
      timestampValid:
        /^\d+$/.test(timestamp) &&
        Math.abs(receiver.now() / 1000 - Number(timestamp)) <= REPLAY_WINDOW_SECONDS &&
        timestamped !== null &&
        request.headers['x-crucible-signature'] === timestamped,
    };
    receiver.received.push(entry);
    const status = await receiver.respond(receiver.received.length, entry);
    if (status === 'hold') {
      held.push(response);
      return;
    }
    response.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return receiver;
}

/** Each delivery id once, in the order first received. */
export function firstReceipts(received: readonly Received[]): string[] {
  return [...new Set(received.map((entry) => entry.payload.id))];
}
