import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/db/open.ts';
import { until } from '../../support/crash.ts';
import { writeFixtureDist, type FixtureDist } from '../../support/fixture-dist.ts';
import { freePort } from '../../support/free-port.ts';
import { fetchFresh, rpcFresh } from './http.ts';

// `npm start` with SERVER_PROCESSES=2 in local mode, without Redis: a supervisor, two server
// processes sharing its port and one workers' process. The devnet a call needs is started once,
// by the supervisor, whichever process the call reached; the demo key's burst holds over both
// processes (each enforces half); a server process or the workers' process killed (SIGKILL) is
// started again while the other server keeps answering, and the new workers' process indexes the
// devnet already running; Ctrl-C (SIGINT to every process) stops every process, cleanly (the
// indexer's lease is given back), and the devnet.

const projectRoot = fileURLToPath(new URL('../../..', import.meta.url));
const NETWORK = 'crucible-testnet';
/** The demo key's burst in eth_blockNumber calls (10 CU each) over every process; its rate, 1 CU/s, refills one call in 10 s. */
const BURST_CALLS = 20;
const CALL_CU = 10;

let fixture: FixtureDist;
let scratch: string;
let supervisor: ChildProcess;
let origin: string;
const lines: string[] = [];
const records = () => lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
const serverPids = () =>
  records()
    .filter((record) => record.msg === 'listening')
    .map((record) => record.pid as number);
const workerPids = () =>
  records()
    .filter((record) => record.msg === 'workers started')
    .map((record) => record.pid as number);
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

beforeAll(async () => {
  [fixture, scratch] = await Promise.all([writeFixtureDist(), mkdtemp(join(tmpdir(), 'crucible-supervisor-'))]);
  supervisor = spawn(process.execPath, ['scripts/start.ts'], {
    cwd: projectRoot,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      SITE_DIR: fixture.distDir,
      DATABASE_PATH: join(scratch, 'crucible.sqlite'),
      SERVER_PROCESSES: '2',
      REQUEST_LOG: 'off',
      DEMO_KEY_COMPUTE_UNITS_PER_SECOND: '1',
      DEMO_KEY_COMPUTE_UNIT_BURST: String(BURST_CALLS * CALL_CU),
      // The workers' process indexes the devnet from its first use and delivers webhooks; the rest stay off here.
      PRICES_IN_SERVER: 'off',
      NFT_METADATA_IN_SERVER: 'off',
      // A killed workers' process's lease expires soon, so the next one leads.
      INDEXER_LEASE_MS: '1500',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // A process group of its own, as a terminal's: Ctrl-C signals every process in it.
    detached: true,
  });
  let partial = '';
  supervisor.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const split = (partial + chunk).split('\n');
    partial = split.pop() ?? '';
    lines.push(...split);
  });
  let stderr = '';
  supervisor.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  origin = await until(
    'the supervisor to say where Crucible runs',
    async () => {
      if (supervisor.exitCode !== null) throw new Error(`npm start exited (${supervisor.exitCode}):\n${stderr}`);
      return lines.map((line) => /Crucible is running at (\S+?)\/?\s/.exec(line)?.[1]).find(Boolean);
    },
    120_000,
  );
  await until('both server processes and the workers’ process to start', async () => serverPids().length === 2 && workerPids().length === 1);
}, 180_000);

afterAll(async () => {
  if (supervisor && supervisor.exitCode === null && supervisor.signalCode === null) {
    const exited = new Promise((resolve) => supervisor.once('exit', resolve));
    supervisor.kill('SIGTERM');
    await exited;
  }
  if (fixture) await rm(fixture.root, { recursive: true, force: true });
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** The pids of the processes holding an indexer lease. */
async function leaseHolders(): Promise<number[]> {
  const database = await openDatabase({ engine: 'sqlite', path: join(scratch, 'crucible.sqlite') });
  try {
    const rows = await database.db.selectFrom('indexer_leases').select('holder').execute();
    return rows.map((row) => Number(row.holder.split(':')[1]));
  } finally {
    await database.close();
  }
}

/** Processes whose command line names anvil, with their parents. */
async function anvils(): Promise<Array<{ pid: number; ppid: number }>> {
  const found: Array<{ pid: number; ppid: number }> = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (!cmdline.split('\0')[0]?.endsWith('anvil')) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    found.push({ pid: Number(entry), ppid: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) });
  }
  return found;
}

