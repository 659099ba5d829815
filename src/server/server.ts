import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { documentationUrlOf } from '../api/openapi.ts';
import { CrucibleError, fail } from '../errors/crucible-error.ts';
import { errorBodyResponse } from '../errors/error-body.ts';
import { clientIp, normalizeIp } from '../api/client-ip.ts';
import type { Router } from '../api/router.ts';
import { isApiPath } from '../api/paths.ts';
import type { TrustProxy } from '../config/server.ts';
import type { NodeGateway } from '../node/gateway.ts';
import type { MediaRoute } from '../nfts/media/media-route.ts';
import { nodeAddressOf, nodeTargetAt, type NodeAddress } from '../node/node-url.ts';
import type { NetworkIdOf } from '../site/network-names.ts';
import type { RestDoor } from '../rest/door.ts';
import type { McpEndpoint } from '../mcp/http.ts';
import type { Readiness } from '../runtime/readiness.ts';
import type { ServerLogger } from './log.ts';
import { bodyTextWithin, headerValue, toApiRequest, writeAnswer, writeWebResponse } from './node-adapter.ts';
import { resolveRequestPath, type RequestPath } from '../http/request-path.ts';
import type { StaticReply, StaticSite } from './static-site.ts';

// The production server: static files from dist/ under the rules manifest, the API router for
// `/api/*` paths that are not prerendered files (plus `/openapi.json`), the JSON-RPC gateway for
// `{node_url}/v2/<key>` (`/node/<network>/…`, or any path on `<network>.<NODE_DOMAIN>`), and the
// keyed REST door for the rest of `{node_url}` and the site's keyed products (`/prices/`), and the
// MCP server at `/mcp`.

export interface SiteServerOptions {
  site: StaticSite;
  router: Router;
  /** Absolute site origin (from the manifest): base of request URLs handed to the router. */
  origin: string;
  trustProxy: TrustProxy;
  logger: ServerLogger;
  /** The JSON-RPC gateway at `{node_url}` (docs/hosts-and-paths.md#how-the-server-routes-a-request); absent: those paths are the site's. */
  node?: { gateway: NodeGateway; nodeDomain: string | null; networkIdOf?: NetworkIdOf };
  /** The REST products behind an app key (src/rest/): the rest of `{node_url}` (with `node`), and `/prices/`. */
  rest?: RestDoor;
  /** The stored NFT images at `/nft-media/…` (docs/nft-data.md#media); absent: those paths are the site's. */
  media?: MediaRoute;
  /** The MCP server at `/mcp` (docs/mcp.md#streamable-http); absent: that path is the site's. */
  mcp?: McpEndpoint;
  /** Overrides of serverLimits (tests shorten them). */
  limits?: Partial<ServerLimits>;
  /** GET /healthz and /readyz for a load balancer (docs/operating-at-scale.md#health); absent: those paths are the site's. */
  health?: { readiness(): Promise<Readiness> };
}

export interface ServerLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  connectionsCheckingIntervalMs: number;
  maxConnections: number;
}

/** How long the server waits on a client and how many it holds at once (README, "Server limits"). */
const serverLimits: ServerLimits = {
  /** A client sending its headers a byte at a time (slowloris) is answered 408 and let go after this. */
  headersTimeoutMs: 10_000,
  /** The whole request, body included: the API's bodies are a few hundred bytes, so a trickled body is cut off too. */
  requestTimeoutMs: 30_000,
  /** Idle keep-alive connections are closed after this, so idle clients do not hold connection slots. */
  keepAliveTimeoutMs: 5_000,
  /** How often those timeouts are checked: Node's default (30 s) would let each run up to 30 s late. */
  connectionsCheckingIntervalMs: 1_000,
  /**
   * Connections beyond this are closed on accept: a flood cannot take every descriptor and the
   * memory they hold. WebSocket subscribers of the node gateway count too, hence room for many.
   */
  maxConnections: 10_000,
};

/** Where the MCP server answers on the site's origin (docs/mcp.md#streamable-http). */
const MCP_PATH = '/mcp';

