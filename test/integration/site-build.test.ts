import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { glob } from 'tinyglobby';
import { afterAll, describe, expect, it } from 'vitest';
import { copyFixtureContent, projectRoot } from '../support/build.ts';

// The build as `npm start` runs it (scripts/build.ts, shown as `npm run build -- --progress`) over
// the fixture site: one progress line while it builds, then a summary; Astro's log only when the
// build fails, with a non-zero exit code.

const scratches: string[] = [];
afterAll(() => Promise.all(scratches.map((dir) => rm(dir, { recursive: true, force: true }))));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  outDir: string;
}

/** `node scripts/build.ts --progress` over a copy of the fixture content with `files` added. */
async function buildWithProgress(files: Record<string, string> = {}): Promise<Run> {
  const fixture = await copyFixtureContent();
  scratches.push(fixture.dir);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(fixture.content, path, '..'), { recursive: true });
    await writeFile(join(fixture.content, path), text);
  }
  const outDir = join(fixture.dir, 'dist');
  const env = { ...process.env, CRUCIBLE_CONTENT_DIR: fixture.content, CRUCIBLE_CACHE_DIR: join(fixture.dir, 'cache'), SITE_URL: 'https://fixture.example' };
  return new Promise((done) => {
    const child = execFile(process.execPath, ['scripts/build.ts', '--progress', '--out-dir', outDir], { cwd: projectRoot, env }, (_error, stdout, stderr) =>
      done({ code: child.exitCode, stdout, stderr, outDir }),
    );
  });
}

describe('the build with a progress line', () => {
  it('prints progress lines and a summary with the pages built, and none of the build’s log', async () => {
    const run = await buildWithProgress();
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    const lines = run.stdout.trimEnd().split('\n');
    const pages = (await glob('**/*.html', { cwd: run.outDir })).length;
    expect(pages).toBeGreaterThan(10);
    expect(lines.at(-1)).toMatch(new RegExp(`^Built the site: ${pages} pages in \\d+ s\\.$`));
    for (const line of lines.slice(0, -1)) expect(line).toMatch(/^Building the site: (preparing|\d+ of \d+ pages.*|compressing), \d+ s$/);
    expect(run.stdout).not.toContain('generating static routes');
  });

  it('exits non-zero when the build fails, printing its log, which names the file at fault', async () => {
    const run = await buildWithProgress({ 'en/blog/broken.md': '---\ntitle: Broken\n---\nNo description.\n' });
    expect(run.code).toBe(1);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('The site could not be built: astro build exited with code 1. The build’s output:');
    expect(run.stderr).toMatch(/en\/blog\/broken\.md: field "description"/);
  });
});
