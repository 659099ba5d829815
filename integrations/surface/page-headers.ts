import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { sitePathOf } from '../../src/http/site-paths.ts';
import type { SurfaceManifest } from '../../src/http/surface-manifest.ts';
import { listFiles } from './dist-files.ts';
import { pageHeaders } from './header-policy.ts';

// The manifest's `pageHeaders`: every HTML page Astro wrote into dist/, read once after the build.
// The build splits the pages into runs that the twin worker threads compute (twin-job.ts), and
// joins the runs in order, so the result is the one a single pass over the sorted pages gives.

/** The distinct header sets of a run of pages (as JSON, in order of first use) and each page's set. */
export interface PageHeaderRun {
  sets: string[];
  setOf: number[];
}

/** Each page's headers from its bytes; `files` are HTML files relative to `distDir`. Read synchronously: nothing else needs the thread meanwhile. */
export function pageHeaderRun(distDir: string, files: readonly string[], siteOrigin: string): PageHeaderRun {
  const sets = new Numbering();
  const read = pageReader();
  const setOf = files.map((file) => sets.of(JSON.stringify(pageHeaders(read(join(distDir, file)), sitePathOf(file), siteOrigin))));
  return { sets: sets.values(), setOf };
}

/**
 * Reads each page into the same buffer, valid until the next read: a fresh buffer per page (readFileSync) left about
 * 30 MiB more in the process at 10,000 pages, memory freed but kept by the allocator.
 */
function pageReader(): (path: string) => Buffer {
  let buffer = Buffer.allocUnsafe(1 << 16);
  return (path) => {
    const fd = openSync(path, 'r');
    try {
      const size = fstatSync(fd).size;
      if (size > buffer.length) buffer = Buffer.allocUnsafe(size);
      let length = 0;
      for (let read = 1; read > 0 && length < size; length += read) read = readSync(fd, buffer, length, size - length, length);
      return buffer.subarray(0, length);
    } finally {
      closeSync(fd);
    }
  };
}

/** The runs of `files` (sorted HTML files), in order, as the manifest's pageHeaders: sets in order of first use. */
export function joinPageHeaderRuns(files: readonly string[], runs: readonly PageHeaderRun[]): SurfaceManifest['pageHeaders'] {
  const sets = new Numbering();
  const pages: Record<string, number> = {};
  let file = 0;
  for (const run of runs) for (const local of run.setOf) pages[sitePathOf(files[file++]!)] = sets.of(run.sets[local]!);
  if (file !== files.length) throw new Error(`page headers: ${file} of ${files.length} pages computed`);
  return { sets: sets.values().map((set) => JSON.parse(set) as Record<string, string>), pages };
}

/** Every HTML page of `distDir`, on this thread: the sets in the order of the pages' files, so the same dist/ gives the same manifest. */
export function pageHeadersOf(distDir: string, siteOrigin: string): SurfaceManifest['pageHeaders'] {
  const files = listFiles(distDir)
    .filter((file) => file.endsWith('.html'))
    .sort();
  return joinPageHeaderRuns(files, [pageHeaderRun(distDir, files, siteOrigin)]);
}

/** Numbers distinct strings in the order they are first seen. */
class Numbering {
  private readonly numbers = new Map<string, number>();
  of(value: string): number {
    let number = this.numbers.get(value);
    if (number === undefined) this.numbers.set(value, (number = this.numbers.size));
    return number;
  }
  values(): string[] {
    return [...this.numbers.keys()];
  }
}
