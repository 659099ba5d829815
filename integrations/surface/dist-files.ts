import { readdirSync } from 'node:fs';
import { resolve, sep } from 'node:path';

// The files of dist/, listed once when Astro is done and kept up to date with what the surface
// writes after that, so the page headers, the link check and the static host files ask a Set
// instead of the disk (at 10,000 pages a listing costs about 0.1 s, a `stat` per link far more).

/** Files under `dir` (recursively; symbolic links and other non-files left out), as `/`-separated paths relative to it. */
export function listFiles(dir: string): string[] {
  const base = resolve(dir);
  const prefix = base.endsWith(sep) ? base.length : base.length + 1;
  const files: string[] = [];
  for (const dirent of readdirSync(base, { recursive: true, withFileTypes: true })) {
    if (!dirent.isFile()) continue;
    // Entries at the top keep `base` as given; deeper ones are `base` joined with their folders.
    const folder = dirent.parentPath.length > base.length ? dirent.parentPath.slice(prefix) : '';
    const file = folder ? `${folder}/${dirent.name}` : dirent.name;
    files.push(sep === '/' ? file : file.replaceAll(sep, '/'));
  }
  return files;
}

export class DistFiles {
  readonly dir: string;
  private readonly files: Set<string>;

  private constructor(dir: string, files: Iterable<string>) {
    this.dir = resolve(dir);
    this.files = new Set(files);
  }

  /** What `dir` holds now. */
  static list(dir: string): DistFiles {
    return new DistFiles(dir, listFiles(dir));
  }

  /** Whether the file at this relative path (`blog/x.html`) is there. */
  has(file: string): boolean {
    return this.files.has(file);
  }

  /** Files written since the listing, by relative path. */
  add(files: Iterable<string>): void {
    for (const file of files) this.files.add(file);
  }

  /** Files others wrote at the top of dir/ since (the sitemap's); the surface writes nowhere else unannounced. */
  addTopLevel(): void {
    for (const dirent of readdirSync(this.dir, { withFileTypes: true })) if (dirent.isFile()) this.files.add(dirent.name);
  }

  /** Every file, by relative path, in no particular order. */
  all(): IterableIterator<string> {
    return this.files.values();
  }

  /** The HTML pages, sorted, so whatever is derived from them in order is the same for the same dist/. */
  htmlFiles(): string[] {
    return [...this.files].filter((file) => file.endsWith('.html')).sort();
  }
}
