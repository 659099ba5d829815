import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';

// Whether `npm start` must build first: dist/ missing, or older than an input of the build.

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
