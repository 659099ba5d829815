import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A real HTTP server on loopback standing in for an exchange's API host in the exchange clients' tests:
// it answers by the route a test gives and keeps every request it was sent, query and headers.

interface SeenRequest {
  url: URL;
  headers: IncomingHttpHeaders;
}

export interface ExchangeServer {
  /** The base URL the clients are pointed at. */
  origin: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

export type ExchangeRoute = (url: URL, response: ServerResponse, request: IncomingMessage) => void;

export async function startExchangeServer(route: ExchangeRoute): Promise<ExchangeServer> {
  const seen: SeenRequest[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://exchange.test');
    seen.push({ url, headers: request.headers });
    route(url, response, request);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A body recorded from an exchange's API documentation (test/unit/prices/fixtures/). */
export const fixture = (name: string) => readFileSync(new URL(`../../unit/prices/fixtures/${name}`, import.meta.url), 'utf8');

export function answerJson(response: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);
}
