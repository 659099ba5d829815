import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';

// The committed artifacts are what `npm run contracts` makes of the committed sources.

const root = join(import.meta.dirname, '../../..');
const committed = join(root, 'contracts/artifacts');
let out: string | undefined;
afterAll(() => out && rm(out, { recursive: true, force: true }));

it('recompiling contracts/*.sol gives the committed artifacts, byte for byte', async () => {
  out = await mkdtemp(join(tmpdir(), 'crucible-artifacts-'));
  await promisify(execFile)(process.execPath, [join(root, 'scripts/contracts.ts'), '--out', out]);
  const names = (await readdir(committed)).sort();
  expect((await readdir(out)).sort()).toEqual(names);
  expect(names).toContain('WorldToken.json');
  for (const name of names) expect(await readFile(join(out, name), 'utf8'), name).toBe(await readFile(join(committed, name), 'utf8'));
});
