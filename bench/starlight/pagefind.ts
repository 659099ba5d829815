import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { measure, type Measured } from '../build/measure.ts';
import { starlightProjectDir } from './project.ts';

// Starlight's Pagefind step on its own (the same calls as @astrojs/starlight's
// integrations/pagefind.ts: createIndex, addDirectory, writeFiles), for a Starlight dist
// whose build rendered every page but was stopped in that step (the RSS cap in bench/build.ts).

const script = `
import * as pagefind from 'pagefind';
const dir = process.argv[1];
const { index, errors } = await pagefind.createIndex();
if (errors.length) throw new Error(errors.join('; '));
const added = await index.addDirectory({ path: dir });
if (added.errors.length) throw new Error(added.errors.join('; '));
const written = await index.writeFiles({ outputPath: dir + '/pagefind/' });
if (written.errors.length) throw new Error(written.errors.join('; '));
console.log('indexed ' + added.page_count + ' pages');
await pagefind.close();
`;

export function hasPagefindIndex(distDir: string): boolean {
  return existsSync(join(distDir, 'pagefind/pagefind-entry.json'));
}

export function runPagefind(distDir: string, logFile: string): Promise<Measured> {
  return measure(process.execPath, ['--input-type=module', '-e', script, distDir], { cwd: starlightProjectDir, env: process.env, logFile });
}
