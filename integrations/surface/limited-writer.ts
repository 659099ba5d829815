import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Bounded number of writes in flight: memory stays flat however many pages there are. */
export class LimitedWriter {
  readonly dirs = new DirectoryMaker();
  private pending = new Set<Promise<void>>();
  async write(path: string, data: string): Promise<void> {
    while (this.pending.size >= 64) await Promise.race(this.pending);
    const task: Promise<void> = this.dirs
      .ensure(dirname(path))
      .then(() => writeFile(path, data))
      .finally(() => this.pending.delete(task));
    this.pending.add(task);
  }
  async done(): Promise<void> {
    await Promise.all(this.pending);
  }
}

/** mkdir -p, once per directory. */
class DirectoryMaker {
  private made = new Map<string, Promise<unknown>>();
  ensure(dir: string): Promise<unknown> {
    let made = this.made.get(dir);
    if (!made) this.made.set(dir, (made = mkdir(dir, { recursive: true })));
    return made;
  }
}
