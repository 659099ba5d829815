import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeBlock, generatedPage, markdownTable, markdownText, writeGeneratedFiles } from '../../../scripts/generated-markdown.ts';
import { splitFrontmatter } from '../../../src/site/read-content.ts';

// The pieces of the pages written from code (the method reference, the local world's page).

describe('markdownText', () => {
  it('keeps text from code one line and free of markup', () => {
    expect(markdownText('The id a eth_new*Filter call\nreturned.')).toBe('The id a eth_new\\*Filter call returned.');
    expect(markdownText('a | b <script> [x](y) `c` _d_ &amp;')).toBe('a \\| b \\<script\\> \\[x\\](y) \\`c\\` \\_d\\_ \\&amp;');
    expect(markdownText('eth_getLogs & co')).toBe('eth_getLogs & co');
  });
});

describe('markdownTable', () => {
  it('writes the header, the delimiters and one line per row', () => {
    expect(
      markdownTable(
        ['Method', 'CU'],
        ['-', '-:'],
        [
          ['a', '1'],
          ['b', '2'],
        ],
      ),
    ).toBe('| Method | CU |\n| - | -: |\n| a | 1 |\n| b | 2 |');
  });
});

describe('codeBlock', () => {
  it('fences the lines in the language given', () => {
    expect(codeBlock('sh', ['echo 1', 'echo 2'])).toBe('```sh\necho 1\necho 2\n```');
  });
});

describe('generatedPage', () => {
  it('puts the frontmatter first, one line per field, then the blocks a blank line apart', () => {
    const description = 'A description long enough that a YAML writer folding at 80 columns would break it over two lines, which the page schema refuses.';
    const page = generatedPage({ title: 'Title: with a colon', description, order: 3 }, ['First.', '## Second']);
    expect(page).toMatch(/^---\ntitle: .+\ndescription: .+\norder: 3\n---\n\nFirst\.\n\n## Second\n$/);
    expect(splitFrontmatter(page).data).toEqual({ title: 'Title: with a colon', description, order: 3 });
  });
});

describe('writeGeneratedFiles', () => {
  it('writes each file under the root, making its folders, and returns the paths', async () => {
    const root = await mkdtemp(join(tmpdir(), 'crucible-generated-'));
    try {
      const files = [
        { path: 'content/en/a/one.md', text: 'one\n' },
        { path: 'content/ja/b/two.md', text: 'two\n' },
      ];
      expect(await writeGeneratedFiles(root, files)).toEqual(['content/en/a/one.md', 'content/ja/b/two.md']);
      expect(await readFile(join(root, 'content/ja/b/two.md'), 'utf8')).toBe('two\n');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
