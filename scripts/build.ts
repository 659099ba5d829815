import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { BuildProgressMessage } from '../integrations/build-progress.ts';
import { precompressDir } from '../src/server/precompress.ts';
import { loadSurfaceRules } from '../src/server/surface-rules.ts';
import { type ProgressDisplay, showProgress, summaryLine } from './build-progress.ts';

// `npm run build`, and the build `npm start` runs when dist/ is stale: `astro build`, then .br and
// .gz siblings of the built files (src/server/precompress.ts). `npm run build` shows the build's
// whole log as it comes; `npm start` (and `npm run build -- --progress`) one progress line, and the
// whole log only when the build fails.

export interface SiteBuildOptions {
  /** The project's root. */
  root: string;
  outDir: string;
  /** 'log': the build's own output as it comes; 'progress': one progress line, the output only if the build fails. */
  show: 'log' | 'progress';
  /** Why the site is built, for the progress line ("no build yet"). */
  reason?: string;
}

/** Builds the site into `outDir`; resolves with the exit code (0: built). */
export async function buildSite(options: SiteBuildOptions): Promise<number> {
  const started = performance.now();
  const progress = options.show === 'progress' ? showProgress(process.stdout, options.reason) : null;
  /** The build's stdout and stderr, in the order they came: printed if it fails. */
  const output: Buffer[] = [];
  let pages: number | null = null;
  const failed = (code: number, why: string) => {
    progress?.finish(`The site could not be built: ${why}.${output.length ? ' The build’s output:' : ''}`);
    if (progress) process.stderr.write(Buffer.concat(output));
    return code;
  };
  const code = await astroBuild(options, progress && { output, progress, onPages: (count) => (pages = count) });
  if (code !== 0) return failed(code, `astro build exited with code ${code}`);
  try {
    progress?.set({ step: 'compressing' });
    const compressing = performance.now();
    const stats = await precompressDir(options.outDir, await loadSurfaceRules(options.outDir));
    const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
    const line = `precompress: ${stats.files} files, ${mb(stats.bytesIn)} MB -> brotli ${mb(stats.bytesBrotli)} MB, gzip ${mb(stats.bytesGzip)} MB in ${Math.round(performance.now() - compressing)} ms`;
    if (progress) output.push(Buffer.from(`${line}\n`));
    else console.log(line);
  } catch (error) {
    if (!progress) throw error;
    return failed(1, `precompression failed: ${(error as Error).message}`);
  }
  progress?.finish(summaryLine(pages, performance.now() - started));
  return 0;
}

interface Watching {
  output: Buffer[];
  progress: ProgressDisplay;
  onPages(count: number): void;
}

/** Runs `astro build` on this process's Node; `watching`: its output kept, its progress followed over IPC (integrations/build-progress.ts). */
function astroBuild(options: SiteBuildOptions, watching: Watching | null): Promise<number> {
  const astro = join(options.root, 'node_modules/.bin/astro');
  const child = spawn(process.execPath, [astro, 'build', '--outDir', options.outDir], {
    cwd: options.root,
    stdio: watching ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'inherit', 'inherit'],
  });
  if (watching) {
    const keep = (chunk: Buffer) => watching.output.push(chunk);
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    let rendered = 0;
    let total = 0;
    child.on('message', (message: BuildProgressMessage) => {
      if (message.crucibleBuild === 'pages') watching.onPages((total = message.count));
      else rendered++;
      watching.progress.set({ step: 'pages', rendered, total });
    });
  }
  return new Promise((done) => {
    child.once('error', (error) => {
      watching?.output.push(Buffer.from(`${error.message}\n`));
      done(1);
    });
    child.once('close', (code) => done(code ?? 1));
  });
}

if (import.meta.main) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const { values } = parseArgs({ options: { progress: { type: 'boolean' }, 'out-dir': { type: 'string' } } });
  process.exitCode = await buildSite({ root, outDir: resolve(root, values['out-dir'] ?? 'dist'), show: values.progress ? 'progress' : 'log' });
}
