import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../../src/apps/app.ts';
import { loadAppKeySecret } from '../../../src/apps/key-secret.ts';
import { createAppStore, type AppStore } from '../../../src/apps/store.ts';
import { createAccountStore } from '../../../src/accounts/store.ts';
import { readDatabaseConfig } from '../../../src/config/database.ts';
import { openDatabase, type Database } from '../../../src/db/open.ts';
import { databaseEngines } from '../../support/postgres.ts';

// The apps CLI as operators run it: node scripts/apps.ts in a child process, configured by the
// environment alone (and, as the README says, `npx crucible apps` and `npm run -s apps --`); what
// it did is checked through the app store on the same database.

const ROOT = resolve(import.meta.dirname, '../../..');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `command` (a program and its first arguments) with `args` in the project, as a person would from its folder. */
function run(command: readonly string[], env: Record<string, string>, ...args: string[]): Promise<Run> {
  const [program, ...first] = command;
  return new Promise((done) => {
    const child = execFile(program!, [...first, ...args], { cwd: ROOT, env: { ...process.env, ...env } }, (_error, stdout, stderr) => {
      child.once('exit', () => undefined);
      done({ code: child.exitCode, stdout, stderr });
    });
  });
}

const apps = (env: Record<string, string>, ...args: string[]) => run([process.execPath, 'scripts/apps.ts'], env, ...args);

describe.each(databaseEngines())('npm run apps on $name', (engine) => {
  let env: Record<string, string>;
  let database: Database;
  let store: AppStore;

  beforeEach(async () => {
    const location = await engine.location();
    env =
      location.engine === 'postgres'
        ? { DATABASE_URL: location.url, APP_KEY_SECRET: randomBytes(32).toString('hex') }
        : { DATABASE_PATH: location.path, DATABASE_URL: '', APP_KEY_SECRET: '' };
    const config = readDatabaseConfig(env);
    database = await openDatabase(config);
    store = createAppStore(database, { keySecret: await loadAppKeySecret(config), networks: ['base-sepolia'] });
  });
  afterEach(() => database.close());

  it('creates an app whose key the store finds, rotates its key and disables it', async () => {
    const created = await apps(
      env,
      'create',
      '--name',
      'Operator app',
      '--networks',
      'base-sepolia',
      '--domains',
      'Example.com',
      '--monthly-quota',
      'unlimited',
      '--json',
    );
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const { app, key } = JSON.parse(created.stdout) as { app: App; key: string };
    expect(app).toMatchObject({ name: 'Operator app', allowedNetworks: ['base-sepolia'], allowedDomains: ['example.com'], monthlyComputeUnitQuota: null });
    expect(await store.findByKey(key)).toEqual(app);

    const rotated = await apps(env, 'rotate', app.id, '--json');
    expect(rotated.code).toBe(0);
    const { key: newKey } = JSON.parse(rotated.stdout) as { key: string };
    expect(await store.findByKey(key)).toBeNull();
    expect((await store.findByKey(newKey))?.id).toBe(app.id);

    const disabled = await apps(env, 'disable', app.id, '--json');
    expect(disabled.code).toBe(0);
    expect(JSON.parse(disabled.stdout)).toMatchObject({ app: { id: app.id, state: 'disabled', version: 3 } });
    expect(await store.findByKey(newKey)).toMatchObject({ state: 'disabled' });

    const shown = await apps(env, 'show', app.id);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`^key: +${newKey}$`, 'm'));
    expect(shown.stdout).toMatch(/^state: +disabled$/m);
  });

  it('creates an app for a dashboard account named by its email or id, and refuses an account that does not exist', async () => {
    const account = await createAccountStore(database.db).create({ email: 'Ops@Example.com', password: 'a long enough password' });
    const byEmail = await apps(env, 'create', '--name', 'Owned', '--owner', 'ops@example.COM', '--json');
    expect(byEmail).toMatchObject({ code: 0, stderr: '' });
    const { app } = JSON.parse(byEmail.stdout) as { app: App };
    expect(app.ownerId).toBe(account.id);
    expect((await store.listByOwner(account.id)).map((owned) => owned.id)).toEqual([app.id]);
    expect((await apps(env, 'show', app.id)).stdout).toMatch(new RegExp(`^owner: +${account.id}$`, 'm'));
    expect(JSON.parse((await apps(env, 'create', '--name', 'Owned too', '--owner', account.id, '--json')).stdout).app.ownerId).toBe(account.id);

    const unknown = await apps(env, 'create', '--name', 'Orphan', '--owner', 'nobody@example.com');
    expect(unknown).toMatchObject({ code: 1, stdout: '', stderr: 'There is no account "nobody@example.com" (give a dashboard account\'s email or id).\n' });
    expect(await store.list()).toHaveLength(2);
  });

  it("takes the incumbent's network names (content/networks/aliases.yaml) and keeps the ids", async () => {
    const created = await apps(env, 'create', '--name', 'Aliases', '--networks', 'arb-sepolia,BASE_SEPOLIA,base-sepolia', '--json');
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const { app } = JSON.parse(created.stdout) as { app: App };
    expect(app.allowedNetworks).toEqual(['arbitrum-sepolia', 'base-sepolia']);
    // A name of the SDK's whose chain no network here has names nothing.
    const mainnet = await apps(env, 'create', '--name', 'x', '--networks', 'eth-mainnet');
    expect(mainnet).toMatchObject({ code: 2, stdout: '' });
    expect(mainnet.stderr).toMatch(/^--networks has "eth-mainnet", which is not a network id/);
  });

  it('refuses bad input with one sentence and exit code 2, writing nothing', async () => {
    const unknownNetwork = await apps(env, 'create', '--name', 'x', '--networks', 'base-sepolia,mainnet');
    expect(unknownNetwork.code).toBe(2);
    expect(unknownNetwork.stdout).toBe('');
    expect(unknownNetwork.stderr).toMatch(/^--networks has "mainnet", which is not a network id \(known: .*\)\.\n$/);
    expect(await store.list()).toEqual([]);
  });
});

