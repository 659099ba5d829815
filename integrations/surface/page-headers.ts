import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { sitePathOf } from '../../src/http/site-paths.ts';
import type { SurfaceManifest } from '../../src/http/surface-manifest.ts';
import { pageHeaders } from './header-policy.ts';

// The manifest's `pageHeaders`: every HTML page Astro wrote into dist/, read once after the build.

/**
 * Each page's headers from its bytes; sets in the order of the pages' files, so the same dist/
 * gives the same manifest. Read synchronously: at 10,000 pages that took a third of the time
 * of reading through the thread pool, and nothing else needs the thread meanwhile.
 */
export function pageHeadersOf(distDir: string, siteOrigin: string): SurfaceManifest['pageHeaders'] {
  const htmlFiles = readdirSync(distDir, { recursive: true, withFileTypes: true })
    .filter((dirent) => dirent.isFile() && dirent.name.endsWith('.html'))
    .map((dirent) => relative(distDir, join(dirent.parentPath, dirent.name)).split(sep).join('/'))
    .sort();
  const setIndex = new Map<string, number>();
  const pages: Record<string, number> = {};
  for (const file of htmlFiles) {
    const path = sitePathOf(file);
    const set = JSON.stringify(pageHeaders(readFileSync(join(distDir, file)), path, siteOrigin));
    if (!setIndex.has(set)) setIndex.set(set, setIndex.size);
    pages[path] = setIndex.get(set)!;
  }
  return { sets: [...setIndex.keys()].map((set) => JSON.parse(set) as Record<string, string>), pages };
}
