import { readFile } from 'node:fs/promises';
import remarkGfm from 'remark-gfm';
import remarkMdx from 'remark-mdx';
import remarkParse from 'remark-parse';
import remarkStringify from 'remark-stringify';
import { glob } from 'tinyglobby';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { parseBody, stringifyOptions } from '../../../integrations/surface/portable-markdown.ts';
import { pageGlob, splitFrontmatter } from '../../../src/site/read-content.ts';
import { projectRoot } from '../../support/build.ts';

// Twins parse page bodies with satteri, not remark-parse. The claim that makes that safe: for
// every page of the site and of the fixture, satteri's tree serializes exactly as remark's does.

const reference = (format: 'md' | 'mdx') =>
  format === 'mdx'
    ? unified().use(remarkParse).use(remarkMdx).use(remarkGfm).use(remarkStringify, stringifyOptions)
    : unified().use(remarkParse).use(remarkGfm).use(remarkStringify, stringifyOptions);

describe('parseBody', () => {
  it('gives the tree remark-parse gives, for every page of the site and the fixture', async () => {
    const files = [
      ...(await glob(pageGlob, { cwd: `${projectRoot}/content`, absolute: true })),
      ...(await glob(pageGlob, { cwd: `${projectRoot}/test/fixtures/site/content`, absolute: true })),
    ];
    expect(files.length).toBeGreaterThan(100);
    for (const file of files) {
      const format = file.endsWith('.mdx') ? 'mdx' : 'md';
      const { body } = splitFrontmatter(await readFile(file, 'utf8'));
      const processor = reference(format);
      expect(processor.stringify(parseBody(body, format)), file).toBe(processor.stringify(processor.parse(body)));
    }
  });

  it('reads a leading --- as a thematic break, not frontmatter', () => {
    expect(parseBody('---\n\ntext\n', 'md').children.map((node) => node.type)).toEqual(['thematicBreak', 'paragraph']);
  });
});
