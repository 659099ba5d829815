import { once } from 'node:events';
import { expect, vi } from 'vitest';
import WebSocket from 'ws';

// A bare JSON-RPC client over WebSocket (the `ws` package) for the gateway's WebSocket tests: it
// keeps every message it receives, in order, and waits for answers and notifications with a bound.

/** How long a test waits for a message, and how often it looks. */
const wait = { timeout: 30_000, interval: 20 };

export interface RpcMessage {
  jsonrpc: '2.0';
  id?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
  method?: string;
  params?: { subscription: string; result: unknown };
}

/** A bare JSON-RPC client over `ws`: every message it receives, in order. */
export class RpcSocket {
  readonly messages: RpcMessage[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  /** Set by the close event: waited for with a bound where a test expects the server to close. */
  closeEvent: { code: number; reason: string } | null = null;
  /** JSON-RPC is sent as text: a binary message is a fault (browsers hand it over as a Blob). */
  binaryMessages = 0;
  #nextId = 1;

  readonly ws: WebSocket;

  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (data, isBinary) => {
      if (isBinary) this.binaryMessages++;
      this.messages.push(...[JSON.parse(String(data)) as RpcMessage | RpcMessage[]].flat());
    });
    this.closed = new Promise((resolve) =>
      ws.once('close', (code, reason) => {
        this.closeEvent = { code, reason: String(reason) };
        resolve(this.closeEvent);
      }),
    );
  }

  static async open(url: string, options?: WebSocket.ClientOptions): Promise<RpcSocket> {
    const ws = new WebSocket(url, options);
    await once(ws, 'open');
    return new RpcSocket(ws);
  }

  /** Sends a request and waits for the answer with its id. */
  async call(method: string, params: unknown[] = []): Promise<RpcMessage> {
    const id = this.#nextId++;
    this.ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    return this.answer(id);
  }

  answer(id: unknown): Promise<RpcMessage> {
    return vi.waitFor(() => {
      const answer = this.messages.find((message) => message.id === id && message.method === undefined);
      if (!answer) throw new Error(`no answer to ${String(id)} yet`);
      return answer;
    }, wait);
  }

  async subscribe(...params: unknown[]): Promise<string> {
    const answer = await this.call('eth_subscribe', params);
    expect(answer.error).toBeUndefined();
    return answer.result as string;
  }

  notifications(subscription: string): unknown[] {
    return this.messages
      .filter((message) => message.method === 'eth_subscription' && message.params?.subscription === subscription)
      .map((message) => message.params!.result);
  }

  /** Waits until the subscription has had at least `count` notifications. */
  until(subscription: string, count: number): Promise<unknown[]> {
    return vi.waitFor(() => {
      const received = this.notifications(subscription);
      if (received.length < count) throw new Error(`${received.length} of ${count} notifications yet`);
      return received;
    }, wait);
  }

  /** Waits (bounded) until the server has closed the connection. */
  closedByServer(): Promise<{ code: number; reason: string }> {
    return vi.waitFor(() => {
      if (!this.closeEvent) throw new Error('the connection is still open');
      return this.closeEvent;
    }, wait);
  }

  async close(): Promise<void> {
    this.ws.close();
    await this.closed;
  }
}
