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

const environment = z.object({
  PORT: z
    .string()
    .regex(/^\d{1,5}$/, 'must be a port number from 0 to 65535 (0 picks a free port)')
    .transform(Number)
    .pipe(z.number().max(65535, 'must be a port number from 0 to 65535 (0 picks a free port)'))
    .default(4321),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  TRUST_PROXY: trustProxySetting.default({ mode: 'none' }),
  SITE_DIR: z.string().trim().min(1).default('dist'),
  REQUEST_LOG: z.enum(['on', 'off'], { error: 'must be "on" or "off"' }).default('on'),
});

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function readServerConfig(env: Record<string, string | undefined> = process.env): ServerConfig {
  // An empty variable means unset, as in most shells' `VAR= command`.
  const values = Object.fromEntries(Object.keys(environment.shape).map((key) => [key, env[key] === '' ? undefined : env[key]]));
  const parsed = environment.safeParse(values);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      return `  ${name}: ${issue.message} (got ${JSON.stringify(values[name])})`;
    });
    throw new ConfigError(`Invalid server configuration:\n${lines.join('\n')}\nSee .env.example.`);
  }
  const config = parsed.data;
  return {
    port: config.PORT,
    host: config.HOST,
    trustProxy: config.TRUST_PROXY,
    distDir: resolve(config.SITE_DIR),
    requestLog: config.REQUEST_LOG === 'on',
  };
}
