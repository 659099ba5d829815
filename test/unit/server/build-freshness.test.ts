import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { staleReason } from '../../../src/server/build-freshness.ts';

let root: string;
const at = (seconds: number) => new Date(1_700_000_000_000 + seconds * 1000);
async function file(path: string, seconds: number) {
  await mkdir(join(root, path, '..'), { recursive: true });
  await writeFile(join(root, path), 'x');
  await utimes(join(root, path), at(seconds), at(seconds));
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'crucible-fresh-'));
  await file('content/en/index.md', 10);
  await file('src/pages/index.astro', 10);
  await file('astro.config.mjs', 10);
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('staleReason', () => {
  const marker = () => join(root, 'dist/_surface.json');

  it('asks for a build when there is none', async () => {
    expect(await staleReason(root, marker(), 'content')).toBe('no build yet');
  });

  it('is fresh when dist/ is newer than every input', async () => {
    await file('dist/_surface.json', 20);
    expect(await staleReason(root, marker(), 'content')).toBeNull();
  });

  it('names the input that changed since the build', async () => {
    await file('dist/_surface.json', 20);
    await file('content/en/blog/new.md', 30);
    expect(await staleReason(root, marker(), 'content')).toBe('content/en/blog/new.md changed');
  });

  it('reads the content folder it is given and ignores src/server/', async () => {
    await file('dist/_surface.json', 20);
    await file('src/server/main.ts', 30);
    await file('fixture-content/en/index.md', 30);
    expect(await staleReason(root, marker(), 'content')).toBeNull();
    expect(await staleReason(root, marker(), 'fixture-content')).toBe('fixture-content/en/index.md changed');
  });
});
