import { relative, resolve } from 'node:path';

/**
 * The folder of committed content, relative to the project root. `CRUCIBLE_CONTENT_DIR`
 * points a build at another tree (the test fixture site, the benchmark corpus).
 */
export function contentDir(): string {
  return process.env.CRUCIBLE_CONTENT_DIR || 'content';
}

/** The content folder as an absolute path, and as messages name it (project-relative when inside). */
export function contentLocation(rootDir: string): { absolute: string; shown: string } {
  const absolute = resolve(rootDir, contentDir());
  const fromRoot = relative(rootDir, absolute).split('\\').join('/');
  return { absolute, shown: fromRoot.startsWith('..') ? absolute : fromRoot };
}
