/**
 * The folder of committed content, relative to the project root. `CRUCIBLE_CONTENT_DIR`
 * points a build at another tree (the test fixture site, the benchmark corpus).
 */
export function contentDir(): string {
  return process.env.CRUCIBLE_CONTENT_DIR || 'content';
}
