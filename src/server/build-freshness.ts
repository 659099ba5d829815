import { existsSync } from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import type { SurfaceManifest } from '../http/surface-manifest.ts';

// Whether `npm start` must build first: dist/ missing, older than an input of the build, or
// built with other environment-derived inputs (src/config/build-environment.ts).

type BuildValues = NonNullable<SurfaceManifest['environment']>;

/** Inputs of `npm run build`, relative to the project root, besides the content folder. */
const buildInputs = ['src', 'integrations', 'public', 'astro.config.mjs'];
/** Not an input: it only serves dist/. */
const notInputs = ['src/server'];

/** Why the build at `marker` is stale, or null when it is newer than every input. */
export async function staleReason(root: string, marker: string, contentDir: string): Promise<string | null> {
  if (!existsSync(marker)) return 'no build yet';
  const builtMs = (await stat(marker)).mtimeMs;
  const skip = new Set(notInputs.map((path) => resolve(root, path)));
  for (const input of [contentDir, ...buildInputs]) {
    const newer = await newerThan(resolve(root, input), builtMs, skip);
    if (newer) return `${relative(root, newer)} changed`;
  }
  return null;
}

/** Why the build whose rules manifest is `marker` was made with other values than `environment`, or null. */
export async function environmentChange(marker: string, environment: BuildValues): Promise<string | null> {
  const recorded = await recordedEnvironment(marker);
  if (!recorded) return 'the last build recorded no environment';
  for (const name of new Set([...Object.keys(recorded), ...Object.keys(environment)])) {
    const [was, now] = [recorded[name] ?? null, environment[name] ?? null];
    if (was !== now) return `${name} was ${was} at the last build, now ${now}`;
  }
  return null;
}

async function recordedEnvironment(marker: string): Promise<BuildValues | null> {
  try {
    const manifest = JSON.parse(await readFile(marker, 'utf8')) as Partial<SurfaceManifest>;
    return manifest.environment ?? null;
  } catch {
    return null; // missing or unreadable: build again
  }
}

async function newerThan(path: string, builtMs: number, skip: Set<string>): Promise<string | null> {
  if (skip.has(path)) return null;
  const info = await stat(path).catch(() => null);
  if (!info) return null;
  if (!info.isDirectory()) return info.mtimeMs > builtMs ? path : null;
  for (const entry of await readdir(path)) {
    const found = await newerThan(join(path, entry), builtMs, skip);
    if (found) return found;
  }
  return null;
}
