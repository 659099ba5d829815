import { createServer, type Server } from 'node:http';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { UpstreamPool } from './upstreams/upstream-pool.ts';

// The gateway's Prometheus metrics: calls, errors and compute units per network and method,
// request latency per network and transport, and each upstream's health. Served on their own
// port (METRICS_PORT, bound to METRICS_HOST, 127.0.0.1 by default), never on the public one.

export interface NodeMetrics {
  registry: Registry;
  /** One JSON-RPC call carried out, or `calls` alike with `computeUnits` their sum (the gateway's observeCall). */
  observeCall(call: { network: string; method: string; computeUnits: number; errorCode: number | null; calls?: number }): void;
  /** One HTTP request or WebSocket message answered, with its HTTP status (101 for WebSocket messages). */
  observeRequest(request: { network: string; transport: 'http' | 'websocket'; status: number; seconds: number }): void;
}

export function createNodeMetrics(pools: ReadonlyMap<string, UpstreamPool>): NodeMetrics {
  const registry = new Registry();
  // Calls are summed in a plain map and handed to the counters when the metrics are read: prom-client
  // hashes a call's labels on every inc(), which cost the gateway more than the call's rate limit.
  const unread = new Map<string, { network: string; method: string; outcome: string; calls: number; computeUnits: number }>();
  const handOver = () => {
    for (const sums of unread.values()) {
      const { network, method, outcome } = sums;
      if (sums.calls) calls.inc({ network, method, outcome }, sums.calls);
      if (sums.computeUnits) computeUnits.inc({ network, method }, sums.computeUnits);
    }
    unread.clear();
  };
  const calls: Counter = new Counter({
    name: 'crucible_node_calls_total',
    help: 'JSON-RPC calls carried out, by network, method and outcome (ok, or the JSON-RPC error code).',
    labelNames: ['network', 'method', 'outcome'],
    registers: [registry],
    collect: handOver,
  });
  const computeUnits: Counter = new Counter({
    name: 'crucible_node_compute_units_total',
    help: 'Compute units charged, by network and method.',
    labelNames: ['network', 'method'],
    registers: [registry],
    collect: handOver,
  });
  const requests = new Histogram({
    name: 'crucible_node_request_duration_seconds',
    help: 'Time to answer a request (HTTP) or message (WebSocket), by network, transport and HTTP status.',
    labelNames: ['network', 'transport', 'status'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  const health = (name: string, help: string, read: (upstream: Awaited<ReturnType<UpstreamPool['health']>>[number]) => number | null) =>
    new Gauge({
      name,
      help,
      labelNames: ['network', 'upstream'],
      registers: [registry],
      async collect() {
        this.reset();
        for (const [network, pool] of pools) {
          for (const upstream of await pool.health()) {
            const value = read(upstream);
            if (value !== null) this.set({ network, upstream: upstream.label }, value);
          }
        }
      },
    });
  health('crucible_node_upstream_head', 'Latest block number the upstream reported.', (upstream) => (upstream.head === null ? null : Number(upstream.head)));
  health('crucible_node_upstream_error_rate', 'Share of the upstream’s last 50 calls that failed.', (upstream) => upstream.errorRate);
  health('crucible_node_upstream_consecutive_failures', 'Calls to the upstream that failed in a row.', (upstream) => upstream.consecutiveFailures);

  return {
    registry,
    observeCall({ network, method, computeUnits: units, errorCode, calls: count = 1 }) {
      const outcome = errorCode === null ? 'ok' : String(errorCode);
      const key = `${network}\u0000${method}\u0000${outcome}`;
      const sums = unread.get(key);
      if (sums) {
        sums.calls += count;
        sums.computeUnits += units;
      } else unread.set(key, { network, method, outcome, calls: count, computeUnits: units });
    },
    observeRequest({ network, transport, status, seconds }) {
      requests.observe({ network, transport, status: String(status) }, seconds);
    },
  };
}

/** `GET /metrics` on its own listener; anything else is 404. */
export function serveMetrics(metrics: NodeMetrics, where: { port: number; host: string }): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: the metrics are at /metrics\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      () => response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics could not be collected\n'),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(where.port, where.host, () => resolve(server));
  });
}