/** Each connection's peer address, normalized (clientIp): kept-alive connections carry many requests. */
const peerIps = new WeakMap<Socket, string | null>();

function peerIpOf(socket: Socket): string | null {
  let ip = peerIps.get(socket);
  if (ip === undefined) peerIps.set(socket, (ip = normalizeIp(socket.remoteAddress)));
  return ip;
}

/** /healthz: the process answers (alive); /readyz: what it stands on answers too, 503 naming each part that failed. */
async function answerHealth(path: '/healthz' | '/readyz', health: { readiness(): Promise<Readiness> }): Promise<Response> {
  const headers = { 'content-type': 'application/json', 'cache-control': 'no-store' };
  if (path === '/healthz') return new Response(JSON.stringify({ status: 'ok' }), { headers });
  const readiness = await health.readiness();
  return new Response(JSON.stringify(readiness), { status: readiness.ready ? 200 : 503, headers });
}

const badRequest: StaticReply = {
  status: 400,
  headers: { 'content-type': 'text/plain; charset=utf-8', 'content-length': 12 },
  body: Buffer.from('Bad Request\n'),
};

export function createSiteServer(options: SiteServerOptions): Server {
  const { site, router, origin, trustProxy, logger, node, rest } = options;
  const limits = { ...serverLimits, ...options.limits };

  /** Answers one request; returns a promise only when some step is asynchronous. */
  function answer(
    req: IncomingMessage,
    res: ServerResponse,
    requestId: string,
    method: string,
    target: RequestPath,
    rawPath: string,
    nodeAddress: NodeAddress | null,
    logged: { app?: string },
  ): void | Promise<void> {
    const head = method === 'HEAD';
    if (!target.ok) {
      if (isApiPath(rawPath)) {
        const error =
          target.reason === 'malformed'
            ? new CrucibleError('bad_request', 'The request path is not valid percent-encoding.')
            : fail('not_found', { method, path: rawPath });
        return writeWebResponse(res, errorBodyResponse(error, documentationUrlOf(origin)), { head, requestId });
      }
      if (target.reason === 'malformed') return writeReply(res, badRequest);
      return site.notFound({ method, path: rawPath, acceptEncoding: headerValue(req, 'accept-encoding') }).then((reply) => writeReply(res, reply));
    }
    if (options.health && (method === 'GET' || head) && (target.path === '/healthz' || target.path === '/readyz')) {
      return answerHealth(target.path, options.health).then((response) => writeWebResponse(res, response, { head, requestId }));
    }
    const callerIp = () =>
      // Without a trusted proxy the address is the connection's: worked out once per connection.
      trustProxy.mode === 'none'
        ? peerIpOf(req.socket)
        : clientIp({ socketAddress: req.socket.remoteAddress, header: (name) => headerValue(req, name) }, trustProxy);
    const restContext = () => ({ path: rawPath, clientIp: callerIp(), requestId, log: logger, identified: (caller: string) => (logged.app = caller) });
    if (node && nodeAddress) {
      const nodeTarget = nodeTargetAt(nodeAddress);
      // JSON-RPC over HTTP, the hot path: node's own headers and body, the answer written as plain data.
      if (nodeTarget.kind === 'rpc' && method === 'POST' && node.gateway.networks.has(nodeTarget.network)) {
        const request = {
          method,
          headers: { get: (name: string) => headerValue(req, name) ?? null },
          body: null,
          textWithin: (maxBytes: number, stop?: (chunk: Uint8Array) => boolean) => bodyTextWithin(req, maxBytes, stop),
        };
        const context = { path: rawPath, clientIp: callerIp(), identified: (caller: string) => (logged.app = caller) };
        return node.gateway
          .post(request, nodeTarget.network, nodeTarget.key, context)
          .then((reply) => writeAnswer(res, reply.status, reply.headers, reply.body, { head, requestId }));
      }
      const answered =
        nodeTarget.kind === 'unknown-path' && rest
          ? rest.handleNode(toApiRequest(req, origin), nodeAddress, restContext())
          : node.gateway.handle(toApiRequest(req, origin), nodeTarget, { path: rawPath, clientIp: callerIp(), identified: (caller) => (logged.app = caller) });
      return answered.then((response) => writeWebResponse(res, response, { head, requestId }));
    }
    if (options.mcp && target.path === MCP_PATH) {
      return options.mcp
        .handle(toApiRequest(req, origin), { clientIp: callerIp(), requestId, identified: (caller) => (logged.app = caller) })
        .then((response) => writeWebResponse(res, response, { head, requestId }));
    }
    if (rest?.answersSitePath(target.path)) {
      return rest.handleSite(toApiRequest(req, origin), target.path, restContext()).then((response) => writeWebResponse(res, response, { head, requestId }));
    }
    const media = options.media?.handle({ method, path: target.path, ifNoneMatch: headerValue(req, 'if-none-match') });
    if (media) return media.then((response) => writeWebResponse(res, response, { head, requestId }));
    if (isApiPath(target.path) && !((method === 'GET' || head) && site.has(target.path))) {
      const context = { requestId, clientIp: callerIp(), log: logger };
      const response = router.handle(toApiRequest(req, origin), context);
      if (response instanceof Promise) return response.then((r) => writeWebResponse(res, r, { head, requestId }));
      return writeWebResponse(res, response, { head, requestId });
    }
    return site
      .reply({
        method,
        path: target.path,
        query: target.query,
        accept: headerValue(req, 'accept'),
        acceptEncoding: headerValue(req, 'accept-encoding'),
        ifNoneMatch: headerValue(req, 'if-none-match'),
      })
      .then((reply) => writeReply(res, reply));
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const started = logger.request ? performance.now() : 0;
    const requestId = randomUUID();
    const method = req.method ?? 'GET';
    const target = resolveRequestPath(req.url);
    const rawPath = target.ok ? target.rawPath : (req.url ?? '').split('?', 1)[0]!;
    const nodeAddress = node && target.ok ? nodeAddressOf(headerValue(req, 'host'), target.path, node.nodeDomain, node.networkIdOf) : null;
    // What the answer learns for the log line: the app a node key names.
    const logged: { app?: string } = {};
    const fail = (error: unknown) => {
      // The logger replaces an app key in the path (or anywhere in the line) with <key> (src/log/redact.ts).
      logger.error('request failed', { requestId, method, path: rawPath, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8', 'x-request-id': requestId });
        res.end('Internal Server Error\n');
      } else res.destroy();
    };
    if (logger.request && !logger.leavesOut({ method, path: rawPath, userAgent: headerValue(req, 'user-agent') })) {
      const log = logger.request;
      res.once('close', () =>
        log({ method, path: rawPath, status: res.statusCode, durationMs: Math.round((performance.now() - started) * 100) / 100, requestId, ...logged }),
      );
    }
    try {
      const pending = answer(req, res, requestId, method, target, rawPath, nodeAddress, logged);
      if (pending) pending.catch(fail);
    } catch (error) {
      fail(error);
    }
  }

  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: limits.connectionsCheckingIntervalMs,
    },
    handle,
  );
  server.maxConnections = limits.maxConnections;
  return server;
}

/** Writes a static reply; a file is streamed, and the promise rejects only if reading it fails. */
function writeReply(res: ServerResponse, reply: StaticReply): void | Promise<void> {
  res.writeHead(reply.status, reply.headers);
  if (!reply.body) res.end();
  else if (Buffer.isBuffer(reply.body)) res.end(reply.body);
  // pipeline, not pipe: a client that hangs up mid-file gets the file closed with its response.
  else return pipeline(createReadStream(reply.body.file), res).catch(ignoreHangUp);
}

/** A client leaving before the end of a file is no failure of the server's. */
function ignoreHangUp(error: unknown): void {
  if ((error as { code?: unknown }).code !== 'ERR_STREAM_PREMATURE_CLOSE') throw error;
}

/** Listens and resolves with the URL a person should open. */
export async function listen(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${shownHost}:${address.port}/`;
}
