import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { DatabaseLocation } from '../../../src/config/database.ts';
import { openDatabase, type Database } from '../../../src/db/open.ts';
import { createWebhookStore } from '../../../src/webhooks/store.ts';
import type { Webhook } from '../../../src/webhooks/webhook.ts';
import { databaseEngines } from '../../support/postgres.ts';
import { waitFor } from '../indexer/token-chain.ts';
import { fillOutbox } from './outbox-fill.ts';
import { firstReceipts, startReceiver, type Received } from './receiver.ts';

// `npm run worker -- webhooks` as the operator runs it, a real child process: killed (SIGKILL) while a
// POST is in flight and started again, every event arrives, in order, and only the one in flight
// twice; and on PostgreSQL two processes at once never send one webhook's deliveries concurrently.

const projectRoot = fileURLToPath(new URL('../../..', import.meta.url));
const NETWORK = 'crucible-testnet';
const OWNER = 'acct_worker';
const SETTINGS = {
  WEBHOOK_POLL_INTERVAL_MS: '20',
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_CLAIM_MS: '1500',
  WEBHOOK_RETRY_DELAYS_MS: '50,50,50,50',
};

function startDeliveryWorker(location: DatabaseLocation, settings: Record<string, string> = {}) {
  const database = location.engine === 'postgres' ? { DATABASE_URL: location.url, APP_KEY_SECRET: '11'.repeat(32) } : { DATABASE_PATH: location.path };
  const child = spawn(process.execPath, ['scripts/worker.ts', 'webhooks'], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...database, ...SETTINGS, ...settings },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  return { child, exited, output: () => output };
}

describe.each(databaseEngines())('webhook delivery processes on $name', (engine) => {
  const stops: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const stop of stops.reverse()) await stop();
    stops.length = 0;
  });

  async function setUp() {
    const location = await engine.location();
    const database: Database = await openDatabase(location);
    const receiver = await startReceiver();
    stops.push(
      () => database.close(),
      () => receiver.close(),
    );
    const store = createWebhookStore(database.db, { networks: [NETWORK], urlRules: { local: true } });
    const run = (settings?: Record<string, string>) => {
      const worker = startDeliveryWorker(location, settings);
      stops.push(async () => {
        if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
        await worker.exited;
      });
      return worker;
    };
    return { location, database, receiver, store, run };
  }

  it('killed mid-batch and started again: every event delivered in order, duplicates only of the one in flight', async () => {
    const { database, receiver, store, run } = await setUp();
    const hook = await store.create(OWNER, { type: 'NFT_ACTIVITY', network: NETWORK, url: receiver.url });
    receiver.keys.set(hook.id, hook.signingKey);
    await fillOutbox(database, NETWORK, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);

    let reachedSixth!: () => void;
    const sixth = new Promise<void>((resolve) => (reachedSixth = resolve));
    receiver.respond = (count) => {
      if (count < 6) return 200;
      reachedSixth();
      return 'hold';
    };
    const first = run();
    await sixth;
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    const inFlight = receiver.received[5]!.payload.id;

    receiver.respond = () => 200;
    const second = run();
    await waitFor(async () => (await store.deliveries(OWNER, hook.id, { limit: 100, status: 'delivered' })).deliveries.length === 12);

    const order = (await store.deliveries(OWNER, hook.id, { limit: 100 })).deliveries.reverse().map((delivery) => delivery.id);
    expect(firstReceipts(receiver.received)).toEqual(order);
    const repeated = receiver.received.map((entry) => entry.payload.id).filter((id, index, all) => all.indexOf(id) !== index);
    expect(repeated).toEqual([inFlight]);
    expect(receiver.received.every((entry) => entry.signatureValid && entry.timestampValid)).toBe(true);
    const attempts = (await store.delivery(OWNER, hook.id, inFlight)).attemptList;
    expect(attempts.map((attempt) => attempt.outcome)).toEqual(['abandoned', 'delivered']);

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });

  // Once, not once per engine: defined in the postgres block only.
  if (engine.name === 'postgres')
    it('two processes at once never send one webhook’s deliveries concurrently, and each once', async () => {
      const { database, receiver, store, run } = await setUp();
      const hooks: Webhook[] = [];
      for (let index = 0; index < 3; index++) hooks.push(await store.create(OWNER, { type: 'NFT_ACTIVITY', network: NETWORK, url: receiver.url }));
      await fillOutbox(database, NETWORK, [1, 2, 3, 4, 5, 6, 7, 8]);
      const busy = new Map<string, number>();
      let overlaps = 0;
      receiver.respond = async (_count, entry: Received) => {
        const id = entry.payload.webhookId;
        busy.set(id, (busy.get(id) ?? 0) + 1);
        if (busy.get(id)! > 1) overlaps++;
        await sleep(15);
        busy.set(id, busy.get(id)! - 1);
        return 200;
      };
      // Claims that outlast any stall of a busy machine: a claim that lapses lets the other process send
      // the delivery again (at least once), which is how a dead process's deliveries go on, not a race.
      const lasting = { WEBHOOK_CLAIM_MS: '60000' };
      run(lasting);
      run(lasting);
      await waitFor(async () => {
        for (const hook of hooks) if ((await store.deliveries(OWNER, hook.id, { limit: 100, status: 'delivered' })).deliveries.length < 8) return false;
        return true;
      });
      expect(overlaps).toBe(0);
      const ids = receiver.received.map((entry) => entry.payload.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toHaveLength(24);
      for (const hook of hooks) {
        const order = (await store.deliveries(OWNER, hook.id, { limit: 100 })).deliveries.reverse().map((delivery) => delivery.id);
        expect(receiver.received.filter((entry) => entry.payload.webhookId === hook.id).map((entry) => entry.payload.id)).toEqual(order);
      }
    });
});
