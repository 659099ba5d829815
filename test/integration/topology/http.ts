import { request } from 'node:http';

// One HTTP request on a connection of its own (no keep-alive): behind a balancer that hands out
// connections (node:cluster, nginx), each such request may reach another process.

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export function fetchFresh(url: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', agent: false, headers: { connection: 'close', ...init.headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** A JSON-RPC call over a connection of its own. */
export function rpcFresh(url: string, method: string, params: unknown[] = [], id = 1): Promise<Answer> {
  return fetchFresh(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id, method, params }) });
}
