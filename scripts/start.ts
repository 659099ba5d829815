import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildConfig, contentDir, serverConfig } from '../src/config/config.ts';
import { surfaceManifestFile } from '../src/http/surface-manifest.ts';
import { environmentChange, staleReason } from '../src/server/build-freshness.ts';
import { serveUntilStopped } from '../src/server/main.ts';
import { superviseUntilStopped } from '../src/server/supervisor.ts';
import { buildSite } from './build.ts';

// `npm start`: builds dist/ when it is missing, older than its sources or built for another
// environment (another site origin), then serves it. The build shows one progress line, and its
// whole log only if it fails; `npm start -- --verbose` shows the log as it comes.

const root = fileURLToPath(new URL('..', import.meta.url));
process.chdir(root);
const { verbose } = readOrExit(() => parseArgs({ options: { verbose: { type: 'boolean', default: false } } }).values);
const config = readOrExit(serverConfig);
const marker = join(config.distDir, surfaceManifestFile);

if (config.distDir === resolve(root, 'dist')) {
  const reason = (await staleReason(root, marker, contentDir())) ?? (await environmentChange(marker, readOrExit(buildConfig)));
  if (reason) {
    if (verbose) console.log(`Building the site (${reason})…`);
    const code = await buildSite({ root, outDir: config.distDir, show: verbose ? 'log' : 'progress', reason });
    if (code !== 0) process.exit(code);
  }
} else if (!existsSync(marker)) {
  console.error(`SITE_DIR=${config.distDir} holds no built site (${surfaceManifestFile} is missing).`);
  process.exit(1);
}

// SERVER_PROCESSES=1: one process serves and runs the workers; more: a supervisor runs them (docs/operating-at-scale.md).
const running = config.processes === 1 ? await serveUntilStopped(() => config) : await superviseUntilStopped(config, root);
console.log(`\nCrucible is running at ${running.url}  (Ctrl-C to stop)\n`);

function readOrExit<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
