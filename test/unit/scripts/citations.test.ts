import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { glob } from 'tinyglobby';
import { describe, expect, it } from 'vitest';

// The contract lives in docs/ (docs/README.md#how-code-cites-these-pages): a comment cites
// `docs/<page>.md#<anchor>`, never the files a clone does not have (../shared/spec/, the "platform"
// and "interface" documents and their numbered sections, the architecture document's principles). This test reads the sources for those old
// citations, and checks that every docs/ anchor a source or a docs/ page cites is a heading there.

const ROOT = join(import.meta.dirname, '../../..');

/** What the sources and READMEs are: code, scripts, benchmarks, tests, the build's integrations, the READMEs, the settings. */
const SOURCES = [
  '{src,scripts,bench,test,integrations}/**/*.{ts,mts,js,mjs,astro,md}',
  '**/README.md',
  '*.{ts,mjs,md}',
  '.env.example',
  '.dependency-cruiser.mjs',
];
const IGNORE = ['node_modules/**', 'dist/**', '.astro/**', 'docs/**', 'test/unit/scripts/citations.test.ts'];

/** Citations of a contract outside the repository (assembled, so this file does not match itself). */
const OUTSIDE = new RegExp(
  [
    '\\.\\./shared',
    'platform (?:spec )?\\u00a7',
    'platform\\.md',
    'interface\\.md',
    '\\bspec \\d+\\.\\d+',
    'ARCHITECTURE(?:\\.md| principle)',
    '\\bprinciples? \\d',
  ].join('|'),
  'i',
);

/** `path:line: text` for every line of `source` that cites a contract outside the repository. */
function outsideCitations(path: string, source: string): string[] {
  return source.split('\n').flatMap((text, index) => (OUTSIDE.test(text) ? [`${path}:${index + 1}: ${text.trim()}`] : []));
}

/** GitHub's slug of a heading: lowercase, punctuation dropped, each space a hyphen; a repeated slug gets `-1`, `-2`. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const text = heading[1]!.replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Every `docs/<page>.md#<anchor>` a source cites, as [page, anchor]. */
function docsCitations(source: string): [string, string][] {
  return [...source.matchAll(/\bdocs\/([\w-]+\.md)#([\w-]+)/g)].map((match) => [match[1]!, match[2]!]);
}

/** Every `](<page>.md#<anchor>)` link between docs/ pages, as [page, anchor]; `#anchor` alone is the page itself. */
function docsLinks(page: string, markdown: string): [string, string][] {
  return [...markdown.matchAll(/\]\(((?:[\w-]+\.md)?)#([\w-]+)\)/g)].map((match) => [match[1] || page, match[2]!]);
}

async function sources(): Promise<string[]> {
  const files = await glob(SOURCES, { cwd: ROOT, ignore: IGNORE, dot: true });
  expect(files.length).toBeGreaterThan(300); // the whole tree was read, not an empty folder
  return files.sort();
}

async function docsAnchors(): Promise<Map<string, Set<string>>> {
  const pages = await glob('*.md', { cwd: join(ROOT, 'docs') });
  expect(pages.length).toBeGreaterThan(5);
  return new Map(await Promise.all(pages.map(async (page) => [page, anchorsOf(await readFile(join(ROOT, 'docs', page), 'utf8'))] as const)));
}

describe('citations of the contract', () => {
  it('finds the old citations, in any case, and leaves docs/ citations and ordinary words alone', () => {
    const source = [
      '// Keys (platform §2).',
      '// the body (Spec 2.5) and',
      '// see ../shared/spec/interface.md',
      '/** platform spec §3 */',
      '// one leader (principle 7); the layers (ARCHITECTURE.md)',
      '// hosts (docs/hosts-and-paths.md#node-url); a test spec 2 files; the platform section',
    ].join('\n');
    expect(outsideCitations('src/x.ts', source)).toEqual([
      'src/x.ts:1: // Keys (platform §2).',
      'src/x.ts:2: // the body (Spec 2.5) and',
      'src/x.ts:3: // see ../shared/spec/interface.md',
      'src/x.ts:4: /** platform spec §3 */',
      'src/x.ts:5: // one leader (principle 7); the layers (ARCHITECTURE.md)',
    ]);
  });

  it('slugs headings as GitHub does', () => {
    const anchors = anchorsOf('# Title\n## `eth_getLogs` range limit\n### Local mode and production mode\n## Errors\n```\n## not a heading\n```\n## Errors\n');
    expect([...anchors]).toEqual(['title', 'eth_getlogs-range-limit', 'local-mode-and-production-mode', 'errors', 'errors-1']);
    expect(docsCitations('// (docs/json-rpc.md#eth_getlogs-range-limit, docs/errors.md#error-body).')).toEqual([
      ['json-rpc.md', 'eth_getlogs-range-limit'],
      ['errors.md', 'error-body'],
    ]);
  });

  it('cites nothing outside the repository in the sources, READMEs and settings', async () => {
    const found: string[] = [];
    for (const file of await sources()) found.push(...outsideCitations(file, await readFile(join(ROOT, file), 'utf8')));
    expect(found).toEqual([]);
  });

  it('cites only docs/ pages and headings that exist', async () => {
    const anchors = await docsAnchors();
    const broken: string[] = [];
    let cited = 0;
    for (const file of await sources()) {
      for (const [page, anchor] of docsCitations(await readFile(join(ROOT, file), 'utf8'))) {
        cited += 1;
        if (!anchors.get(page)?.has(anchor)) broken.push(`${file}: docs/${page}#${anchor}`);
      }
    }
    for (const [page] of anchors) {
      for (const [target, anchor] of docsLinks(page, await readFile(join(ROOT, 'docs', page), 'utf8'))) {
        cited += 1;
        if (!anchors.get(target)?.has(anchor)) broken.push(`docs/${page}: ${target}#${anchor}`);
      }
    }
    expect(cited).toBeGreaterThan(0);
    expect(broken).toEqual([]);
  });
});
