import type { Readable, Writable } from 'node:stream';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

// `npm run mcp` (docs/mcp.md#stdio): a desktop agent speaks MCP over the process's stdin and stdout,
// and every message goes on, as it is, to a running Crucible's `<site origin>/mcp` with the key as
// `Authorization: Bearer <key>`; answers come back the same way. The tools, their charges and their
// answers are the server's: this process only carries messages, so both transports answer alike.

export interface StdioBridge {
  /** Resolves when the agent closes stdin (or the bridge is closed). */
  closed: Promise<void>;
  close(): Promise<void>;
}

export async function bridgeStdioToHttp(options: {
  /** The Crucible's origin: messages go to `<origin>/mcp`. */
  origin: string;
  key: string;
  stdin?: Readable;
  stdout?: Writable;
  /** Where the bridge says what went wrong (stdout is the protocol's). */
  log(line: string): void;
}): Promise<StdioBridge> {
  const http = new StreamableHTTPClientTransport(new URL('/mcp', options.origin), {
    requestInit: { headers: { authorization: `Bearer ${options.key}` } },
  });
  const stdio = new StdioServerTransport(options.stdin, options.stdout);
  let done: () => void = () => {};
  const closed = new Promise<void>((resolve) => (done = resolve));

  stdio.onmessage = (message) => {
    http.send(message).catch((error: unknown) => {
      // A request the server refused as a whole (a bad key, over the rate) is answered to the agent as that error.
      if ('id' in message && 'method' in message) void stdio.send({ jsonrpc: '2.0', id: message.id, error: refusalOf(error) } as JSONRPCMessage);
      else options.log(`crucible mcp: ${error instanceof Error ? error.message : String(error)}`);
    });
  };
  http.onmessage = (message) => {
    // Later requests carry the protocol version initialize agreed on, as the SDK's own client sends it.
    const version = (message as { result?: { protocolVersion?: unknown } }).result?.protocolVersion;
    if (typeof version === 'string') http.setProtocolVersion(version);
    void stdio.send(message);
  };
  http.onerror = (error) => options.log(`crucible mcp: ${error.message}`);
  stdio.onerror = (error) => options.log(`crucible mcp: ${error.message}`);
  const close = async () => {
    await http.close().catch(() => undefined);
    done();
  };
  stdio.onclose = () => void close();
  await http.start();
  await stdio.start();
  // The SDK's stdio transport reads until stdin ends but does not say so.
  (options.stdin ?? process.stdin).once('end', () => void stdio.close());
  return { closed, close: () => stdio.close() };
}

/** The JSON-RPC error of a refused message: the server's own when its body is one, else an internal error naming the failure. */
function refusalOf(error: unknown): { code: number; message: string; data?: unknown } {
  const text = error instanceof Error ? error.message : String(error);
  const body = /\{.*\}$/s.exec(text)?.[0];
  if (body) {
    try {
      const parsed = JSON.parse(body) as { error?: { code?: unknown; message?: unknown; data?: unknown } };
      if (typeof parsed.error?.code === 'number' && typeof parsed.error.message === 'string')
        return { code: parsed.error.code, message: parsed.error.message, ...(parsed.error.data === undefined ? {} : { data: parsed.error.data }) };
    } catch {
      // Not JSON: said as it is below.
    }
  }
  const status = error instanceof StreamableHTTPError && error.code !== undefined ? ` (HTTP ${error.code})` : '';
  return { code: -32603, message: `The Crucible server could not be reached or refused the message${status}: ${text}` };
}
