import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { glob } from 'tinyglobby';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { astroModuleCode } from '../../../scripts/check-dependencies.ts';

// One module reads the process environment (src/config/config.ts); every other part of the
// code is handed its configuration, so a variable is validated in one place.

const root = join(import.meta.dirname, '../../..');

/** `process.env` or `process.loadEnvFile` in code (comments and strings do not count). */
function touchesProcessEnvironment(code: string): boolean {
  const file = ts.createSourceFile('module.ts', code, ts.ScriptTarget.Latest, true);
  const touches = (node: ts.Node): boolean =>
    (ts.isPropertyAccessExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'process' &&
      ['env', 'loadEnvFile'].includes(node.name.text)) ||
    ts.forEachChild(node, touches) === true;
  return touches(file);
}

describe('the process environment', () => {
  it('is read by src/config/config.ts alone', async () => {
    const readers: string[] = [];
    for (const path of await glob(['{src,integrations}/**/*.{ts,mjs,astro}', 'astro.config.mjs'], { cwd: root })) {
      const source = await readFile(join(root, path), 'utf8');
      if (touchesProcessEnvironment(path.endsWith('.astro') ? astroModuleCode(source) : source)) readers.push(path);
    }
    expect(readers).toEqual(['src/config/config.ts']);
  });

  it('is found however the code reaches it', () => {
    expect(touchesProcessEnvironment('const port = process.env.PORT;')).toBe(true);
    expect(touchesProcessEnvironment('const env = { ...process.env };')).toBe(true);
    expect(touchesProcessEnvironment("process.loadEnvFile('.env');")).toBe(true);
    expect(touchesProcessEnvironment('// process.env.PORT\nconst text = "process.env";')).toBe(false);
  });
});
