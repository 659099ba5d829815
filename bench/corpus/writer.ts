import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Writes files with at most `limit` writes in flight, so memory stays flat for any corpus size. */
export function boundedWriter(limit = 64) {
  const pending = new Set<Promise<void>>();
  const dirs = new Map<string, Promise<unknown>>();
  return {
    async write(path: string, text: string): Promise<void> {
      while (pending.size >= limit) await Promise.race(pending);
      const dir = dirname(path);
      let made = dirs.get(dir);
      if (!made) dirs.set(dir, (made = mkdir(dir, { recursive: true })));
      const task: Promise<void> = made.then(() => writeFile(path, text)).finally(() => pending.delete(task));
      pending.add(task);
    },
    done: (): Promise<void> => Promise.all(pending).then(() => undefined),
  };
}
