import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';
import WebSocket, { WebSocketServer } from 'ws';

// A pass-through in front of a real anvil, serving what anvil serves on one port: JSON-RPC over
// HTTP (the gateway's probes and calls) and WebSocket (its subscriptions). It records each
// JSON-RPC request a WebSocket client sends upstream, so a test can count them, and it can drop
// every WebSocket connection at once, as an upstream restart would. With `pendingHashesOnly` it
// drops the full-transactions flag of eth_subscribe newPendingTransactions before anvil sees it,
// so the client hears hashes where it asked for whole transactions, as from a node that ignores it.

interface WsProxyRequest {
  method: string;
  params: unknown[];
}

export interface WsProxy {
  /** http://127.0.0.1:<port>: the upstream URL to configure (ws:// on the same port). */
  url: string;
  /** Every request received over WebSocket, in order. */
  requests: WsProxyRequest[];
  /** WebSocket connections open now. */
  openConnections(): number;
  /** Cuts every WebSocket connection (both sides), without a closing handshake. */
  dropConnections(): void;
  close(): Promise<void>;
}

export async function startWsProxy(targetHttpUrl: string, options: { pendingHashesOnly?: boolean } = {}): Promise<WsProxy> {
  const targetWsUrl = targetHttpUrl.replace(/^http/, 'ws');
  const requests: WsProxyRequest[] = [];
  const pairs = new Set<{ client: WebSocket; upstream: WebSocket }>();
  const server = createServer(async (request, response) => {
    const upstream = await fetch(targetHttpUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: await text(request) });
    response.writeHead(upstream.status, { 'content-type': 'application/json' });
    response.end(await upstream.text());
  });
  const sockets = new WebSocketServer({ server });
  sockets.on('connection', (client) => {
    const upstream = new WebSocket(targetWsUrl);
    const pair = { client, upstream };
    pairs.add(pair);
    const early: string[] = [];
    client.on('message', (data) => {
      const parsed = JSON.parse(String(data)) as WsProxyRequest | WsProxyRequest[];
      for (const call of [parsed].flat()) {
        requests.push({ method: call.method, params: call.params ?? [] });
        if (options.pendingHashesOnly && call.method === 'eth_subscribe' && call.params[0] === 'newPendingTransactions')
          call.params = ['newPendingTransactions'];
      }
      const message = JSON.stringify(parsed);
      if (upstream.readyState === WebSocket.OPEN) upstream.send(message);
      else early.push(message);
    });
    upstream.on('open', () => {
      for (const message of early.splice(0)) upstream.send(message);
    });
    upstream.on('message', (data) => {
      if (client.readyState === WebSocket.OPEN) client.send(String(data));
    });
    const end = () => {
      pairs.delete(pair);
      client.terminate();
      upstream.terminate();
    };
    for (const socket of [client, upstream]) {
      socket.on('close', end);
      socket.on('error', end);
    }
  });
  const dropConnections = () => {
    for (const { client, upstream } of [...pairs]) {
      client.terminate();
      upstream.terminate();
    }
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    openConnections: () => pairs.size,
    dropConnections,
    async close() {
      dropConnections();
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
