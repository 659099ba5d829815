import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { ContentError } from '../../src/site/records.ts';

// A throwaway project root for loaders of content YAML (the token list, the collections registry):
// `content/<folder>/`, the network ethereum-sepolia, and one image under `public/`. Made before and
// removed after each test of the file that calls it.

export interface ContentRoot {
  /** The root of this test. */
  path(): string;
  /** Writes `content/<folder>/<name>.yaml`. */
  write(name: string, yaml: string): Promise<void>;
}

/** `image`: a path under `public/` (e.g. `tokens/usd.svg`) that holds an SVG. */
export function useContentRoot(folder: string, image: string): ContentRoot {
  let root = '';
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), `crucible-${folder}-`));
    await mkdir(join(root, 'content', folder), { recursive: true });
    await mkdir(join(root, 'content', 'networks'), { recursive: true });
    await mkdir(dirname(join(root, 'public', image)), { recursive: true });
    await writeFile(join(root, 'content', 'networks', 'ethereum-sepolia.yaml'), 'name: Ethereum Sepolia\n');
    await writeFile(join(root, 'public', image), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  });
  afterEach(() => rm(root, { recursive: true, force: true }));
  return {
    path: () => root,
    write: (name, yaml) => writeFile(join(root, 'content', folder, `${name}.yaml`), yaml),
  };
}

/** The issues of the ContentError `load` throws; fails the test when it loads. */
export async function contentIssues(load: () => Promise<unknown>): Promise<Array<{ file: string; field: string; message: string }>> {
  try {
    await load();
  } catch (error) {
    expect(error).toBeInstanceOf(ContentError);
    return (error as ContentError).issues;
  }
  throw new Error('the content loaded');
}
