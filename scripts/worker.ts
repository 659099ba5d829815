// `npm run worker -- <name>`: one background worker as a process of its own, configured from the
// environment and .env like the server (.env.example); it builds the part of the runtime the
// worker needs (src/runtime/workers.ts). Exit codes: 0 stopped by SIGINT/SIGTERM, 1 could not
// start, 2 no such worker.
import { fileURLToPath } from 'node:url';
import { ConfigError } from '../src/config/config-error.ts';
import { redactUrls } from '../src/log/redact.ts';
import { type RunningWorker, startWorker, workers } from '../src/runtime/workers.ts';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

const usage = `Usage: npm run worker -- <name>\n\nWorkers:\n${Object.entries(workers)
  .map(([name, worker]) => `  ${name.padEnd(13)} ${worker.summary}`)
  .join('\n')}\n`;

const name = process.argv[2];
const worker = name === undefined ? undefined : workers[name];
if (!worker) {
  process.stderr.write(name === undefined || name === '--help' ? usage : `No worker named "${name}".\n\n${usage}`);
  process.exit(name === '--help' ? 0 : 2);
}

let running: RunningWorker;
try {
  running = await startWorker(name!, worker, projectRoot);
} catch (error) {
  console.error(
    error instanceof ConfigError ? error.message : `The ${name} worker failed to start: ${redactUrls(error instanceof Error ? error.message : String(error))}`,
  );
  process.exit(1);
}

let stopping = false;
const stop = () => {
  // A second signal while stopping: leave now.
  if (stopping) process.exit(1);
  stopping = true;
  running.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(`The ${name} worker did not stop cleanly: ${redactUrls(error instanceof Error ? error.message : String(error))}`);
      process.exit(1);
    },
  );
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, stop);
