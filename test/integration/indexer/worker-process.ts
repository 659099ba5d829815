import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { DatabaseLocation } from '../../../src/config/database.ts';

// `npm run worker -- indexer` as the operator runs it: a child process configured through its
// environment only, for the tests that kill one or have two processes share a database.

const projectRoot = fileURLToPath(new URL('../../..', import.meta.url));
/** Any 32 bytes: the worker opens the database the way every process does, and PostgreSQL asks for one. */
const APP_KEY_SECRET = '11'.repeat(32);

export interface WorkerProcess {
  child: ChildProcess;
  /** Everything the worker printed so far. */
  output(): string;
  /** Resolves with the exit code (or signal) once the process ended. */
  exited: Promise<number | string | null>;
}

export function startIndexerWorker(location: DatabaseLocation, variables: Record<string, string>): WorkerProcess {
  const database = location.engine === 'postgres' ? { DATABASE_URL: location.url, APP_KEY_SECRET } : { DATABASE_PATH: location.path };
  const child = spawn(process.execPath, ['scripts/worker.ts', 'indexer'], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...database, ...variables },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  return { child, output: () => output, exited };
}
