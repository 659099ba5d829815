import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import { glob } from 'tinyglobby';

// `npm run lint:deps`: the layer rules of .dependency-cruiser.mjs over every module, Astro
// components included. dependency-cruiser cannot read .astro files, so it cruises a copy of the
// code in which each component is the TypeScript of its frontmatter and scripts, named
// `X.astro.ts` (an import of `./X.astro` resolves to it) and reported as `X.astro`.

const cruised = ['src', 'integrations', 'scripts', 'bench', 'test', 'astro.config.mjs'];
const codeFiles = ['{src,integrations,scripts,bench,test}/**/*.{ts,mts,js,mjs,astro}', 'astro.config.mjs'];
const notCode = ['**/node_modules/**', 'bench/out/**', 'bench/.scratch/**', 'test/fixtures/**'];

export interface DependencyCheck {
  /** Non-zero when a rule is broken. */
  exitCode: number;
  /** One line per broken rule, then a summary. */
  output: string;
}

/** Checks the code under `root` against the rules in `rulesFile`. */
export async function checkDependencies(root: string, rulesFile = join(root, '.dependency-cruiser.mjs')): Promise<DependencyCheck> {
  const copy = await mkdtemp(join(tmpdir(), 'crucible-layers-'));
  try {
    for (const file of await glob(codeFiles, { cwd: root, ignore: notCode })) {
      const source = await readFile(join(root, file), 'utf8');
      const component = file.endsWith('.astro');
      const target = join(copy, component ? `${file}.ts` : file);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, component ? astroModuleCode(source) : source);
    }
    // Packages resolve as in the project (and are not followed).
    if (existsSync(join(root, 'node_modules'))) await symlink(resolve(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
    const options = await extractDepcruiseOptions(rulesFile);
    const result = await cruise(
      cruised.filter((path) => existsSync(join(copy, path))),
      { ...options, baseDir: copy, outputType: 'err' },
    );
    return { exitCode: result.exitCode, output: String(result.output).replaceAll('.astro.ts', '.astro') };
  } finally {
    await rm(copy, { recursive: true, force: true });
  }
}

/** A component's frontmatter and the bodies of its bundled `<script>` elements (not `is:inline` ones). */
export function astroModuleCode(source: string): string {
  const frontmatter = /^---\r?\n([\s\S]*?)\r?\n---/.exec(source)?.[1] ?? '';
  const scripts = [...source.matchAll(/<script\b(?![^>]*\bis:inline)[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1]);
  return [frontmatter, ...scripts].join('\n');
}

if (import.meta.main) {
  const { exitCode, output } = await checkDependencies(process.cwd());
  process.stdout.write(output);
  process.exitCode = exitCode;
}
