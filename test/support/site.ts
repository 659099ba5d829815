import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { killHard } from './crash.ts';

// Starts the production server (`node src/server/main.ts`, as `npm start` does) over a built
// dist/ on a free port. Shared by every integration and e2e suite.

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface BuiltSite {
  /** e.g. http://127.0.0.1:41234 (no trailing slash). */
  origin: string;
  /** SIGKILL, as a crash ends it (test/support/crash.ts); stop() still removes its scratch folder. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

export async function startBuiltSite(opts: { distDir?: string; env?: Record<string, string> } = {}): Promise<BuiltSite> {
  // Each server gets its own faucet database unless the test shares one on purpose, so no
  // test leaves rate limits behind in the project's .data/ for the next run.
  const scratch = await mkdtemp(join(tmpdir(), 'crucible-site-'));
  const child = spawn(process.execPath, ['src/server/main.ts'], {
    cwd: projectRoot,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      REQUEST_LOG: 'off',
      SITE_DIR: opts.distDir ?? 'dist',
      DATABASE_PATH: join(scratch, 'faucet.sqlite'),
      // In local mode the indexer would start every network's devnet; suites that test it turn it on.
      INDEXER_IN_SERVER: 'off',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const origin = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    const onData = (chunk: string) => {
      stdout += chunk;
      const lines = stdout.split('\n');
      stdout = lines.pop() ?? ''; // an unfinished line waits for the next chunk
      for (const line of lines) {
        if (!line.startsWith('{')) continue;
        const record = JSON.parse(line) as { msg?: string; url?: string };
        if (record.msg === 'listening' && record.url) {
          child.stdout.off('data', onData);
          child.stdout.resume(); // keep draining so the child never blocks on a full pipe
          resolve(record.url.replace(/\/$/, ''));
          return;
        }
      }
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    void exited.then((code) => reject(new Error(`server exited with code ${code} before listening:\n${stderr}`)));
  });

  return {
    origin,
    kill: () => killHard(child),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      await rm(scratch, { recursive: true, force: true });
    },
  };
}
