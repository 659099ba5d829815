import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DistFiles } from '../../../integrations/surface/dist-files.ts';
import { splitFrontmatter } from '../../../src/site/read-content.ts';
import { checkContentLinks } from '../../../src/site/content-links.ts';
import { renderPageBody } from '../../../src/site/markdown.ts';
import { pageRecordFromSource, type PageRecord } from '../../../src/site/records.ts';

// The link check as the build runs it: a page rendered (which collects its links, with their
// lines), then its links checked against the listing of a dist/ folder made of real files.

const source = [
  '---',
  'title: Links',
  'description: A page of links.',
  'date: 2026-06-01',
  '---',
  'Fine: [a post](/blog/hello), [its twin](/blog/hello.md), [a heading](/blog/hello#intro), [the blog](/blog/), [a sibling](hello),',
  '[llms.txt](/llms.txt), [dot segments](/blog/./hello), [encoded](/blog/caf%C3%A9), [elsewhere](https://example.com/nowhere).',
  '',
  'Broken: [a missing page](/blog/nowhere) and [a missing twin](/blog/nowhere.md).',
  '',
  '[Wrong case](/Blog/Hello), [no such heading](/blog/hello#outro), [the blog without its slash](/blog).',
  '',
  '<p><a href="/blog/gone">in raw HTML</a></p>',
  '',
  'Moved in after the listing: [a late twin](/blog/late.md).',
  '',
].join('\n');

const dist: Record<string, string> = {
  'blog/index.html': '<!doctype html><title>Blog</title><h1>Blog</h1>',
  'blog/hello.html': '<!doctype html><title>Hello</title><h1>Hello</h1><h2 id="intro">Intro</h2>',
  'blog/hello.md': '# Hello\n',
  'blog/café.html': '<!doctype html><title>Café</title>',
  'llms.txt': '# Crucible\n',
};

let root: string;
let page: PageRecord;
let files: DistFiles;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'crucible-link-check-'));
  const relativePath = 'en/blog/links.md';
  await mkdir(join(root, 'content/en/blog'), { recursive: true });
  await writeFile(join(root, 'content', relativePath), source);
  const { data, body } = splitFrontmatter(source);
  page = pageRecordFromSource({ relativePath, data, body })!;
  await renderPageBody(join(root, page.sourcePath));
  for (const [file, text] of Object.entries(dist)) {
    await mkdir(dirname(join(root, 'dist', file)), { recursive: true });
    await writeFile(join(root, 'dist', file), text);
  }
  files = DistFiles.list(join(root, 'dist'));
  await writeFile(join(root, 'dist/blog/late.md'), '# Late\n'); // on disk, not yet in the listing
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const problems = (): string[] => {
  try {
    checkContentLinks({ pages: [page], root, files });
    return [];
  } catch (error) {
    return (error as Error).message.split('\n').slice(1);
  }
};

describe('the link check over the listing of dist/', () => {
  it('names the file, the line and the link of a missing page, twin, wrongly cased path and anchor', () => {
    const file = 'content/en/blog/links.md';
    expect(problems()).toEqual([
      `  ${file}: line 9: link "/blog/nowhere": no page or file at /blog/nowhere`,
      `  ${file}: line 9: link "/blog/nowhere.md": no page or file at /blog/nowhere.md`,
      `  ${file}: line 11: link "/Blog/Hello": no page or file at /Blog/Hello`,
      `  ${file}: line 11: link "/blog/hello#outro": no heading or anchor "outro" on /blog/hello`,
      `  ${file}: line 11: link "/blog": no page or file at /blog (the page is /blog/)`,
      `  ${file}: line 13: link "/blog/gone": no page or file at /blog/gone`,
      `  ${file}: line 15: link "/blog/late.md": no page or file at /blog/late.md`,
    ]);
  });

  it('finds what the surface wrote after the listing once it is added, and nothing it did not add', () => {
    files.add(['blog/late.md']);
    expect(problems().some((line) => line.includes('/blog/late.md'))).toBe(false);
    expect(problems()).toHaveLength(6);
  });
});
