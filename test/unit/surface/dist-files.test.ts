import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DistFiles, listFiles } from '../../../integrations/surface/dist-files.ts';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'crucible-dist-files-'));
  for (const file of ['index.html', 'blog/index.html', 'blog/x.html', 'blog/x.md', 'press kit/index.html', 'ja/blog/こんにちは.html', '_astro/a.js']) {
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await writeFile(join(dir, file), file);
  }
  await mkdir(join(dir, 'empty'));
  await symlink(join(dir, 'blog/x.md'), join(dir, 'linked.md'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('listFiles', () => {
  it('lists every file under the folder by its /-separated relative path, folders and symbolic links left out', () => {
    const expected = ['_astro/a.js', 'blog/index.html', 'blog/x.html', 'blog/x.md', 'index.html', 'ja/blog/こんにちは.html', 'press kit/index.html'];
    expect(listFiles(dir).sort()).toEqual(expected);
    expect(listFiles(`${dir}/`).sort()).toEqual(expected);
  });
});

describe('DistFiles', () => {
  it('answers from its listing, with what is added since, and its HTML pages sorted', async () => {
    const files = DistFiles.list(dir);
    expect(files.has('blog/x.md')).toBe(true);
    expect(files.has('Blog/x.md')).toBe(false);
    expect(files.has('blog')).toBe(false);
    expect(files.htmlFiles()).toEqual(['blog/index.html', 'blog/x.html', 'index.html', 'ja/blog/こんにちは.html', 'press kit/index.html']);

    await writeFile(join(dir, 'blog/y.md'), 'y');
    expect(files.has('blog/y.md')).toBe(false);
    files.add(['blog/y.md']);
    expect(files.has('blog/y.md')).toBe(true);

    await writeFile(join(dir, 'sitemap-0.xml'), '<urlset/>');
    files.addTopLevel();
    expect(files.has('sitemap-0.xml')).toBe(true);
    expect([...files.all()].sort()).toEqual(listFiles(dir).sort());
  });
});
