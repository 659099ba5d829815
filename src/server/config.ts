import { resolve } from 'node:path';
import { z } from 'zod';
import { trustProxySetting, type TrustProxy } from '../api/client-ip.ts';

// The server's configuration, read once from the environment and validated; a bad value stops
// start-up with a message naming the variable. Every variable is listed in .env.example.

export interface ServerConfig {
  port: number;
  host: string;
  trustProxy: TrustProxy;
  /** Absolute path of the built site. */
  distDir: string;
  /** One JSON line per request on stdout; off for tests and benchmarks. */
  requestLog: boolean;
}

/** Also the port the build names when PORT=0 (a free port, known only once listening). */
export const defaultPort = 4321;
const portMessage = 'must be a port number from 0 to 65535 (0 picks a free port)';

/** Where the server listens; the build derives the default site origin from it too. */
const listenVariables = {
  PORT: z
    .string()
    .regex(/^\d{1,5}$/, portMessage)
    .transform(Number)
    .pipe(z.number().max(65535, portMessage))
    .default(defaultPort),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
};

const environment = z.object({
  ...listenVariables,
  TRUST_PROXY: trustProxySetting.default({ mode: 'none' }),
  SITE_DIR: z.string().trim().min(1).default('dist'),
  REQUEST_LOG: z.enum(['on', 'off'], { error: 'must be "on" or "off"' }).default('on'),
});

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

export function readServerConfig(env: Env = process.env): ServerConfig {
  const config = parseEnvironment(environment, env);
  return {
    port: config.PORT,
    host: config.HOST,
    trustProxy: config.TRUST_PROXY,
    distDir: resolve(config.SITE_DIR),
    requestLog: config.REQUEST_LOG === 'on',
  };
}

/** PORT and HOST alone, validated as readServerConfig validates them. */
export function readListenAddress(env: Env = process.env): { port: number; host: string } {
  const { PORT, HOST } = parseEnvironment(z.object(listenVariables), env);
  return { port: PORT, host: HOST };
}

function parseEnvironment<Schema extends z.ZodObject>(schema: Schema, env: Env): z.infer<Schema> {
  // An empty variable means unset, as in most shells' `VAR= command`.
  const values = Object.fromEntries(Object.keys(schema.shape).map((key) => [key, env[key] === '' ? undefined : env[key]]));
  const parsed = schema.safeParse(values);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => {
    const name = String(issue.path[0]);
    return `  ${name}: ${issue.message} (got ${JSON.stringify(values[name])})`;
  });
  throw new ConfigError(`Invalid server configuration:\n${lines.join('\n')}\nSee .env.example.`);
}
