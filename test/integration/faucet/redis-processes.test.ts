import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEV_TURNSTILE_TOKEN } from '../../../src/faucet/captcha.ts';
import type { FaucetSendInput } from '../../../src/faucet/service.ts';
import { randomAddress, startTestAnvil, type TestAnvil } from '../../support/anvil.ts';
import { startRedis, type TestRedis } from '../../support/redis.ts';
import { FAUCET_ADDRESS } from './harness.ts';

// Two faucet server processes sharing one redis-server and one chain: the per-address limit
// and the per-network sender lock live in Redis, so together they never double-drip and keep
// the faucet wallet's nonces consecutive. Each process keeps its own SQLite ledger.

const NETWORK = 'base-sepolia';

interface FaucetProcess {
  send(input: Omit<FaucetSendInput, 'turnstileToken'>): Promise<{ ok: boolean; statusCode?: string; body?: { transactionHash: Hex } }>;
  ledger(): Promise<Array<{ address: string; txHash: Hex | null; outcome: string }>>;
  close(): Promise<void>;
}

function startFaucetProcess(env: Record<string, string>): Promise<FaucetProcess> {
  const child: ChildProcess = fork(join(import.meta.dirname, 'worker', 'faucet-process.ts'), {
    cwd: process.cwd(),
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let nextId = 0;
  const waiting = new Map<number, (result: never) => void>();
  const call = <T>(message: object) =>
    new Promise<T>((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve as (result: never) => void);
      child.send({ id, ...message });
    });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`faucet process exited with ${code}`)));
    child.on('message', (message: { ready?: true; id?: number; result?: never }) => {
      if (message.ready) {
        resolve({
          send: (input) => call({ send: { ...input, turnstileToken: DEV_TURNSTILE_TOKEN } }),
          ledger: () => call({ ledger: true }),
          close: async () => {
            if (child.exitCode === null) await call({ close: true });
          },
        });
      } else if (message.id !== undefined) {
        waiting.get(message.id)?.(message.result!);
        waiting.delete(message.id);
      }
    });
  });
}

let dir: string;
let redis: TestRedis;
let chain: TestAnvil;
let processes: FaucetProcess[] = [];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crucible-redis-'));
  [redis, chain] = await Promise.all([startRedis(), startTestAnvil({ chainId: 84532, blockTimeSeconds: 2 })]);
  processes = await Promise.all(
    ['a', 'b'].map((name) =>
      startFaucetProcess({ REDIS_URL: redis.url, RPC_URL_BASE_SEPOLIA: chain.rpcUrl, DATABASE_PATH: join(dir, `${name}.sqlite`), PER_IP_MAX_DRIPS: '3' }),
    ),
  );
});
afterAll(async () => {
  await Promise.all(processes.map((p) => p.close()));
  await chain?.stop();
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const nonceOf = async (hash: Hex) => (await chain.client.getTransaction({ hash })).nonce;

describe('two faucet processes sharing Redis', () => {
  it('drip exactly once for one address asked of both at once', async () => {
    const address = randomAddress();
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => processes[i % 2]!.send({ faucetId: NETWORK, address, ip: `10.3.${i}.1` })));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).map((r) => r.statusCode)).toEqual(Array(9).fill('rate_limit_exceeded'));
  });

  it('serve 40 concurrent distinct addresses with consecutive nonces and no 409', async () => {
    const start = await chain.client.getTransactionCount({ address: FAUCET_ADDRESS, blockTag: 'pending' });
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => processes[i % 2]!.send({ faucetId: NETWORK, address: randomAddress(), ip: `10.4.${i}.1` })),
    );
    expect(results.filter((r) => !r.ok)).toEqual([]);
    const nonces = await Promise.all(results.map((r) => nonceOf(r.body!.transactionHash)));
    expect(nonces.sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => start + i));
  });

  it('share the per-IP limit', async () => {
    const ip = '10.5.0.1';
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await processes[i % 2]!.send({ faucetId: NETWORK, address: randomAddress(), ip }));
    expect(results.map((r) => r.statusCode ?? 'ok')).toEqual(['ok', 'ok', 'ok', 'rate_limit_exceeded']);
  });

  it('each keep a ledger of their own drips, together every drip', async () => {
    // A drip's row is settled as sent just after its answer, in the background: read once every row is.
    const ledgers = () => Promise.all(processes.map((p) => p.ledger()));
    await vi.waitFor(async () => expect((await ledgers()).flat().every((row) => row.outcome === 'sent')).toBe(true), { timeout: 30_000, interval: 50 });
    const [a, b] = await ledgers();
    expect(a!.length).toBeGreaterThan(0);
    expect(b!.length).toBeGreaterThan(0);
    const hashes = [...a!, ...b!].map((row) => row.txHash);
    expect(new Set(hashes).size).toBe(1 + 40 + 3);
    expect([...a!, ...b!].every((row) => row.outcome === 'sent')).toBe(true);
  });
});
