import { relative, resolve } from 'node:path';
import { contentDir } from '../config/config.ts';

/**
 * The content folder as an absolute path, and as messages name it (project-relative when
 * inside). `dir` is the configured one (CRUCIBLE_CONTENT_DIR) unless given.
 */
export function contentLocation(rootDir: string, dir: string = contentDir()): { absolute: string; shown: string } {
  const absolute = resolve(rootDir, dir);
  const fromRoot = relative(rootDir, absolute).split('\\').join('/');
  return { absolute, shown: fromRoot.startsWith('..') ? absolute : fromRoot };
}
