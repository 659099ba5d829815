import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { missingPackages, planSystemDeps, systemRequirements } from '../../../scripts/system-deps.ts';
import { projectRoot } from '../../support/build.ts';

// `npm test`'s pretest: which Debian packages are missing, and what it does about them.

const installedFiles = (...packages: string[]) => {
  const files = new Set(systemRequirements.filter((requirement) => packages.includes(requirement.package)).map((requirement) => requirement.file));
  return (file: string) => files.has(file);
};
const asRoot = { root: true, aptGet: true, check: false };

describe('system dependencies of the tests', () => {
  it('covers the browser, CJK fonts, Redis, PostgreSQL and nginx', () => {
    expect(systemRequirements.map((requirement) => requirement.package).sort()).toEqual(['chromium', 'fonts-noto-cjk', 'nginx', 'postgresql', 'redis-server']);
    expect(systemRequirements.find((requirement) => requirement.package === 'nginx')?.file).toBe('/usr/sbin/nginx');
    expect(systemRequirements.find((requirement) => requirement.package === 'postgresql')?.file).toBe('/usr/lib/postgresql/*/bin/postgres');
  });

  it('does nothing when every package is there', () => {
    const missing = missingPackages(systemRequirements, installedFiles('chromium', 'fonts-noto-cjk', 'redis-server', 'postgresql', 'nginx'));
    expect(missing).toEqual([]);
    expect(planSystemDeps(missing, asRoot)).toEqual({ kind: 'ready' });
  });

  it('installs exactly the missing packages as root: one apt-get update, one apt-get install', () => {
    const missing = missingPackages(systemRequirements, installedFiles('chromium', 'fonts-noto-cjk'));
    expect(missing).toEqual(['redis-server', 'postgresql', 'nginx']);
    expect(planSystemDeps(missing, asRoot)).toEqual({
      kind: 'install',
      commands: [
        ['apt-get', 'update'],
        ['apt-get', 'install', '-y', '--no-install-recommends', 'redis-server', 'postgresql', 'nginx'],
      ],
    });
  });

  it('tells anyone else the command to run', () => {
    const missing = missingPackages(systemRequirements, installedFiles('redis-server', 'postgresql', 'fonts-noto-cjk', 'nginx'));
    expect(planSystemDeps(missing, { ...asRoot, root: false })).toEqual({
      kind: 'tell',
      command: 'sudo apt-get update && sudo apt-get install -y --no-install-recommends chromium',
    });
    expect(planSystemDeps(missing, { ...asRoot, aptGet: false })).toEqual({
      kind: 'tell',
      command: 'apt-get update && apt-get install -y --no-install-recommends chromium',
    });
    expect(planSystemDeps(missing, { ...asRoot, check: true })).toEqual({
      kind: 'tell',
      command: 'apt-get update && apt-get install -y --no-install-recommends chromium',
    });
  });

  it('finds every package on this machine, as the tests need them (--check installs nothing)', () => {
    const run = spawnSync(process.execPath, [join(projectRoot, 'scripts/system-deps.ts'), '--check'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
