import { z } from 'zod';
import type { Env } from './env.ts';
import { positive } from './numbers.ts';
import { ConfigError } from './config-error.ts';
import { readConfigVariable } from './variable.ts';

// NFT webhooks' delivery (docs/webhooks.md#delivery), validated; a bad value stops start-up with a message naming
// the variable. Every variable is listed in .env.example.

export interface WebhooksConfig {
  /** WEBHOOKS_IN_SERVER (on|off, default on): the server runs the delivery worker; off when `npm run worker -- webhooks` does. */
  inServer: boolean;
  /** WEBHOOK_RETRY_DELAYS_MS (default 15000,60000,600000,3600000): the waits before each retry; after the last, the delivery failed. */
  retryDelaysMs: number[];
  /** WEBHOOK_TIMEOUT_MS (default 5000): how long a receiver has to answer. */
  timeoutMs: number;
  /** WEBHOOK_PAUSE_AFTER_FAILURES (default 5): deliveries failing in a row (each after every retry) that pause the webhook. */
  pauseAfterFailures: number;
  /** WEBHOOK_POLL_INTERVAL_MS (default 500): how often an idle worker looks for due deliveries. */
  pollIntervalMs: number;
  /** WEBHOOK_CLAIM_MS (default 30000): how long a worker's claim on a delivery lasts; a worker that dies loses it after this. */
  claimMs: number;
  /** WEBHOOK_CONCURRENCY (default 16): deliveries one worker sends at once (each to another webhook). */
  concurrency: number;
  /** WEBHOOKS_PER_ACCOUNT (default 20): the most webhooks one account may create through the webhook API. */
  perAccount: number;
  /** WEBHOOK_MAX_ADDRESSES (default 100000): the most addresses one ADDRESS_ACTIVITY webhook may listen to. */
  maxAddresses: number;
  /** WEBHOOK_TX_POLL_INTERVAL_MS (default 2000): how often the transaction watcher looks at broadcast transactions not yet mined or dropped. */
  txPollIntervalMs: number;
  /**
   * WEBHOOK_TX_DROPPED_AFTER_MS (default 300000, 5 minutes): a broadcast transaction the node no
   * longer knows, this long after it was broadcast, is dropped (DROPPED_TRANSACTION, `evicted`).
   */
  txDroppedAfterMs: number;
  /** WEBHOOK_TX_REORG_DEPTH (default 64): blocks above a mined transaction after which a reorg is no longer looked for. */
  txReorgDepth: number;
  /**
   * Webhook URLs may be http (not only https) and may reach loopback, private and link-local
   * addresses: in local mode only.
   */
  local: boolean;
}

const delays = z
  .string()
  .trim()
  .regex(/^\d{1,10}(\s*,\s*\d{1,10})*$/, 'must be a comma-separated list of milliseconds')
  .transform((value) => value.split(',').map((item) => Number(item.trim())));

const read = <T>(env: Env, name: string, schema: z.ZodType<T, string>, fallback: T): T => readConfigVariable(env, 'webhooks', name, schema, fallback);

/** `local`: the platform runs in local mode (CRUCIBLE_MODE=local). */
export function readWebhooksConfig(env: Env, mode: { local: boolean }): WebhooksConfig {
  const config: WebhooksConfig = {
    inServer: read(env, 'WEBHOOKS_IN_SERVER', z.enum(['on', 'off'], { error: 'must be on or off' }), 'on') === 'on',
    retryDelaysMs: read(env, 'WEBHOOK_RETRY_DELAYS_MS', delays, [15_000, 60_000, 600_000, 3_600_000]),
    timeoutMs: read(env, 'WEBHOOK_TIMEOUT_MS', positive, 5000),
    pauseAfterFailures: read(env, 'WEBHOOK_PAUSE_AFTER_FAILURES', positive, 5),
    pollIntervalMs: read(env, 'WEBHOOK_POLL_INTERVAL_MS', positive, 500),
    claimMs: read(env, 'WEBHOOK_CLAIM_MS', positive, 30_000),
    concurrency: read(env, 'WEBHOOK_CONCURRENCY', positive, 16),
    perAccount: read(env, 'WEBHOOKS_PER_ACCOUNT', positive, 20),
    maxAddresses: read(env, 'WEBHOOK_MAX_ADDRESSES', positive, 100_000),
    txPollIntervalMs: read(env, 'WEBHOOK_TX_POLL_INTERVAL_MS', positive, 2000),
    txDroppedAfterMs: read(env, 'WEBHOOK_TX_DROPPED_AFTER_MS', positive, 300_000),
    txReorgDepth: read(env, 'WEBHOOK_TX_REORG_DEPTH', positive, 64),
    local: mode.local,
  };
  if (config.claimMs <= config.timeoutMs) {
    throw new ConfigError(
      `Invalid webhooks configuration: WEBHOOK_CLAIM_MS (${config.claimMs}) must exceed WEBHOOK_TIMEOUT_MS (${config.timeoutMs}): a claim must outlast the POST it covers. See .env.example.`,
    );
  }
  return config;
}
