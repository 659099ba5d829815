import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BlockList } from 'node:net';
import type { Database } from '../db/open.ts';
import { redactUrls } from '../log/redact.ts';
import { claimDueDeliveries, type ClaimedDelivery } from './claim.ts';
import { signatureHeaders } from './signature.ts';
import { postDelivery, type PostResult } from './post.ts';

// The delivery worker (docs/webhooks.md#delivery): claims due deliveries (claim.ts),
// POSTs each signed (post.ts), and records every attempt. An attempt's row is written before the
// POST and completed after it, so a process killed in between leaves it `sending` (marked
// `abandoned` when the delivery is claimed again) and the delivery is sent again once the claim
// expires: at-least-once. A 2xx delivers; anything else retries after the configured delays, and
// after the last the delivery failed. Deliveries failing in a row pause their webhook, with a reason.

export interface DeliveryWorkerOptions {
  database: Database;
  /** The waits before each retry (docs/webhooks.md#retries-and-pausing: 15 s, 1 min, 10 min, 1 h). */
  retryDelaysMs: readonly number[];
  timeoutMs: number;
  pauseAfterFailures: number;
  pollIntervalMs: number;
  claimMs: number;
  concurrency: number;
  /** NON_PUBLIC_ADDRESSES outside local mode; null: any address. */
  blockedAddresses: BlockList | null;
  /** Names this process in claims; default host, pid and a random part. */
  holderId?: string;
  log?: (entry: DeliveryLogEntry) => void;
  now?: () => number;
}

export interface DeliveryLogEntry {
  level: 'info' | 'error';
  message: string;
  [field: string]: unknown;
}

export interface DeliveryWorker {
  start(): void;
  /** Stops claiming, and resolves once the deliveries in flight are recorded. */
  stop(): Promise<void>;
  /** Deliveries this process sent successfully, and attempts that failed. */
  counts(): { delivered: number; failedAttempts: number };
}

export function pausedForFailuresReason(count: number): string {
  return `paused: repeated delivery failures (${count} deliveries in a row failed after every retry)`;
}

export function createDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const { db } = options.database;
  const now = options.now ?? Date.now;
  const holder = options.holderId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const log = options.log ?? defaultLog;
  const stopping = new AbortController();
  const inFlight = new Set<Promise<void>>();
  const counts = { delivered: 0, failedAttempts: 0 };
  let loop: Promise<void> | null = null;

  async function deliver(delivery: ClaimedDelivery): Promise<void> {
    const attempt = delivery.attempts + 1;
    const startedAt = now();
    const begun = await db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('webhook_deliveries')
        .set({ attempts: attempt })
        .where('id', '=', delivery.id)
        .where('claimed_by', '=', holder)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (updated.numUpdatedRows !== 1n) return false;
      await trx
        .insertInto('webhook_attempts')
        .values({ delivery_id: delivery.id, attempt, started_at: startedAt, duration_ms: null, http_status: null, error: null, outcome: 'sending' })
        .execute();
      return true;
    });
    if (!begun) return;
    const result = await postDelivery(delivery.url, delivery.payload, signatureHeaders(delivery.payload, delivery.signingKey, startedAt), {
      timeoutMs: options.timeoutMs,
      blockedAddresses: options.blockedAddresses,
    });
    await record(delivery, attempt, startedAt, result);
  }

  async function record(delivery: ClaimedDelivery, attempt: number, startedAt: number, result: PostResult): Promise<void> {
    const at = now();
    const retryIn = options.retryDelaysMs[attempt - 1];
    const failedFinally = !result.ok && retryIn === undefined;
    if (result.ok) counts.delivered++;
    else counts.failedAttempts++;
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('webhook_attempts')
        .set({
          outcome: result.ok ? 'delivered' : 'failed',
          duration_ms: at - startedAt,
          http_status: result.status,
          error: result.ok ? null : result.error,
        })
        .where('delivery_id', '=', delivery.id)
        .where('attempt', '=', attempt)
        .execute();
      const moved = await trx
        .updateTable('webhook_deliveries')
        .set({
          status: result.ok ? 'delivered' : failedFinally ? 'failed' : 'pending',
          next_attempt_at: result.ok || failedFinally ? at : at + retryIn!,
          completed_at: result.ok || failedFinally ? at : null,
          claimed_by: null,
          claim_expires_at: null,
          last_http_status: result.status,
          last_error: result.ok ? null : result.error,
        })
        .where('id', '=', delivery.id)
        .where('claimed_by', '=', holder)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      // Another process took the delivery over (this claim expired): its outcome is that process's to record.
      if (moved.numUpdatedRows !== 1n) return;
      if (result.ok) {
        await trx.updateTable('webhooks').set({ consecutive_failures: 0 }).where('id', '=', delivery.webhookId).where('consecutive_failures', '>', 0).execute();
      } else if (failedFinally) {
        const webhook = await trx
          .updateTable('webhooks')
          .set((eb) => ({ consecutive_failures: eb('consecutive_failures', '+', 1) }))
          .where('id', '=', delivery.webhookId)
          .returning(['consecutive_failures', 'state'])
          .executeTakeFirst();
        if (webhook && webhook.state === 'active' && webhook.consecutive_failures >= options.pauseAfterFailures) {
          await trx
            .updateTable('webhooks')
            .set({ state: 'paused', paused_reason: pausedForFailuresReason(webhook.consecutive_failures), updated_at: at })
            .where('id', '=', delivery.webhookId)
            .execute();
          log({
            level: 'info',
            message: 'webhook paused after repeated delivery failures',
            webhook: delivery.webhookId,
            failures: webhook.consecutive_failures,
          });
        }
      }
    });
  }

  async function run(): Promise<void> {
    let backoffMs = 0;
    while (!stopping.signal.aborted) {
      const free = options.concurrency - inFlight.size;
      let claimed: ClaimedDelivery[] = [];
      try {
        claimed = await claimDueDeliveries(options.database, { holder, now: now(), claimMs: options.claimMs, limit: free });
        backoffMs = 0;
      } catch (error) {
        backoffMs = Math.min(30_000, Math.max(options.pollIntervalMs, backoffMs * 2));
        log({ level: 'error', message: 'claiming deliveries failed; retrying', cause: errorText(error), retryInMs: backoffMs });
        await wait(backoffMs);
        continue;
      }
      for (const delivery of claimed) {
        const sending: Promise<void> = deliver(delivery)
          .catch((error: unknown) => log({ level: 'error', message: 'recording a delivery failed', delivery: delivery.id, cause: errorText(error) }))
          .finally(() => inFlight.delete(sending));
        inFlight.add(sending);
      }
      // Nothing due, or every slot busy: wait for a slot to free or the next poll.
      if (claimed.length === 0 || inFlight.size >= options.concurrency) await wait(options.pollIntervalMs);
    }
    await Promise.all(inFlight);
  }

  /** Until `ms` pass, a delivery in flight is recorded (its webhook's next may be due), or the worker stops. */
  const wait = (ms: number) => Promise.race([sleep(ms, undefined, { signal: stopping.signal }).catch(() => undefined), ...inFlight]);

  return {
    start() {
      if (loop || stopping.signal.aborted) return;
      loop = run();
    },
    async stop() {
      stopping.abort();
      await loop;
    },
    counts: () => ({ ...counts }),
  };
}

function errorText(error: unknown): string {
  return redactUrls(error instanceof Error ? error.message : String(error));
}

function defaultLog(entry: DeliveryLogEntry): void {
  const line = JSON.stringify({ component: 'webhooks', ...entry });
  if (entry.level === 'error') console.error(line);
  else console.log(line);
}
