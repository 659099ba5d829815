import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { contentLocation } from './content-dir.ts';

// When each content file was last committed, from one `git log` over the content folder. A
// checkout without that history (a shallow clone, an export, content outside the repository)
// says why instead of failing: the dates only tell authors which translations to revisit.

const run = promisify(execFile);

export type ContentHistory =
  | { available: true /** A content file (its record's sourcePath) last committed, undefined if never. */; lastCommitOf(sourcePath: string): Date | undefined }
  | { available: false; reason: string };

async function git(cwd: string, args: string[]): Promise<string> {
  const { stdout } = await run('git', ['-c', 'core.quotePath=false', ...args], { cwd, maxBuffer: 512 * 2 ** 20 });
  return stdout;
}

export async function contentHistory(rootDir: string): Promise<ContentHistory> {
  const { absolute: contentDir } = contentLocation(rootDir);
  try {
    if ((await git(contentDir, ['rev-parse', '--is-shallow-repository'])).trim() === 'true') {
      return { available: false, reason: 'this is a shallow clone, so the commits that dated the pages are missing (git fetch --unshallow brings them)' };
    }
    const top = (await git(contentDir, ['rev-parse', '--show-toplevel'])).trim();
    // Newest first: a path's first appearance is its last commit. %x1e separates commits.
    const log = await git(contentDir, ['log', '--no-renames', '--name-only', '--format=%x1e%ct', '--', '.']);
    const lastCommit = new Map<string, Date>();
    for (const commit of log.split('\x1e').slice(1)) {
      const [time, ...files] = commit.split('\n');
      const date = new Date(Number(time) * 1000);
      for (const file of files) if (file && !lastCommit.has(resolve(top, file))) lastCommit.set(resolve(top, file), date);
    }
    return { available: true, lastCommitOf: (sourcePath) => lastCommit.get(resolve(rootDir, sourcePath)) };
  } catch (error) {
    return { available: false, reason: whyGitFailed(error as NodeJS.ErrnoException & { stderr?: string }) };
  }
}

function whyGitFailed(error: NodeJS.ErrnoException & { stderr?: string }): string {
  if (error.code === 'ENOENT') return 'git is not installed';
  const said = error.stderr?.trim().split('\n')[0] ?? error.message;
  if (said.includes('not a git repository')) return 'the content folder is not in a git checkout';
  return `git could not read its history (${said})`;
}
