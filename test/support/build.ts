import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

export const projectRoot = resolve(import.meta.dirname, '../..');

export interface BuildResult {
  code: number;
  output: string;
  outDir: string;
}

/** Runs the real `astro build` of this project (or of a copy at `root`) over another content tree, into its own dist and cache. */
export function buildSite(options: { contentDir: string; outDir: string; cacheDir: string; siteUrl?: string; root?: string }): Promise<BuildResult> {
  return new Promise((done, fail) => {
    const child = spawn(join(projectRoot, 'node_modules/.bin/astro'), ['build', '--outDir', options.outDir], {
      cwd: options.root ?? projectRoot,
      env: {
        ...process.env,
        CRUCIBLE_CONTENT_DIR: options.contentDir,
        CRUCIBLE_CACHE_DIR: options.cacheDir,
        SITE_URL: options.siteUrl ?? 'https://fixture.example',
        ASTRO_TELEMETRY_DISABLED: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', fail);
    child.on('close', (code) => done({ code: code ?? 1, output, outDir: options.outDir }));
  });
}

/** A scratch copy of the fixture site's content that a test may add files to. */
export async function copyFixtureContent(): Promise<{ dir: string; content: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'crucible-fixture-'));
  const content = join(dir, 'content');
  await cp(join(projectRoot, 'test/fixtures/site/content'), content, { recursive: true });
  return { dir, content };
}

/** Builds a scratch copy of the fixture site with `files` (paths under content/) added or replaced; the caller removes `dir`. */
export async function buildFixtureWith(files: Record<string, string>, siteUrl?: string): Promise<BuildResult & { dir: string }> {
  const fixture = await copyFixtureContent();
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(fixture.content, path)), { recursive: true });
    await writeFile(join(fixture.content, path), text);
  }
  const result = await buildSite({ contentDir: fixture.content, outDir: join(fixture.dir, 'dist'), cacheDir: join(fixture.dir, 'cache'), siteUrl });
  return { ...result, dir: fixture.dir };
}
