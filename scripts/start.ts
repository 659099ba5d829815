import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { surfaceManifestFile } from '../integrations/surface/manifest.ts';
import { buildEnvironment } from '../src/config/build-environment.ts';
import { loadDotEnv } from '../src/config/env-file.ts';
import { environmentChange, staleReason } from '../src/server/build-freshness.ts';
import { readServerConfig } from '../src/server/config.ts';
import { serveUntilStopped } from '../src/server/main.ts';
import { contentDir } from '../src/site/content-dir.ts';

// `npm start`: builds dist/ when it is missing, older than its sources or built for another
// environment (another site origin), then serves it.

const root = fileURLToPath(new URL('..', import.meta.url));
process.chdir(root);
loadDotEnv();
const config = readOrExit(readServerConfig);
const marker = join(config.distDir, surfaceManifestFile);

if (config.distDir === resolve(root, 'dist')) {
  const reason = (await staleReason(root, marker, contentDir())) ?? (await environmentChange(marker, readOrExit(buildEnvironment)));
  if (reason) {
    console.log(`Building the site (${reason})…`);
    // npm sets npm_execpath when it runs this script; fall back to npm on PATH.
    const npm = process.env.npm_execpath;
    const build = npm ? spawnSync(process.execPath, [npm, 'run', 'build'], { stdio: 'inherit' }) : spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
} else if (!existsSync(marker)) {
  console.error(`SITE_DIR=${config.distDir} holds no built site (${surfaceManifestFile} is missing).`);
  process.exit(1);
}

const running = await serveUntilStopped(() => config);
console.log(`\nCrucible is running at ${running.url}  (Ctrl-C to stop)\n`);

function readOrExit<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
