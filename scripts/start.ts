import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildConfig, contentDir, serverConfig } from '../src/config/config.ts';
import { surfaceManifestFile } from '../src/http/surface-manifest.ts';
import { environmentChange, staleReason } from '../src/server/build-freshness.ts';
import { serveUntilStopped } from '../src/server/main.ts';

// `npm start`: builds dist/ when it is missing, older than its sources or built for another
// environment (another site origin), then serves it.

const root = fileURLToPath(new URL('..', import.meta.url));
process.chdir(root);
const config = readOrExit(serverConfig);
const marker = join(config.distDir, surfaceManifestFile);

if (config.distDir === resolve(root, 'dist')) {
  const reason = (await staleReason(root, marker, contentDir())) ?? (await environmentChange(marker, readOrExit(buildConfig)));
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
