import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { Logger } from '../../api/operation.ts';
import type { WebSocketSettings } from '../../config/node.ts';
import { resolveRequestPath } from '../../http/request-path.ts';
import type { GatewayNetwork, NodeGateway } from '../gateway.ts';
import { nodeTargetOf } from '../node-url.ts';
import type { NetworkIdOf } from '../../site/network-names.ts';
import { rpcFailure } from '../rpc/errors.ts';
import { MAX_BODY_BYTES } from '../rpc/limits.ts';
import { countedCaller, createTopicHolds } from './caller-holds.ts';
import { serveNodeConnection, type NodeConnection } from './connection.ts';
import { createMemoryWebSocketHolds, type WebSocketHolds } from './holds.ts';
import { webSocketLimits, type WebSocketLimits } from './limits.ts';
import { createNotificationCharges } from './notification-charges.ts';
import { createTransactionFeed, type SubscriptionFeed } from './transaction-feed.ts';
import { createUpstreamFeed } from './upstream-feed.ts';
import { staggered } from './staggered.ts';
import { refuseUpgrade, refuseUpgradeWith } from './upgrade-refusal.ts';

// JSON-RPC over WebSocket on `{node_url}/v2/<key>` (docs/json-rpc.md#websocket), on the server's 'upgrade'
// event. The key, the app's state and network and the Origin are checked before the upgrade: a
// refusal is the HTTP answer the same request gets over POST (401, 403, 404), and no connection is
// opened; then the key's open connections are counted, one more than it may hold is refused 429
// (README "Server limits"). Subscriptions of every connection share one upstream connection per
// network.

export interface NodeWebSocketOptions {
  gateway: NodeGateway;
  nodeDomain: string | null;
  /** The network id a name in the URL stands for (the incumbent's names too); default ids only. */
  networkIdOf?: NetworkIdOf;
  /** The caller's address as the server's TRUST_PROXY reads it (the demo key is limited per IP). */
  clientIp(req: IncomingMessage): string | null;
  /** The demo key's IPv6 clients count per prefix of this length. */
  ipv6PrefixLength: number;
  settings: WebSocketSettings;
  /** Where connections and topics are counted: this process (the default), or every process sharing a Redis (redis-holds.ts). */
  holds?: WebSocketHolds;
  /** Registers a listener called when apps' keys changed in this process (NodeRuntime.onKeysForgotten); returns its removal. */
  onKeysForgotten?(listener: () => void): () => void;
  limits?: Partial<WebSocketLimits>;
  logger?: Logger;
}

export interface NodeWebSockets {
  /** Closes every client connection (1001) and the upstream ones, and stops taking upgrades. */
  close(): Promise<void>;
}

/** How long clients get to answer the closing handshake before their sockets are cut. */
const CLOSE_GRACE_MS = 1_000;

