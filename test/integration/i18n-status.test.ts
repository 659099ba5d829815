import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { glob } from 'tinyglobby';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locales } from '../../src/site/locales.ts';
import { copyFixtureContent, projectRoot } from '../support/build.ts';

// `npm run i18n:status` over the fixture content, committed to a scratch git repository with
// known dates. The expected numbers are counted here from the files themselves.

const run = promisify(execFile);
const scratches: string[] = [];
let repo: string;
/** The script's output over the committed fixture. */
let output: string;

async function git(cwd: string, args: string[], date?: string) {
  const env = date ? { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } : process.env;
  await run('git', ['-c', 'user.name=Author', '-c', 'user.email=author@example.com', '-c', 'init.defaultBranch=main', ...args], { cwd, env });
}

async function i18nStatus(contentDir: string): Promise<string> {
  const { stdout } = await run('npm', ['run', '--silent', 'i18n:status'], { cwd: projectRoot, env: { ...process.env, CRUCIBLE_CONTENT_DIR: contentDir } });
  return stdout;
}

async function fixtureCopy(): Promise<string> {
  const fixture = await copyFixtureContent();
  scratches.push(fixture.dir);
  return fixture.content;
}

/** The table's rows by locale: the cells of each `| … |` line. */
function tableRows(printed: string): Map<string, string[]> {
  const lines = printed.split('\n').filter((line) => line.startsWith('|'));
  const [header, rule, ...rows] = lines.map((line) =>
    line
      .slice(1, -1)
      .split('|')
      .map((cell) => cell.trim()),
  );
  expect(header).toEqual(['locale', 'pages', 'UI strings', 'outdated pages']);
  expect(rule!.every((cell) => /^-+$/.test(cell))).toBe(true);
  return new Map(rows.map((cells) => [cells[0]!, cells.slice(1)]));
}

/** Leaf strings of a UI file by dotted key. */
function leaves(value: unknown, key = ''): Array<[string, string]> {
  if (typeof value === 'string') return [[key, value]];
  return Object.entries(value as object).flatMap(([name, child]) => leaves(child, key ? `${key}.${name}` : name));
}

beforeAll(async () => {
  repo = await fixtureCopy();
  await git(repo, ['init', '-q']);
  await git(repo, ['add', '.']);
  await git(repo, ['commit', '-q', '-m', 'Fixture content'], '2026-01-01T00:00:00Z');
  // The English post changes after its Japanese translation; the support page changes with its own.
  await writeFile(join(repo, 'en/blog/hello-agents.md'), `${await readFile(join(repo, 'en/blog/hello-agents.md'), 'utf8')}\nA new paragraph.\n`);
  for (const locale of ['en', 'ja'])
    await writeFile(join(repo, `${locale}/support/faucet-errors.md`), `${await readFile(join(repo, `${locale}/support/faucet-errors.md`), 'utf8')}\nMore.\n`);
  await git(repo, ['commit', '-q', '-a', '-m', 'English post and both support pages'], '2026-02-01T00:00:00Z');
  output = await i18nStatus(repo);
});

afterAll(async () => {
  for (const dir of scratches) await rm(dir, { recursive: true, force: true });
});

describe('npm run i18n:status', () => {
  it('prints, per locale, the pages and UI strings translated from English and how many pages are outdated', async () => {
    const rows = tableRows(output);
    expect([...rows.keys()]).toEqual([...locales]);

    const pagesOf = async (locale: string) => new Set(await glob(['index.{md,mdx}', '*/*.{md,mdx}'], { cwd: join(repo, locale) }));
    const english = await pagesOf('en');
    const englishStrings = new Map(leaves(JSON.parse(await readFile(join(projectRoot, 'src/site/ui/en.json'), 'utf8'))));
    for (const locale of locales) {
      const translated = [...(await pagesOf(locale))].filter((page) => english.has(page)).length;
      const strings = leaves(JSON.parse(await readFile(join(projectRoot, `src/site/ui/${locale}.json`), 'utf8')));
      const translatedStrings = locale === 'en' ? strings.length : strings.filter(([key, text]) => englishStrings.get(key) !== text).length;
      const [pages, uiStrings, outdated] = rows.get(locale)!;
      expect(pages, locale).toMatch(new RegExp(`^${translated}/${english.size}\\b`));
      expect(uiStrings, locale).toMatch(new RegExp(`^${translatedStrings}/${englishStrings.size}\\b`));
      expect(outdated, locale).toBe(locale === 'ja' ? '1' : '0');
    }
  });

  it('names the translations whose English page was committed after them, with both dates', () => {
    expect(output).toMatch(/ja\/blog\/hello-agents\.md: \S*en\/blog\/hello-agents\.md committed 2026-02-01, the translation 2026-01-01/);
    expect(output).not.toMatch(/ja\/support\/faucet-errors\.md:/);
  });

  it('says outdated pages are unknown when the content has no git history, instead of failing', async () => {
    const withoutHistory = await i18nStatus(await fixtureCopy());
    expect([...tableRows(withoutHistory).values()].map(([, , outdated]) => outdated)).toEqual(locales.map(() => '?'));
    expect(withoutHistory).toContain('Outdated pages: unknown, the content folder is not in a git checkout.');
  });

  it('says so for a shallow clone, whose history is cut', async () => {
    const shallow = join(await fixtureCopy(), '..', 'shallow');
    await git(repo, ['clone', '-q', '--depth', '1', `file://${repo}`, shallow]);
    expect(await i18nStatus(shallow)).toContain('Outdated pages: unknown, this is a shallow clone');
  });
});
