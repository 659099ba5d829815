import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAccountStore } from '../../../src/accounts/store.ts';
import { openDatabase, type Database } from '../../../src/db/open.ts';
import { createAccountTokens } from '../../../src/accounts/auth-tokens.ts';
import { databaseEngines } from '../../support/postgres.ts';

// `npm run apps -- token …` as operators run it, a child process configured by its environment;
// what it did is checked by authenticating the printed token against the same database.

const ROOT = resolve(import.meta.dirname, '../../..');

function apps(env: Record<string, string>, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = execFile(process.execPath, ['scripts/apps.ts', ...args], { cwd: ROOT, env: { ...process.env, ...env } }, (_error, stdout, stderr) =>
      done({ code: child.exitCode, stdout, stderr }),
    );
  });
}

describe.each(databaseEngines())('npm run apps -- token on $name', (engine) => {
  let env: Record<string, string>;
  let database: Database;
  /** The dashboard account the tokens are for. */
  let ops: string;

  beforeEach(async () => {
    const location = await engine.location();
    env =
      location.engine === 'postgres'
        ? { DATABASE_URL: location.url, APP_KEY_SECRET: randomBytes(32).toString('hex') }
        : { DATABASE_PATH: location.path, DATABASE_URL: '', APP_KEY_SECRET: '' };
    database = await openDatabase(location);
    ops = (await createAccountStore(database.db).create({ email: 'ops@example.com', password: 'a long enough password' })).id;
  });
  afterEach(() => database.close());

  it('creates a token shown once, lists tokens without their text, and revokes one', async () => {
    const created = await apps(env, 'token', 'create', '--owner', 'ops@example.com', '--name', 'deploy', '--json');
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const { token, secret } = JSON.parse(created.stdout) as { token: { id: string; ownerId: string; name: string }; secret: string };
    expect(token).toMatchObject({ ownerId: ops, name: 'deploy', revokedAt: null });
    expect(secret).toMatch(/^crt_[A-Za-z0-9_-]{43}$/);
    const tokens = createAccountTokens(database.db);
    expect(await tokens.authenticate(secret)).toBe(ops);
    // The database keeps nothing the token could be read back from.
    expect(JSON.stringify(await database.db.selectFrom('account_tokens').selectAll().execute())).not.toContain(secret);

    const listed = await apps(env, 'token', 'list');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(token.id);
    expect(listed.stdout).not.toContain(secret);

    const text = await apps(env, 'token', 'create', '--owner', ops);
    expect(text.stdout).toMatch(new RegExp(`^Created tok_[0-9a-f]{16} for ${ops}\\.\\ntoken: crt_[A-Za-z0-9_-]{43}\\n`));

    expect(await apps(env, 'token', 'revoke', token.id)).toMatchObject({ code: 0, stdout: `${token.id} is revoked.\n` });
    expect(await tokens.authenticate(secret)).toBeNull();
    expect(JSON.parse((await apps(env, 'token', 'list', '--owner', 'ops@example.com', '--json')).stdout).tokens).toHaveLength(2);
  });

  it('refuses bad use with exit code 2, and an unknown token or account with 1', async () => {
    expect(await apps(env, 'token', 'create')).toMatchObject({ code: 2, stderr: 'token create needs --owner <account>.\n' });
    expect(await apps(env, 'token', 'create', '--owner', 'has space')).toMatchObject({
      code: 1,
      stderr: 'There is no account "has space" (give a dashboard account\'s email or id).\n',
    });
    expect(await apps(env, 'token')).toMatchObject({ code: 2 });
    expect(await apps(env, 'token', 'revoke')).toMatchObject({ code: 2 });
    expect(await apps(env, 'token', 'list', '--name', 'x')).toMatchObject({ code: 2, stderr: '--name is not an option of token list.\n' });
    expect(await apps(env, 'token', 'revoke', 'tok_nope')).toMatchObject({ code: 1, stderr: 'There is no token "tok_nope".\n' });
  });
});
