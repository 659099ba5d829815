import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { DatabaseLocation } from '../../src/config/database.ts';

// What the crash tests (test/integration/crash/) share: a hard kill that takes the processes the
// victim started with it, the worker processes of `npm run worker -- <name>` as the operator runs
// them, the environment that points a process at a database, and a bounded wait for a condition.

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
/** Any 32 bytes: every process sharing a PostgreSQL database opens the keys sealed in it with one secret. */
const APP_KEY_SECRET = '11'.repeat(32);

/** The variables that point a server or a worker at a database (and a SQLite faucet ledger beside PostgreSQL). */
export function databaseEnv(location: DatabaseLocation): Record<string, string> {
  return location.engine === 'postgres' ? { DATABASE_URL: location.url, APP_KEY_SECRET } : { DATABASE_PATH: location.path };
}

/**
 * SIGKILL, as a crash or the OOM killer ends a process: no exit hook runs. Whatever the process had
 * started (an anvil, say) would outlive it, so its descendants go too; they are listed while the
 * process is stopped (SIGSTOP, at once: it does nothing more), then it is killed. Resolves once the
 * process has exited.
 */
export async function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGSTOP');
  const descendants = await descendantsOf(child.pid!);
  child.kill('SIGKILL');
  await exited;
  for (const pid of descendants) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

async function descendantsOf(pid: number): Promise<number[]> {
  const parents = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    // /proc/<pid>/stat: "pid (comm) state ppid …"; comm may hold spaces and parentheses.
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid) parents.set(Number(entry), ppid);
  }
  const found: number[] = [];
  const visit = (parent: number) => {
    for (const [child, ppid] of parents) {
      if (ppid !== parent) continue;
      found.push(child);
      visit(child);
    }
  };
  visit(pid);
  return found;
}

export interface WorkerProcess {
  child: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
  /** Resolves with the exit code, or the signal that ended it. */
  exited: Promise<number | string | null>;
}

/** `npm run worker -- <name>` (scripts/worker.ts) as a child process configured by its environment only. */
export function startWorkerProcess(name: string, variables: Record<string, string>): WorkerProcess {
  const child = spawn(process.execPath, ['scripts/worker.ts', name], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...variables },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  return { child, output: () => output, exited };
}

/**
 * Polls `check` until it answers something other than false, null or undefined, and resolves with
 * that. Gives up after `limitMs` (a bound for a hung test, not a measure of speed) naming `what`.
 */
export async function until<T>(what: string, check: () => Promise<T | false | null | undefined>, limitMs = 90_000): Promise<T> {
  const giveUpAt = Date.now() + limitMs;
  for (;;) {
    const value = await check();
    if (value !== false && value !== null && value !== undefined) return value;
    if (Date.now() > giveUpAt) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