describe('npm run apps', () => {
  const [sqlite] = databaseEngines();
  let env: Record<string, string>;

  beforeEach(async () => {
    const location = await sqlite!.location();
    env = { DATABASE_PATH: location.engine === 'sqlite' ? location.path : '', DATABASE_URL: '', APP_KEY_SECRET: '' };
  });

  it('lists apps in a table and as JSON', async () => {
    expect((await apps(env, 'list')).stdout).toMatch(/^No apps yet/);
    await apps(env, 'create', '--name', 'First');
    const table = await apps(env, 'list');
    expect(table.stdout.split('\n')[0]).toMatch(/^id +name +state +networks +domains +CU\/s +CU\/month +owner$/);
    expect(table.stdout.split('\n')[1]).toMatch(/^app_[0-9a-f]{16} +First +active +all +any +330 +300000000 +-$/);
    expect(JSON.parse((await apps(env, 'list', '--json')).stdout)).toMatchObject({ apps: [{ name: 'First' }] });
  });

  it.each([
    [['create'], /^create needs --name <name>\.\n$/],
    [['create', '--name', 'x', '--cu-per-second', 'fast'], /^--cu-per-second must be a whole number \(got "fast"\)\.\n$/],
    [['create', '--name', 'x', '--domains', 'https://example.com'], /^--domains has "https:\/\/example.com", which is neither a host/],
    [['rotate', 'app_1', '--grace-seconds', '9999999'], /^--grace-seconds must be a whole number of seconds from 0 to 2592000/],
    [['show'], /^show takes one app id/],
    [['list', '--name', 'x'], /^--name is not an option of list\.\n$/],
    [['--frobnicate'], /^There is no option --frobnicate/],
    [['launch'], /^There is no command "launch"/],
    [[], /^Name a command: create, list, show, rotate, disable, enable/],
  ])('exits 2 for %j', async (args, message) => {
    const run = await apps(env, ...args);
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toMatch(message);
  });

  it('exits 1 for an unknown app, naming it', async () => {
    expect(await apps(env, 'disable', 'app_0000000000000000')).toEqual({ code: 1, stdout: '', stderr: 'There is no app "app_0000000000000000".\n' });
  });

  it('prints its usage with --help', async () => {
    const help = await apps(env, '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npx crucible apps <command>/);
  });
});

// The README's two ways to call it: npm's own lines (its `> crucible@… apps` banner) must not reach
// stdout, so a script can JSON.parse what --json prints; npx runs the package's bin on the pinned Node.
describe.each([
  ['npx crucible apps', ['npx', 'crucible', 'apps']],
  ['npm run -s apps --', ['npm', 'run', '-s', 'apps', '--']],
])('%s', (_name, command) => {
  const [sqlite] = databaseEngines();
  let env: Record<string, string>;

  beforeEach(async () => {
    const location = await sqlite!.location();
    env = { DATABASE_PATH: location.engine === 'sqlite' ? location.path : '', DATABASE_URL: '', APP_KEY_SECRET: '' };
  });

  it('prints the --json document alone on stdout, and its exit codes', async () => {
    const created = await run(command, env, 'create', '--name', 'Scripted', '--json');
    expect(created.code, created.stderr).toBe(0);
    const { app, key } = JSON.parse(created.stdout) as { app: App; key: string };
    expect(app).toMatchObject({ name: 'Scripted', allowedNetworks: [], allowedDomains: [] });
    expect(key).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(JSON.parse((await run(command, env, 'list', '--json')).stdout)).toEqual({ apps: [app] });
    expect(await run(command, env, 'show', 'app_0000000000000000', '--json')).toMatchObject({ code: 1, stdout: '' });
  });

  it('prints its usage with --help', async () => {
    expect(await run(command, env, '--help')).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Usage: npx crucible apps <command>/) });
  });
});
