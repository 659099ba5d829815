import { copyFileSync, existsSync, mkdirSync, renameSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { listFiles } from './dist-files.ts';

// Twins rendered before Astro empties dist/ wait in a staging folder (twin-job.ts) and are moved
// in once it has: by a twin worker while Astro renders, and what is left at astro:build:done.

/**
 * Moves every file under `from` to the same place under `to`, making folders as needed; `from` keeps its folders, as a
 * worker may still be writing into them (a file being written when it is moved is finished in its new place). One
 * synchronous rename after another: awaited one by one, 10,000 renames took seconds on a busy machine.
 */
export function moveStagedFiles(from: string, to: string): void {
  if (!existsSync(from)) return; // nothing was staged
  const made = new Set<string>();
  for (const file of listFiles(from)) {
    const source = join(from, file);
    const target = join(to, file);
    const dir = dirname(target);
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    try {
      renameSync(source, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      // The cache directory is on another file system: copy instead.
      copyFileSync(source, target);
      unlinkSync(source);
    }
  }
}
