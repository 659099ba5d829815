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
  /** The child's stdout so far, one line each. */
  logLines(): string[];
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
      // Every suite calls from 127.0.0.1, so the per-IP bucket for bodies (20 a second, bursts of 40)
      // would make a call's answer hang on how quickly the calls before it ran (a 429 where a 400
      // was due, CI). Suites of that limit set their own (gateway-charge.test.ts).
      API_BODY_REQUESTS_PER_SECOND: '1000000',
      API_BODY_REQUESTS_BURST: '1000000',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  // Every line the server writes to stdout is kept (JSON log lines; request lines when REQUEST_LOG is on).
  const lines: string[] = [];
  let partial = '';
  let onLine: ((line: string) => void) | undefined;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const split = (partial + chunk).split('\n');
    partial = split.pop() ?? ''; // an unfinished line waits for the next chunk
    for (const line of split) {
      lines.push(line);
      onLine?.(line);
    }
  });
  const origin = await new Promise<string>((resolve, reject) => {
    onLine = (line) => {
      if (!line.startsWith('{')) return;
      const record = JSON.parse(line) as { msg?: string; url?: string };
      if (record.msg === 'listening' && record.url) {
        onLine = undefined;
        resolve(record.url.replace(/\/$/, ''));
      }
    };
    void exited.then((code) => reject(new Error(`server exited with code ${code} before listening:\n${stderr}`)));
  });

  return {
    origin,
    logLines: () => [...lines],
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