export function attachNodeWebSockets(server: Server, options: NodeWebSocketOptions): NodeWebSockets {
  const { gateway, nodeDomain, settings, logger } = options;
  const limits: WebSocketLimits = { ...webSocketLimits, ...options.limits };
  const holds = options.holds ?? createMemoryWebSocketHolds();
  // Names this process's topics in a count shared with others.
  const topicHolds = createTopicHolds(holds, randomUUID());
  // A larger message closes its connection with 1009.
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_BODY_BYTES, clientTracking: false });
  const connections = new Set<NodeConnection>();
  const charges = createNotificationCharges(gateway);
  const feeds = new Map<string, SubscriptionFeed>();

  const feedOf = (network: GatewayNetwork): SubscriptionFeed => {
    let feed = feeds.get(network.id);
    if (!feed) {
      const upstream = createUpstreamFeed({ urls: () => network.pool.websocketUrls(), network: network.id, limits, logger });
      feed = createTransactionFeed(upstream, {
        network: network.id,
        reorgDepth: Number(network.finalityDepth),
        limits,
        logger,
        isPrivate: (hash) => network.isPrivateTransaction?.(hash) ?? false,
      });
      feeds.set(network.id, feed);
    }
    return feed;
  };

  // Each connection's keepalive and upkeep come once per interval, a slice of the connections per tick.
  const keepalive = staggered<NodeConnection>(limits.pingIntervalMs, (connection) => connection.heartbeat());
  const upkeep = staggered<NodeConnection>(limits.subscriptionChargeIntervalMs, (connection) => void connection.chargeSubscriptions());
  // A key disabled, rotated or deleted in this process closes its connections now, not at the next keepalive.
  const stopWatchingKeys = options.onKeysForgotten?.(() => {
    for (const connection of connections) void connection.recheckKey();
  });

  const upgrade = async (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const requestPath = resolveRequestPath(req.url);
    if (!requestPath.ok) return refuseUpgrade(socket, requestPath.reason === 'malformed' ? 400 : 404, '', { 'content-type': 'text/plain' });
    const target = nodeTargetOf(req.headers.host, requestPath.path, nodeDomain, options.networkIdOf);
    // Only `{node_url}/v2/<key>` takes WebSockets; the site's paths take none.
    if (!target) return refuseUpgrade(socket, 404, 'Not Found\n', { 'content-type': 'text/plain; charset=utf-8' });
    const network = gateway.networks.get(target.network);
    if (!network || target.kind !== 'rpc') {
      // The gateway's own 404 (the Error body), as an HTTP request to this path gets.
      const clientIp = options.clientIp(req);
      const notFound = await gateway.handle(
        { method: 'GET', headers: new Headers(), body: null },
        { kind: 'unknown-path', network: target.network },
        { path: requestPath.rawPath, clientIp },
      );
      return refuseUpgradeWith(socket, notFound);
    }
    if (req.headers.upgrade?.toLowerCase() !== 'websocket')
      return refuseUpgrade(socket, 400, 'Only WebSocket upgrades are served here\n', { 'content-type': 'text/plain' });
    const origin = req.headers.origin ?? null;
    const authorized = await gateway.authorize(network, target.key, origin);
    if (!authorized.ok) {
      const { failure } = authorized;
      return refuseUpgrade(socket, failure.httpStatus, JSON.stringify({ jsonrpc: '2.0', id: null, error: failure.error }));
    }
    // The client may have left during the lookup.
    if (socket.destroyed) return;
    const session = { caller: authorized.caller, network, clientIp: options.clientIp(req) };
    const caller = countedCaller(authorized.caller, session.clientIp, options.ipv6PrefixLength);
    const place = { set: `connections:${caller.name}`, member: randomUUID() };
    if (!(await holds.hold(place.set, place.member, settings.maxConnectionsPerKey))) {
      const { error } = rpcFailure('too_many_connections', { max: settings.maxConnectionsPerKey, per: caller.per });
      return refuseUpgrade(socket, 429, JSON.stringify({ jsonrpc: '2.0', id: null, error }));
    }
    // Given back when the connection closes, or when the socket closes without becoming one (it left, or ws refused the handshake).
    let upgraded = false;
    socket.once('close', () => {
      if (!upgraded) void holds.release(place.set, place.member);
    });
    if (socket.destroyed) return void holds.release(place.set, place.member);
    sockets.handleUpgrade(req, socket, head, (ws) => {
      upgraded = true;
      const connection = serveNodeConnection(ws, {
        gateway,
        session,
        credentials: { key: target.key, origin },
        feed: feedOf(network),
        charges,
        topics: {
          acquire: (topic) => topicHolds.acquire(caller.name, `${network.id} ${topic}`, settings.maxTopicsPerKey),
          release: (topic) => topicHolds.release(caller.name, `${network.id} ${topic}`),
        },
        limits: { ...limits, maxTopicsPerKey: settings.maxTopicsPerKey, subscriptionComputeUnits: settings.subscriptionComputeUnitsPerMinute },
        logger,
      });
      connections.add(connection);
      keepalive.add(connection);
      upkeep.add(connection);
      void connection.closed.then(() => {
        connections.delete(connection);
        keepalive.delete(connection);
        upkeep.delete(connection);
        void holds.release(place.set, place.member);
      });
    });
  };

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // A client that resets mid-handshake must not take the server down.
    socket.on('error', () => socket.destroy());
    upgrade(req, socket, head).catch((error: unknown) => {
      logger?.error('WebSocket upgrade failed', { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      refuseUpgrade(socket, 500, 'Internal Server Error\n', { 'content-type': 'text/plain' });
    });
  };
  server.on('upgrade', onUpgrade);

  return {
    async close() {
      server.off('upgrade', onUpgrade);
      keepalive.stop();
      upkeep.stop();
      stopWatchingKeys?.();
      const open = [...connections];
      for (const connection of open) connection.close(1001, 'the server is shutting down');
      const grace = setTimeout(() => {
        for (const connection of open) connection.terminate();
      }, CLOSE_GRACE_MS);
      await Promise.all(open.map((connection) => connection.closed));
      clearTimeout(grace);
      for (const feed of feeds.values()) feed.close();
      feeds.clear();
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
      // Holds handed in belong to their maker (the node runtime closes the Redis ones).
      if (!options.holds) holds.close();
    },
  };
}
