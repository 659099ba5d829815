import { isIPv4 } from 'node:net';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { z } from 'zod';
import { ConfigError } from './config-error.ts';
import { envValue, type Env } from './env.ts';
import { count, port } from './numbers.ts';

// The server's configuration, validated; a bad value stops start-up with a message naming the
// variable. Every variable is listed in .env.example.

/** Whose word to take for the caller's address (docs/website.md#client-ip); src/api/client-ip.ts applies it. */
export type TrustProxy = { mode: 'none' } | { mode: 'cloudflare' } | { mode: 'hops'; hops: number };

export interface ServerConfig {
  port: number;
  host: string;
  trustProxy: TrustProxy;
  /** Absolute path of the built site. */
  distDir: string;
  /**
   * One JSON line per request on stdout: `on` for every request but the platform's own fetches of
   * the local world's documents, `all` for those too, `off` for tests and benchmarks.
   */
  requestLog: 'on' | 'all' | 'off';
  /** ALLOW_LOCAL_MODE_ON_NETWORK=yes: local mode may listen on a HOST other machines reach (refuseLocalModeOnNetwork). */
  allowLocalModeOnNetwork: boolean;
  /** How deeply a request's JSON body may nest; undefined: the parts' default (src/http/json-depth.ts, 64). */
  jsonMaxDepth: number | undefined;
  /** Requests with a body under /api/ and /prices/ per client IP, taken before the body is read. */
  apiBodyLimit: { requestsPerSecond: number; burst: number };
  /**
   * SERVER_PROCESSES: how many processes serve HTTP (docs/operating-at-scale.md). 1: one process
   * serves and runs the workers, as before; more: a supervisor runs that many server processes
   * sharing the port and the workers in a process of their own.
   */
  processes: number;
}

/** What `astro dev` takes from the server's variables for the API it serves. */
export interface DevApiConfig {
  trustProxy: TrustProxy;
}

/** Also the port the build names when PORT=0 (a free port, known only once listening). */
export const defaultPort = 4321;

/**
 * `TRUST_PROXY`: unset or `none` (the TCP peer only; a header sent by the client is never
 * trusted), `cloudflare` (CF-Connecting-IP), or a hop count N (X-Forwarded-For).
 */
export const trustProxySetting = z
  .string()
  .trim()
  .transform((value, ctx): TrustProxy => {
    if (value === '' || value === 'none') return { mode: 'none' };
    if (value === 'cloudflare') return { mode: 'cloudflare' };
    if (/^[1-9]\d{0,1}$/.test(value)) return { mode: 'hops', hops: Number(value) };
    ctx.addIssue({ code: 'custom', message: `must be "none", "cloudflare" or a number of proxy hops from 1 to 99 (got "${value}")` });
    return z.NEVER;
  });

/** Where the server listens; the build derives the default site origin from it too. */
const listenVariables = {
  PORT: port(0).default(defaultPort),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
};

const trustProxyVariable = { TRUST_PROXY: trustProxySetting.default({ mode: 'none' }) };

/** Requests with a body per client IP under /api/ and /prices/ unless API_BODY_REQUESTS_* say otherwise. */
export const API_BODY_LIMIT_DEFAULTS = { requestsPerSecond: 20, burst: 40 } as const;

const environment = z.object({
  ...listenVariables,
  ...trustProxyVariable,
  SITE_DIR: z.string().trim().min(1).default('dist'),
  REQUEST_LOG: z.enum(['on', 'all', 'off'], { error: 'must be "on", "all" or "off"' }).default('on'),
  ALLOW_LOCAL_MODE_ON_NETWORK: z.enum(['yes', 'no'], { error: 'must be "yes" or "no"' }).default('no'),
  JSON_MAX_DEPTH: count(10_000).optional(),
  API_BODY_REQUESTS_PER_SECOND: count(1_000_000).default(API_BODY_LIMIT_DEFAULTS.requestsPerSecond),
  API_BODY_REQUESTS_BURST: count(1_000_000).default(API_BODY_LIMIT_DEFAULTS.burst),
  SERVER_PROCESSES: count(256).default(availableParallelism()),
});

export function readServerConfig(env: Env): ServerConfig {
  const config = parseEnvironment(environment, env);
  return {
    port: config.PORT,
    host: config.HOST,
    trustProxy: config.TRUST_PROXY,
    distDir: resolve(config.SITE_DIR),
    requestLog: config.REQUEST_LOG,
    allowLocalModeOnNetwork: config.ALLOW_LOCAL_MODE_ON_NETWORK === 'yes',
    jsonMaxDepth: config.JSON_MAX_DEPTH,
    apiBodyLimit: { requestsPerSecond: config.API_BODY_REQUESTS_PER_SECOND, burst: config.API_BODY_REQUESTS_BURST },
    processes: config.SERVER_PROCESSES,
  };
}

/**
 * Local mode (CRUCIBLE_MODE=local) is for the developer's own machine: its devnets sign with anvil's
 * published keys, its faucet takes a dummy CAPTCHA, and its `demo` key works for anyone. Listening
 * where other machines reach it (a HOST that is not loopback, such as 0.0.0.0) hands all of that to
 * the network, so it needs ALLOW_LOCAL_MODE_ON_NETWORK=yes.
 */
export function refuseLocalModeOnNetwork(config: Pick<ServerConfig, 'host' | 'allowLocalModeOnNetwork'>, mode: { local: boolean }): void {
  if (!mode.local || config.allowLocalModeOnNetwork || isLoopbackHost(config.host)) return;
  throw new ConfigError(
    `HOST=${config.host} would serve local mode (CRUCIBLE_MODE=local) to other machines: its devnets sign with anvil's published keys, its faucet takes a dummy CAPTCHA and its demo key works for anyone. Set HOST=127.0.0.1, or set ALLOW_LOCAL_MODE_ON_NETWORK=yes if you mean to. See .env.example.`,
  );
}

function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || (isIPv4(host) && host.startsWith('127.'));
}

/** PORT and HOST alone, validated as readServerConfig validates them. */
export function readListenAddress(env: Env): { port: number; host: string } {
  const { PORT, HOST } = parseEnvironment(z.object(listenVariables), env);
  return { port: PORT, host: HOST };
}

/** TRUST_PROXY alone, validated as readServerConfig validates it. */
export function readDevApiConfig(env: Env): DevApiConfig {
  return { trustProxy: parseEnvironment(z.object(trustProxyVariable), env).TRUST_PROXY };
}

function parseEnvironment<Schema extends z.ZodObject>(schema: Schema, env: Env): z.infer<Schema> {
  const values = Object.fromEntries(Object.keys(schema.shape).map((key) => [key, envValue(env, key)]));
  const parsed = schema.safeParse(values);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => {
    const name = String(issue.path[0]);
    return `  ${name}: ${issue.message} (got ${JSON.stringify(values[name])})`;
  });
  throw new ConfigError(`Invalid server configuration:\n${lines.join('\n')}\nSee .env.example.`);
}