describe('npm start with SERVER_PROCESSES=2', () => {
  const node = () => `${origin}/node/${NETWORK}/v2/demo`;
  let demoCalls = 0;
  let answered = 0;
  const startedAt = Date.now();

  it('runs two server processes and one workers’ process, each its own pid, and answers /healthz and /readyz', async () => {
    expect(new Set(serverPids()).size).toBe(2);
    expect(workerPids()).toHaveLength(1);
    expect(serverPids()).not.toContain(workerPids()[0]);
    const health = await fetchFresh(`${origin}/healthz`);
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toEqual({ status: 'ok' });
    const ready = await fetchFresh(`${origin}/readyz`);
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.body)).toEqual({ ready: true, checks: [{ part: 'database', ok: true }] });
  });

  it('starts the devnet once, in the supervisor, whichever server process a call reaches', async () => {
    // Four calls on connections of their own: node:cluster hands them to both server processes in turn.
    const answers = await Promise.all(Array.from({ length: 4 }, (_, id) => rpcFresh(node(), 'eth_blockNumber', [], id)));
    demoCalls += answers.length;
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body).result).toMatch(/^0x[0-9a-f]+$/);
    }
    answered += answers.length;
    const running = await anvils();
    const ours = running.filter((entry) => entry.ppid === supervisor.pid);
    expect(ours).toHaveLength(1);
    for (const pid of [...serverPids(), ...workerPids()]) expect(running.filter((entry) => entry.ppid === pid)).toEqual([]);
    // Now that it runs, /readyz asks its node too.
    await until('every process to ask the devnet', async () => {
      const ready = JSON.parse((await fetchFresh(`${origin}/readyz`)).body) as { checks: Array<{ part: string; ok: boolean }> };
      return ready.checks.some((check) => check.part === `upstream:${NETWORK}` && check.ok);
    });
  }, 120_000);

  it('holds the demo key’s burst over both processes without Redis: each enforces its half', async () => {
    const results: number[] = [];
    for (let id = 0; id < 2 * BURST_CALLS; id++) results.push((await rpcFresh(node(), 'eth_blockNumber', [], id)).status);
    demoCalls += results.length;
    answered += results.filter((status) => status === 200).length;
    expect(results.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    // What one process alone would let through since before the first call: the burst, and the refill at 1 CU/s since.
    const refilledCalls = Math.ceil((Date.now() - startedAt) / 1000 / CALL_CU);
    expect(answered).toBeLessThanOrEqual(BURST_CALLS + refilledCalls);
    expect(results).toContain(429);
    expect(demoCalls).toBeGreaterThan(BURST_CALLS);
  });

  it('starts another server process when one is killed, while the other answers', async () => {
    const [victim, survivor] = serverPids();
    process.kill(victim!, 'SIGKILL');
    await until('the supervisor to start another server process', async () => serverPids().length === 3);
    const replacement = serverPids()[2]!;
    expect([victim, survivor]).not.toContain(replacement);
    expect(alive(victim!)).toBe(false);
    expect(records().some((record) => record.message === 'process died, starting another' && record.pid === victim)).toBe(true);
    for (let attempt = 0; attempt < 4; attempt++) expect((await fetchFresh(`${origin}/healthz`)).status).toBe(200);
  }, 120_000);

  it('starts another workers’ process when it is killed', async () => {
    const [victim] = workerPids();
    process.kill(victim!, 'SIGKILL');
    await until('the supervisor to start another workers’ process', async () => workerPids().length === 2);
    const replacement = workerPids()[1]!;
    expect(replacement).not.toBe(victim);
    // It hears of the devnet the supervisor already runs and indexes it, once the dead one's lease expires.
    await until('the new workers’ process to lead the devnet’s index', async () => (await leaseHolders()).includes(replacement));
  }, 120_000);

  it('stops every process cleanly, and the devnet, on Ctrl-C', async () => {
    const pids = [...serverPids(), ...workerPids()].filter(alive);
    const devnet = (await anvils()).filter((entry) => entry.ppid === supervisor.pid);
    expect(devnet).toHaveLength(1);
    const exited = new Promise<number | null>((resolve) => supervisor.once('exit', (code) => resolve(code)));
    process.kill(-supervisor.pid!, 'SIGINT');
    expect(await exited).toBe(0);
    for (const pid of [...pids, devnet[0]!.pid]) expect(alive(pid)).toBe(false);
    // The workers' process stopped its indexer, which gave the lease back.
    expect(await leaseHolders()).toEqual([]);
  }, 60_000);
});
