import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

// A WebSocket upgrade that is not accepted is answered as a plain HTTP response on the socket
// (docs/json-rpc.md#websocket: the same statuses and bodies as over HTTP), then the socket is closed.

export function refuseUpgrade(socket: Duplex, status: number, body: string, headers: Record<string, string> = {}): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    'connection: close',
    `content-type: ${headers['content-type'] ?? 'application/json'}`,
    `content-length: ${Buffer.byteLength(body)}`,
    ...Object.entries(headers)
      .filter(([name]) => name !== 'content-type' && name !== 'content-length' && name !== 'connection')
      .map(([name, value]) => `${name}: ${value}`),
  ];
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
}

/** Writes a web Response (the gateway's own answer) as the refusal. */
export async function refuseUpgradeWith(socket: Duplex, response: Response): Promise<void> {
  const body = await response.text();
  refuseUpgrade(socket, response.status, body, Object.fromEntries(response.headers));
}
