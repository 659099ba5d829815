import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';

const benchmarksFile = join(resolve(import.meta.dirname, '..'), 'BENCHMARKS.md');

/** The CPU's model name, as `/proc/cpuinfo` gives it. */
export async function cpuModel(): Promise<string> {
  const cpuinfo = await readFile('/proc/cpuinfo', 'utf8').catch(() => '');
  return cpuinfo.match(/^model name\s*:\s*(.+)$/m)?.[1] ?? cpus()[0]?.model ?? 'unknown';
}

/** Replaces the `## <heading>` section of BENCHMARKS.md (or appends it), leaving the others as they are. */
export async function writeBenchmarksSection(heading: string, section: string): Promise<void> {
  const existing = existsSync(benchmarksFile) ? await readFile(benchmarksFile, 'utf8') : '';
  const start = existing.indexOf(`## ${heading}\n`);
  let updated: string;
  if (start === -1) updated = existing ? `${existing.trimEnd()}\n\n${section}` : `# Benchmarks\n\n${section}`;
  else {
    const next = existing.indexOf('\n## ', start + 1);
    updated = existing.slice(0, start) + section + (next === -1 ? '' : `\n${existing.slice(next + 1)}`);
  }
  await writeFile(benchmarksFile, updated.endsWith('\n') ? updated : `${updated}\n`);
  console.log(`\nWrote the ## ${heading} section of ${benchmarksFile}`);
}
