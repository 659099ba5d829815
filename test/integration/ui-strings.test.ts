import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, copyFixtureContent, projectRoot, type BuildResult } from '../support/build.ts';

// UI strings are src/site/ui/<locale>.json, checked when the build loads them. The build runs
// in a copy of the project whose locale files an author has broken, over the fixture content.

/** Top-level folders the build does not read. */
const notBuildInputs = new Set(['node_modules', 'dist', '.git', '.astro', '.data', 'bench', 'test', 'test-results', 'coverage']);

let scratch: string;
let result: BuildResult;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'crucible-ui-'));
  const project = join(scratch, 'project');
  await cp(projectRoot, project, { recursive: true, filter: (source) => dirname(source) !== projectRoot || !notBuildInputs.has(basename(source)) });
  await symlink(join(projectRoot, 'node_modules'), join(project, 'node_modules'));
  const uiFile = (locale: string) => join(project, 'src/site/ui', `${locale}.json`);
  const ja = JSON.parse(await readFile(uiFile('ja'), 'utf8'));
  delete ja.faucet.submit;
  await writeFile(uiFile('ja'), JSON.stringify(ja, null, 2));
  const es = JSON.parse(await readFile(uiFile('es'), 'utf8'));
  es.search.stray = 'Una cadena que ningún componente lee';
  await writeFile(uiFile('es'), JSON.stringify(es, null, 2));
  const fixture = await copyFixtureContent();
  result = await buildSite({ root: project, contentDir: fixture.content, outDir: join(scratch, 'dist'), cacheDir: join(scratch, 'cache') });
  await rm(fixture.dir, { recursive: true, force: true });
});

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('a locale file of UI strings', () => {
  it('fails the build when a key is missing, naming the file, the locale and the key', () => {
    expect(result.code, result.output).not.toBe(0);
    expect(result.output).toContain('src/site/ui/ja.json (locale ja): missing key "faucet.submit"');
  });

  it('fails the build on a key no component reads, naming the file, the locale and the key', () => {
    expect(result.code, result.output).not.toBe(0);
    expect(result.output).toContain('src/site/ui/es.json (locale es): unknown key "search.stray"');
  });
});
