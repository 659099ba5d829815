import { fork } from 'node:child_process';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import WebSocket, { WebSocketServer } from 'ws';
import { randomBytes } from 'node:crypto';

// The baseline server of the WebSocket fan-out benchmark, in a process of its own: what 1,000
// socket writes per head cost on this machine with nothing else around them. One upstream
// newHeads subscription to anvil; each client's eth_subscribe answered with an id; each head
// parsed and serialized once, then sent to every client as the bytes the gateway sends (its
// message head, the result, the closing braces), with no key, limit, charge or metering. None of
// the gateway's code runs here, so the baseline stays the same when that code changes.

export interface BareFanOut {
  /** ws://127.0.0.1:<port> */
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** Starts the server as a child process subscribed to `upstreamWsUrl`; resolves once it listens and is subscribed. */
export async function startBareFanOut(upstreamWsUrl: string): Promise<BareFanOut> {
  const child = fork(fileURLToPath(import.meta.url), ['--bare-fanout', upstreamWsUrl], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const [message] = (await Promise.race([once(child, 'message'), once(child, 'exit').then(([code]) => Promise.reject(new Error(`exited with ${code}`)))])) as [
    { url: string },
  ];
  return {
    url: message.url,
    pid: child.pid!,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill();
      await once(child, 'exit');
    },
  };
}

async function serve(upstreamWsUrl: string): Promise<string> {
  /** Each client's notification bytes up to the result. */
  const clients = new Map<WebSocket, Buffer>();
  const tail = Buffer.from('}}');
  const upstream = new WebSocket(upstreamWsUrl, { perMessageDeflate: false });
  await once(upstream, 'open');
  upstream.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }));
  upstream.on('message', (data) => {
    const message = JSON.parse(String(data)) as { method?: string; params?: { result?: unknown } };
    if (message.method !== 'eth_subscription') return;
    const result = Buffer.from(JSON.stringify(message.params?.result ?? null));
    for (const [ws, head] of clients) ws.send(Buffer.concat([head, result, tail]), { binary: false });
  });

  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, clientTracking: false });
  server.on('connection', (ws) => {
    ws.on('message', (data) => {
      const request = JSON.parse(String(data)) as { id?: unknown; method?: string };
      if (request.method !== 'eth_subscribe') return;
      const id = `0x${randomBytes(16).toString('hex')}`;
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: request.id ?? null, result: id }));
      clients.set(ws, Buffer.from(`{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"${id}","result":`));
    });
    ws.on('close', () => clients.delete(ws));
    // Subscribers are cut off (terminate) at the end of each run.
    ws.on('error', () => undefined);
  });
  await once(server, 'listening');
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

if (process.argv.includes('--bare-fanout')) {
  // A benchmark that dies leaves no server behind.
  process.once('disconnect', () => process.exit(0));
  const url = await serve(process.argv.at(-1)!);
  process.send!({ url });
}
