import { z } from 'zod';
import { envValue, type Env } from './env.ts';
import { envSuffixOf } from './faucet.ts';
import { ConfigError } from './server.ts';

// The node gateway's configuration (platform §1–3), validated; a bad value stops start-up with
// a message naming the variable. Every variable is listed in .env.example.

export interface NodeConfig {
  /** `https://<network>.<NODE_DOMAIN>/v2/<key>` is served besides `<site>/node/<network>/v2/<key>`; null: the path form only. */
  nodeDomain: string | null;
  /**
   * Upstream URLs per network id, from NODE_UPSTREAMS_<ID> (comma-separated), else RPC_URL_<ID>.
   * A network without any uses its local devnet in local mode, and answers 503 in production.
   */
  upstreams: Record<string, string[]>;
  upstreamTimeoutMs: number;
  /** The public `demo` key's limit per client IP and network (platform §2). */
  demoLimit: { requestsPerSecond: number; burst: number };
  /** Where Prometheus scrapes /metrics; null: not served (the default: never public by accident). */
  metrics: { port: number; host: string } | null;
  webSocket: WebSocketSettings;
}

/**
 * What one key may hold over WebSocket at `{node_url}/v2/<key>` (README "Server limits"): an
 * app's count is the app's, the demo key's is per client IP (IPv6 per prefix), as its CU buckets.
 */
export interface WebSocketSettings {
  /** Open connections; one more upgrade is refused with 429. */
  maxConnectionsPerKey: number;
  /** Distinct subscriptions (kind and filter) held upstream over all the key's connections; one more eth_subscribe is refused with -32005. */
  maxTopicsPerKey: number;
  /** Compute units each open subscription costs per minute after its first (which eth_subscribe pays); 0: none. */
  subscriptionComputeUnitsPerMinute: number;
}

const hostname = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/, 'must be a domain name such as node.example.com');
const upstreamUrl = z.url({ protocol: /^https?$/, error: 'must list http(s) URLs separated by commas' });
const positiveInteger = z
  .string()
  .regex(/^[1-9]\d*$/, 'must be a whole number greater than 0')
  .transform(Number);
const wholeNumber = z.string().regex(/^\d+$/, 'must be a whole number (0 or more)').transform(Number);
const port = z
  .string()
  .regex(/^\d{1,5}$/, 'must be a port number from 1 to 65535')
  .transform(Number)
  .refine((value) => value >= 1 && value <= 65535, 'must be a port number from 1 to 65535');

/** A variable's value through `schema`, or undefined when unset; a bad value throws naming the variable. */
function readVariable<T>(env: Env, name: string, schema: z.ZodType<T, string>): T | undefined {
  const value = envValue(env, name);
  if (value === undefined) return undefined;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ConfigError(`${name} ${parsed.error.issues[0]?.message ?? 'is invalid'}`);
  return parsed.data;
}

/** NODE_DOMAIN, lowercased; null when unset. The gateway serves it and the build shows it on the pages (platform §1). */
export function readNodeDomain(env: Env): string | null {
  return readVariable(env, 'NODE_DOMAIN', hostname) ?? null;
}

export function readNodeConfig(env: Env, networks: ReadonlyArray<{ id: string }>): NodeConfig {
  const read = <T>(name: string, schema: z.ZodType<T, string>): T | undefined => readVariable(env, name, schema);
  const known = new Set(networks.map((network) => envSuffixOf(network.id)));
  for (const name of Object.keys(env)) {
    const suffix = /^NODE_UPSTREAMS_(.+)$/.exec(name)?.[1];
    if (suffix && !known.has(suffix)) throw new ConfigError(`${name} does not name a network (known: ${[...known].join(', ')})`);
  }

  const upstreams: Record<string, string[]> = {};
  for (const network of networks) {
    const suffix = envSuffixOf(network.id);
    const list = read(
      `NODE_UPSTREAMS_${suffix}`,
      z
        .string()
        .transform((value) =>
          value
            .split(',')
            .map((url) => url.trim())
            .filter(Boolean),
        )
        .pipe(z.array(upstreamUrl).min(1, 'must list at least one URL')),
    );
    const faucetRpc = read(`RPC_URL_${suffix}`, upstreamUrl);
    upstreams[network.id] = list ?? (faucetRpc ? [faucetRpc] : []);
  }

  const metricsPort = read('METRICS_PORT', port);
  return {
    nodeDomain: readNodeDomain(env),
    upstreams,
    upstreamTimeoutMs: read('NODE_UPSTREAM_TIMEOUT_MS', positiveInteger) ?? 10_000,
    demoLimit: { requestsPerSecond: read('DEMO_KEY_REQUESTS_PER_SECOND', positiveInteger) ?? 10, burst: read('DEMO_KEY_BURST', positiveInteger) ?? 20 },
    metrics: metricsPort ? { port: metricsPort, host: read('METRICS_HOST', z.string().trim().min(1)) ?? '127.0.0.1' } : null,
    webSocket: {
      maxConnectionsPerKey: read('NODE_WS_MAX_CONNECTIONS_PER_KEY', positiveInteger) ?? 50,
      maxTopicsPerKey: read('NODE_WS_MAX_TOPICS_PER_KEY', positiveInteger) ?? 200,
      subscriptionComputeUnitsPerMinute: read('NODE_WS_SUBSCRIPTION_CU_PER_MINUTE', wholeNumber) ?? 10,
    },
  };
}
