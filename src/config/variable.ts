import type { z } from 'zod';
import { envValue, type Env } from './env.ts';
import { ConfigError } from './config-error.ts';

/**
 * A variable through `schema`, or `fallback` when unset; a bad value stops start-up naming the
 * part, the variable and the reason (`Invalid indexer configuration: INDEXER_LEASE_MS must be …`).
 */
export function readConfigVariable<T>(env: Env, part: string, name: string, schema: z.ZodType<T, string>, fallback: T): T {
  const value = envValue(env, name);
  if (value === undefined) return fallback;
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new ConfigError(`Invalid ${part} configuration: ${name} ${parsed.error.issues[0]?.message ?? 'is invalid'}. See .env.example.`, { variable: name });
  return parsed.data;
}
