import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { freePort } from './free-port.ts';

// A real, throwaway redis-server on a free port: no persistence, stopped by the test.

const REDIS_SERVER = '/usr/bin/redis-server';

export interface TestRedis {
  url: string;
  stop(): Promise<void>;
}

export async function startRedis(): Promise<TestRedis> {
  if (!existsSync(REDIS_SERVER)) throw new Error(`${REDIS_SERVER} is missing: apt-get install -y redis-server`);
  // redis-server cannot report an OS-chosen port, so take a free one and retry if it was taken meanwhile.
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await startOn(await freePort());
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

function startOn(port: number): Promise<TestRedis> {
  const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const onExit = (code: number | null) => reject(new Error(`redis-server exited (code ${code}):\n${output}`));
    child.once('exit', onExit);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!output.includes('Ready to accept connections')) return;
      child.off('exit', onExit);
      child.stdout.resume();
      resolve({
        url: `redis://127.0.0.1:${port}`,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  });
}
