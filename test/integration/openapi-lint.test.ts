import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { writeFixtureDist, type FixtureDist } from '../support/fixture-dist.ts';
import { startBuiltSite, type BuiltSite } from '../support/site.ts';

// The served /openapi.json through a real OpenAPI linter: Redocly CLI, recommended rules
// (redocly.yaml turns off no-path-trailing-slash: directory URLs such as /ja/ are by design).

const run = promisify(execFile);
const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
let fixture: FixtureDist;
let server: BuiltSite;
let scratch: string;

beforeAll(async () => {
  fixture = await writeFixtureDist();
  server = await startBuiltSite({ distDir: fixture.distDir });
  scratch = await mkdtemp(join(tmpdir(), 'crucible-openapi-'));
});

afterAll(async () => {
  await server?.stop();
  if (fixture) await rm(fixture.root, { recursive: true, force: true });
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

it('lints with no errors under @redocly/cli', async () => {
  const document = await (await fetch(`${server.origin}/openapi.json`)).text();
  const file = join(scratch, 'openapi.json');
  await writeFile(file, document);
  const cli = join(projectRoot, 'node_modules/@redocly/cli/bin/cli.js');
  const result = await run(process.execPath, [cli, 'lint', file, '--config', join(projectRoot, 'redocly.yaml'), '--format', 'json'], {
    cwd: scratch,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? '', stderr: error.stderr ?? '' }));
  const report = JSON.parse(result.stdout) as { totals: { errors: number }; problems: Array<{ ruleId: string; severity: string; message: string }> };
  expect(report.problems.filter((p) => p.severity === 'error')).toEqual([]);
  expect(report.totals.errors).toBe(0);
});
