import { z } from 'zod';
import { envValue, type Env } from './env.ts';
import { envSuffixOf } from './faucet.ts';
import { computeUnitAmount, port, wholeNumber } from './numbers.ts';
import { ConfigError } from './config-error.ts';

// The node gateway's configuration (docs/hosts-and-paths.md#node-url, docs/keys-and-limits.md#demo-key, docs/json-rpc.md#upstreams), validated; a bad value stops start-up with
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
  /** How long a traced execution (debug_trace*, trace_*, the simulations' traces) may take upstream, NODE_UPSTREAM_TRACE_TIMEOUT_MS. */
  upstreamTraceTimeoutMs: number;
  /**
   * How often a devnet's private transactions are checked (docs/json-rpc.md#private-transactions),
   * NODE_PRIVATE_TX_CHECK_MS: one past its maxBlockNumber is dropped at the next check.
   */
  privateTransactionCheckMs: number;
  /** The public `demo` key's compute units (README, "Server limits"): per client IP and network, and for all its callers together per network. */
  demoLimit: { perClient: ComputeUnitRate; perNetwork: ComputeUnitRate };
  /** What the apps of one account share, besides each app's own rate (its bucket holds 10 s of it, as an app's). */
  accountLimit: ComputeUnitRate;
  /** What a JSON-RPC request is charged at least, before its body is read; undefined: the cheapest paid method's cost (src/node/gateway.ts). */
  minRequestComputeUnits: number | undefined;
  /** Settings read under a name they no longer have: one sentence each, for the start-up log. */
  warnings: string[];
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

export interface ComputeUnitRate {
  computeUnitsPerSecond: number;
  /** The most compute units the bucket holds: what may be spent at once. */
  burst: number;
}

/**
 * The compute units of an ordinary call (eth_getBalance 19, eth_getBlockByNumber 16, a price 20):
 * the demo key's default rate allows 10 of them a second per client IP, as its limit of 10
 * requests a second did, and the old request settings are read in these units.
 */
const DEMO_CALL_COMPUTE_UNITS = 20;

/** Buckets hold this many seconds of their rate unless a setting says otherwise, as an app's does. */
const BURST_SECONDS = 10;

const hostname = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/, 'must be a domain name such as node.example.com');
const upstreamUrl = z.url({ protocol: /^https?$/, error: 'must list http(s) URLs separated by commas' });
// These settings have said "greater than 0" and "(0 or more)" since before the shared schemas.
const positiveInteger = wholeNumber({ min: 1, message: 'must be a whole number greater than 0' });
const countFromZero = wholeNumber({ message: 'must be a whole number (0 or more)' });

/** A variable's value through `schema`, or undefined when unset; a bad value throws naming the variable. */
function readVariable<T>(env: Env, name: string, schema: z.ZodType<T, string>): T | undefined {
  const value = envValue(env, name);
  if (value === undefined) return undefined;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ConfigError(`${name} ${parsed.error.issues[0]?.message ?? 'is invalid'}`);
  return parsed.data;
}

/** NODE_DOMAIN, lowercased; null when unset. The gateway serves it and the build shows it on the pages (docs/hosts-and-paths.md#node-url). */
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

  const metricsPort = read('METRICS_PORT', port(1));
  const warnings: string[] = [];
  /** A compute-unit setting, or the request setting it replaced (in calls of DEMO_CALL_COMPUTE_UNITS), or the default. */
  const demoSetting = (name: string, oldName: string, fallback: number): number => {
    const value = read(name, computeUnitAmount);
    const calls = read(
      oldName,
      positiveInteger.refine((value) => value <= 100_000_000 / DEMO_CALL_COMPUTE_UNITS, 'is too large'),
    );
    if (calls === undefined) return value ?? fallback;
    if (value !== undefined) {
      warnings.push(`${oldName} is no longer read: ${name}=${value} applies (the demo key is limited in compute units).`);
      return value;
    }
    const computeUnits = calls * DEMO_CALL_COMPUTE_UNITS;
    warnings.push(
      `${oldName} is renamed ${name} (the demo key is limited in compute units): ${oldName}=${calls} is read as ${name}=${computeUnits}, ${calls} calls of ${DEMO_CALL_COMPUTE_UNITS} CU; set ${name} instead.`,
    );
    return computeUnits;
  };
  const demoRate = demoSetting('DEMO_KEY_COMPUTE_UNITS_PER_SECOND', 'DEMO_KEY_REQUESTS_PER_SECOND', 10 * DEMO_CALL_COMPUTE_UNITS);
  const perClient = { computeUnitsPerSecond: demoRate, burst: demoSetting('DEMO_KEY_COMPUTE_UNIT_BURST', 'DEMO_KEY_BURST', demoRate * BURST_SECONDS) };
  const networkRate = read('DEMO_KEY_NETWORK_COMPUTE_UNITS_PER_SECOND', computeUnitAmount) ?? 10_000;
  const accountRate = read('ACCOUNT_COMPUTE_UNITS_PER_SECOND', computeUnitAmount) ?? 1_000;
  return {
    nodeDomain: readNodeDomain(env),
    upstreams,
    upstreamTimeoutMs: read('NODE_UPSTREAM_TIMEOUT_MS', positiveInteger) ?? 10_000,
    upstreamTraceTimeoutMs: read('NODE_UPSTREAM_TRACE_TIMEOUT_MS', positiveInteger) ?? 20_000,
    privateTransactionCheckMs: read('NODE_PRIVATE_TX_CHECK_MS', positiveInteger) ?? 250,
    demoLimit: {
      perClient,
      perNetwork: { computeUnitsPerSecond: networkRate, burst: read('DEMO_KEY_NETWORK_COMPUTE_UNIT_BURST', computeUnitAmount) ?? networkRate * BURST_SECONDS },
    },
    accountLimit: { computeUnitsPerSecond: accountRate, burst: accountRate * BURST_SECONDS },
    minRequestComputeUnits: read('NODE_MIN_REQUEST_COMPUTE_UNITS', computeUnitAmount),
    metrics: metricsPort ? { port: metricsPort, host: read('METRICS_HOST', z.string().trim().min(1)) ?? '127.0.0.1' } : null,
    webSocket: {
      maxConnectionsPerKey: read('NODE_WS_MAX_CONNECTIONS_PER_KEY', positiveInteger) ?? 50,
      maxTopicsPerKey: read('NODE_WS_MAX_TOPICS_PER_KEY', positiveInteger) ?? 200,
      subscriptionComputeUnitsPerMinute: read('NODE_WS_SUBSCRIPTION_CU_PER_MINUTE', countFromZero) ?? 10,
    },
    warnings,
  };
}
