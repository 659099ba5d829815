import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

// `npm test` runs this first (pretest): the Debian packages the tests use, installed when
// missing if we are root with apt-get; otherwise it prints the apt-get command and fails.
// `--check` only reports. Node built-ins only.

export interface SystemRequirement {
  /** The Debian package that provides it. */
  package: string;
  /** A file the package installs; a `*` segment stands for any one folder (PostgreSQL's version). */
  file: string;
}

export const systemRequirements: SystemRequirement[] = [
  { package: 'chromium', file: '/usr/bin/chromium' }, // the e2e tests' browser
  { package: 'fonts-noto-cjk', file: '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc' }, // Chinese, Japanese, Korean pages in screenshots
  { package: 'redis-server', file: '/usr/bin/redis-server' },
  { package: 'postgresql', file: '/usr/lib/postgresql/*/bin/postgres' },
  { package: 'nginx', file: '/usr/sbin/nginx' }, // the load balancer of the topology suite (test/integration/topology/)
];

/** The packages whose file is missing, given which files exist. */
export function missingPackages(requirements: readonly SystemRequirement[], exists: (file: string) => boolean): string[] {
  return requirements.filter((requirement) => !exists(requirement.file)).map((requirement) => requirement.package);
}

export type SystemDepsPlan = { kind: 'ready' } | { kind: 'install'; commands: string[][] } | { kind: 'tell'; command: string };

/** Nothing to do, the commands to run, or the command line to tell the user (not root, no apt-get, or only checking). */
export function planSystemDeps(missing: readonly string[], context: { root: boolean; aptGet: boolean; check: boolean }): SystemDepsPlan {
  if (missing.length === 0) return { kind: 'ready' };
  const commands = [
    ['apt-get', 'update'],
    ['apt-get', 'install', '-y', '--no-install-recommends', ...missing],
  ];
  if (context.root && context.aptGet && !context.check) return { kind: 'install', commands };
  const sudo = context.root ? '' : 'sudo ';
  return { kind: 'tell', command: commands.map((command) => sudo + command.join(' ')).join(' && ') };
}

/** Whether `file` exists, a `*` segment matching any entry of its folder. */
export function fileExists(file: string): boolean {
  const star = file.indexOf('/*/');
  if (star < 0) return existsSync(file);
  const folder = file.slice(0, star);
  const rest = file.slice(star + 2);
  return existsSync(folder) && readdirSync(folder).some((entry) => fileExists(`${folder}/${entry}${rest}`));
}

function main(check: boolean): number {
  const missing = missingPackages(systemRequirements, fileExists);
  const plan = planSystemDeps(missing, { root: process.getuid?.() === 0, aptGet: existsSync('/usr/bin/apt-get'), check });
  if (plan.kind === 'ready') return 0;
  if (plan.kind === 'tell') {
    console.error(`The tests need these Debian packages, missing here: ${missing.join(' ')}\nInstall them with:\n  ${plan.command}`);
    return 1;
  }
  console.log(`Installing the Debian packages the tests need: ${missing.join(' ')}`);
  for (const [command, ...args] of plan.commands) {
    const run = spawnSync(command!, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (run.status !== 0) return run.status ?? 1;
  }
  const still = missingPackages(systemRequirements, fileExists);
  if (still.length > 0) console.error(`Installed, yet still missing: ${still.join(' ')}`);
  return still.length > 0 ? 1 : 0;
}

if (import.meta.main) process.exit(main(process.argv.includes('--check')));
