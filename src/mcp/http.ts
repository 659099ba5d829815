import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { callerLabel } from '../admission/admission.ts';
import { BufferedResponse } from '../api/buffered-response.ts';
import type { ApiRequest } from '../api/operation.ts';
import { CrucibleError, fail } from '../errors/crucible-error.ts';
import { toRpcFailure } from '../errors/json-rpc.ts';
import { isJsonContentType, type JsonBodyRead, readJsonBody } from '../http/json-body.ts';
import { jsonDepthScan } from '../http/json-depth.ts';
import { jsonType } from '../http/media.ts';
import { MCP_SCOPE } from './calls.ts';
import type { McpPorts } from './ports.ts';
import type { McpProtocol } from './protocol.ts';

// `<site origin>/mcp`, the Streamable HTTP transport (docs/mcp.md#streamable-http), stateless: every
// POST carries its key and is answered on its own, so any server process answers any message and
// nothing is kept between them. In order: the key (`Authorization: Bearer <key>`; 401), the
// message's least charge from the key's rate before it is read (429), the body within its cap and
// nesting (413, 400), then the MCP SDK's transport and server. GET (no server-sent stream to
// offer) and DELETE (no session to end) answer 405. Refusals are JSON-RPC errors, as the gateway's.

/** Headers a browser client (the MCP Inspector) may send, and the methods it may use. */
const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'authorization, content-type, accept, mcp-protocol-version, mcp-session-id, last-event-id',
  'access-control-max-age': '86400',
};

export interface McpEndpoint {
  handle(request: ApiRequest, context: { clientIp: string | null; requestId: string; identified?(caller: string): void }): Promise<Response>;
}

export function createMcpEndpoint(ports: McpPorts, protocol: McpProtocol): McpEndpoint {
  const refuse = (error: CrucibleError, headers: Record<string, string> = {}) => {
    const failure = toRpcFailure(error);
    const retryAfter: Record<string, string> = error.retryAfterSeconds === undefined ? {} : { 'retry-after': String(error.retryAfterSeconds) };
    return new BufferedResponse(JSON.stringify({ jsonrpc: '2.0', id: null, error: failure.error }), {
      status: failure.httpStatus,
      headers: { 'content-type': jsonType, 'cache-control': 'no-store', ...CORS_HEADERS, ...retryAfter, ...headers },
    });
  };

  return {
    async handle(request, context) {
      if (request.method === 'OPTIONS') return new BufferedResponse(null, { status: 204, headers: CORS_HEADERS });
      if (request.method !== 'POST')
        return refuse(new CrucibleError('method_not_allowed', 'Invalid request: use POST here; this server offers no stream and keeps no session.'), {
          allow: 'POST, OPTIONS',
        });
      const key = bearerKey(request.headers.get('authorization'));
      const origin = request.headers.get('origin');
      const identified = await ports.admission.identify(key, { network: null, origin });
      // An MCP client that knows OAuth looks for this header; the key is a bearer token of its own kind.
      if (!identified.ok) return refuse(identified.error, identified.error.status === 401 ? { 'www-authenticate': 'Bearer realm="Crucible"' } : {});
      const { caller } = identified;
      context.identified?.(callerLabel(caller));
      // Nothing is read for a caller before it pays (README, "Server limits").
      const unpaid = await ports.admission.takeRate(caller, MCP_SCOPE, ports.leastCharge, context.clientIp);
      if (unpaid) return refuse(unpaid);

      const read = await readBody(request, ports.maxBodyBytes, ports.jsonMaxDepth);
      if (!read.ok) {
        if (read.reason === 'too_large') return refuse(fail('body_too_large', { maxBytes: ports.maxBodyBytes }));
        if (read.reason === 'unparseable') return refuse(fail('parse_error'));
        const problem =
          read.reason === 'too_deep'
            ? `the body nests arrays and objects more than ${ports.jsonMaxDepth} deep, the limit`
            : 'the body must be JSON (Content-Type: application/json)';
        return refuse(fail('invalid_request', { problem }));
      }

      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      const server = protocol.serverFor({ key, caller, origin, clientIp: context.clientIp, requestId: context.requestId });
      await server.connect(transport);
      // Given the parsed body, the transport reads only the request's method, URL and headers, which
      // the server's request has. The server is not closed: once its JSON answer is made it holds no
      // stream, timer or pending call, and closing would only build the SDK's "Connection closed" error.
      const answer = await transport.handleRequest(request as Request, { parsedBody: read.value });
      const headers: Record<string, string> = { ...CORS_HEADERS, 'cache-control': 'no-store', ...Object.fromEntries(answer.headers) };
      return new BufferedResponse(answer.body ? await answer.text() : null, { status: answer.status, headers });
    },
  };
}

/** The request as the server's Node adapter offers it: its body read without a web stream, within a cap. */
interface NodeRequest extends ApiRequest {
  textWithin?(maxBytes: number, stop?: (chunk: Uint8Array) => boolean): Promise<string | null>;
}

/** The JSON body within `maxBytes` and `maxDepth`, read as the gateway reads its bodies when the adapter can (no web stream). */
async function readBody(request: NodeRequest, maxBytes: number, maxDepth: number): Promise<JsonBodyRead> {
  if (!request.textWithin) return readJsonBody(request, maxBytes, maxDepth);
  if (!isJsonContentType(request.headers.get('content-type'))) return { ok: false, reason: 'unsupported_media_type' };
  if (Number(request.headers.get('content-length') ?? 0) > maxBytes) return { ok: false, reason: 'too_large' };
  const scan = jsonDepthScan(maxDepth);
  let deep = false;
  const text = await request.textWithin(maxBytes, (chunk) => (deep = scan(chunk)));
  if (text === null) return { ok: false, reason: deep ? 'too_deep' : 'too_large' };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, reason: 'unparseable' };
  }
}

/** The key of `Authorization: Bearer <key>`; empty (an invalid key) when the header is absent or another scheme. */
function bearerKey(header: string | null): string {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  return match?.[1] ?? '';
}
