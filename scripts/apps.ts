// `npx crucible apps <command>` (or `npm run -s apps -- <command>`): the operators' CLI for apps and
// their keys (docs/keys-and-limits.md#managing-apps-from-the-command-line), over the database that DATABASE_URL or DATABASE_PATH names. Exit codes:
// 0 done, 1 failed (an unknown app, the database), 2 bad input. With --json, stdout holds the JSON
// document alone.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { App } from '../src/apps/app.ts';
import { AppInputError, AppNotFoundError } from '../src/apps/errors.ts';
import type { NewApp } from '../src/apps/input.ts';
import type { AppStore } from '../src/apps/store.ts';
import type { AccountStore } from '../src/accounts/store.ts';
import type { AccountTokens } from '../src/accounts/auth-tokens.ts';
import { NotFoundError } from '../src/accounts/errors.ts';
import { redactUrls } from '../src/log/redact.ts';

const USAGE = `Usage: npx crucible apps <command> [options]   (or: npm run -s apps -- <command> [options])

Commands:
  create --name <name> [--networks a,b] [--domains example.com,*.example.org]
         [--cu-per-second N] [--monthly-quota N|unlimited] [--owner <account>]
                                   a new app; prints its key; with --owner it is the account's
                                   (its dashboard lists it)
  list                             every app
  show <id>                        one app, with its key
  rotate <id> [--grace-seconds N]  a new key; the old one stops working now, or after N seconds
  disable <id>                     its key is refused (403) until it is enabled
  enable <id>
  token create --owner <account> [--name <name>]
                                   an account auth token for the webhook API (X-Crucible-Token);
                                   printed once, never shown again
  token list [--owner <account>]   every token (not their text)
  token revoke <token id>          the token stops working at once

Options:
  --json   print one JSON document (create, show and rotate include the key)
  --help   print this help

<account>: the email or the id (acc_…) of a dashboard account; it must exist.
Empty --networks or --domains: every network, any origin. Defaults: 330 compute units per
second, 300000000 per month.
`;

const options = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  name: { type: 'string' },
  networks: { type: 'string' },
  domains: { type: 'string' },
  'cu-per-second': { type: 'string' },
  'monthly-quota': { type: 'string' },
  'grace-seconds': { type: 'string' },
  owner: { type: 'string' },
} as const;
type Values = ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>['values'];

/** Each command's own options, and whether it takes an app id. */
const commands = {
  create: { options: ['name', 'networks', 'domains', 'cu-per-second', 'monthly-quota', 'owner'], takesId: false },
  list: { options: [], takesId: false },
  show: { options: [], takesId: true },
  rotate: { options: ['grace-seconds'], takesId: true },
  disable: { options: [], takesId: true },
  enable: { options: [], takesId: true },
  'token create': { options: ['name', 'owner'], takesId: false },
  'token list': { options: ['owner'], takesId: false },
  'token revoke': { options: [], takesId: true },
} as const satisfies Record<string, { options: ReadonlyArray<keyof typeof options>; takesId: boolean }>;
type Command = keyof typeof commands;

/** The flag that sets each field of the store's input, to name it in a refusal. */
const flagOfField: Record<string, string> = {
  name: '--name',
  allowedNetworks: '--networks',
  allowedDomains: '--domains',
  computeUnitsPerSecond: '--cu-per-second',
  monthlyComputeUnitQuota: '--monthly-quota',
  graceSeconds: '--grace-seconds',
  ownerId: '--owner',
};

/** Bad input on the command line: exit code 2. */
class UsageError extends Error {}
/** --owner names no account: exit code 1, as an unknown app. */
class UnknownAccountError extends Error {}

type Outcome = { json: unknown; text: string };

async function main(argv: string[]): Promise<number> {
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    const unknown = (error as NodeJS.ErrnoException).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && /'([^']+)'/.exec((error as Error).message)?.[1];
    throw new UsageError(unknown ? `There is no option ${unknown} (--help shows them).` : (error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  // `token <verb>` is one command of two words.
  const [first, ...others] = positionals;
  const [name, ...rest] = first === 'token' && others.length > 0 ? [`token ${others[0]}`, ...others.slice(1)] : positionals;
  if (name === undefined) throw new UsageError(`Name a command: ${Object.keys(commands).join(', ')} (--help shows them).`);
  if (name === 'token') throw new UsageError('token takes create, list or revoke (--help shows them).');
  if (!Object.hasOwn(commands, name)) throw new UsageError(`There is no command "${name}": use ${Object.keys(commands).join(', ')} (--help shows them).`);
  const command = name as Command;
  const { options: own, takesId } = commands[command];
  const foreign = Object.keys(values).find((option) => option !== 'json' && !(own as readonly string[]).includes(option));
  if (foreign) throw new UsageError(`--${foreign} is not an option of ${command}.`);
  if (takesId && rest.length !== 1)
    throw new UsageError(`${command} takes one ${command.startsWith('token') ? 'token' : 'app'} id (npx crucible apps ${command} <id>).`);
  if (!takesId && rest.length > 0) throw new UsageError(`${command} takes no ${rest.length === 1 ? 'argument' : 'arguments'} (got ${rest.join(' ')}).`);
  const act = command.startsWith('token ') ? null : action(command, rest[0] ?? '', values);
  const actOnTokens = command.startsWith('token ') ? tokenAction(command, rest[0] ?? '', values) : null;

  // Loaded once the arguments are known good: --help and usage errors answer without them.
  const [
    { databaseConfig },
    { loadNetworkNames },
    { openDatabase },
    { loadAppKeySecret },
    { createAppStore },
    { createAccountTokens },
    { createAccountStore },
  ] = await Promise.all([
    import('../src/config/config.ts'),
    import('../src/site/read-content.ts'),
    import('../src/db/open.ts'),
    import('../src/apps/key-secret.ts'),
    import('../src/apps/store.ts'),
    import('../src/accounts/auth-tokens.ts'),
    import('../src/accounts/store.ts'),
  ]);
  const config = databaseConfig();
  const database = await openDatabase(config);
  try {
    const owner = values.owner === undefined ? undefined : await accountIdOf(createAccountStore(database.db), values.owner);
    let outcome: Outcome;
    if (actOnTokens) outcome = await actOnTokens(createAccountTokens(database.db), owner);
    else {
      const names = await loadNetworkNames(resolve(import.meta.dirname, '..'));
      outcome = await act!(createAppStore(database, { keySecret: await loadAppKeySecret(config), networks: names.ids, networkIdOf: names.idOf }), owner);
    }
    process.stdout.write(values.json ? `${JSON.stringify(outcome.json, null, 2)}\n` : outcome.text);
    return 0;
  } finally {
    await database.close();
  }
}

/** The id of the account `owner` names: its id (`acc_…`) or its email. */
async function accountIdOf(accounts: AccountStore, owner: string): Promise<string> {
  const account = owner.startsWith('acc_') ? await accounts.get(owner) : await accounts.findByEmail(owner);
  if (!account) throw new UnknownAccountError(`There is no account "${owner}" (give a dashboard account's email or id).`);
  return account.id;
}

/** Checks the command's own options, and returns what it does with the store (and the account --owner named). */
function action(command: Command, id: string, values: Values): (store: AppStore, owner?: string) => Promise<Outcome> {
  switch (command) {
    case 'create': {
      if (values.name === undefined) throw new UsageError('create needs --name <name>.');
      const quota = values['monthly-quota'];
      const input: NewApp = {
        name: values.name,
        ...(values.networks !== undefined && { allowedNetworks: list(values.networks) }),
        ...(values.domains !== undefined && { allowedDomains: list(values.domains) }),
        ...(values['cu-per-second'] !== undefined && { computeUnitsPerSecond: wholeNumber('--cu-per-second', values['cu-per-second']) }),
        ...(quota !== undefined && { monthlyComputeUnitQuota: quota === 'unlimited' ? null : wholeNumber('--monthly-quota', quota) }),
      };
      return async (store, owner) => {
        const { app, key } = await store.create({ ...input, ...(owner !== undefined && { ownerId: owner }) });
        return { json: { app, key }, text: `Created ${app.id} (${app.name}).\nkey: ${key}\n` };
      };
    }
    case 'list':
      return async (store) => {
        const apps = await store.list();
        return { json: { apps }, text: apps.length === 0 ? 'No apps yet: npx crucible apps create --name <name>\n' : table(apps) };
      };
    case 'show':
      return async (store) => {
        const [app, key] = await Promise.all([store.get(id), store.revealKey(id)]);
        return { json: { app, key }, text: describe(app, key) };
      };
    case 'rotate': {
      const grace = values['grace-seconds'];
      const options = grace === undefined ? {} : { graceSeconds: wholeNumber('--grace-seconds', grace) };
      return async (store) => {
        const { app, key } = await store.rotate(id, options);
        const old = app.previousKeyExpiresAt === null ? 'The old key no longer works.' : `The old key works until ${isoTime(app.previousKeyExpiresAt)}.`;
        return { json: { app, key }, text: `New key for ${app.id}: ${key}\n${old}\n` };
      };
    }
    case 'disable':
    case 'enable':
      return async (store) => {
        const app = await store.setState(id, command === 'disable' ? 'disabled' : 'active');
        return { json: { app }, text: `${app.id} is ${app.state}.\n` };
      };
    default:
      throw new UsageError(`${command} is not an app command.`);
  }
}

/** The account token commands: what each does with the tokens. */
function tokenAction(command: Command, id: string, values: Values): (tokens: AccountTokens, owner?: string) => Promise<Outcome> {
  switch (command) {
    case 'token create': {
      if (values.owner === undefined) throw new UsageError('token create needs --owner <account>.');
      return async (tokens, owner) => {
        const { token, secret } = await tokens.create({ ownerId: owner!, name: values.name ?? null });
        return {
          json: { token, secret },
          text: `Created ${token.id} for ${token.ownerId}.\ntoken: ${secret}\nSend it as X-Crucible-Token; it is not shown again.\n`,
        };
      };
    }
    case 'token list':
      return async (tokens, owner) => {
        const list = await tokens.list(owner);
        const rows = list.map((token) =>
          [
            token.id,
            token.ownerId,
            token.name ?? '',
            token.revokedAt === null ? 'active' : `revoked ${isoTime(token.revokedAt)}`,
            isoTime(token.createdAt),
          ].join('  '),
        );
        return {
          json: { tokens: list },
          text: rows.length === 0 ? 'No tokens yet: npx crucible apps token create --owner <account>\n' : `${rows.join('\n')}\n`,
        };
      };
    case 'token revoke':
      return async (tokens) => {
        const token = await tokens.revoke(id);
        return { json: { token }, text: `${token.id} is revoked.\n` };
      };
    default:
      throw new UsageError(`${command} is not a token command.`);
  }
}

function list(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

function wholeNumber(flag: string, value: string): number {
  if (!/^\d+$/.test(value)) throw new UsageError(`${flag} must be a whole number (got ${JSON.stringify(value)}).`);
  return Number(value);
}

function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

function quotaText(app: App): string {
  return app.monthlyComputeUnitQuota === null ? 'unlimited' : String(app.monthlyComputeUnitQuota);
}

function table(apps: App[]): string {
  const rows = [
    ['id', 'name', 'state', 'networks', 'domains', 'CU/s', 'CU/month', 'owner'],
    ...apps.map((app) => [
      app.id,
      app.name,
      app.state,
      app.allowedNetworks.join(',') || 'all',
      app.allowedDomains.join(',') || 'any',
      String(app.computeUnitsPerSecond),
      quotaText(app),
      app.ownerId ?? '-',
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) => `${row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ')}`.trimEnd())
    .join('\n')
    .concat('\n');
}

function describe(app: App, key: string): string {
  const lines: Array<[string, string]> = [
    ['id', app.id],
    ['name', app.name],
    ['state', app.state],
    ['key', key],
    ['networks', app.allowedNetworks.join(', ') || 'all'],
    ['domains', app.allowedDomains.join(', ') || 'any'],
    ['CU per second', String(app.computeUnitsPerSecond)],
    ['CU per month', quotaText(app)],
    ['owner', app.ownerId ?? 'none (created here)'],
    ['created', isoTime(app.createdAt)],
    ['updated', `${isoTime(app.updatedAt)} (version ${app.version})`],
  ];
  if (app.previousKeyExpiresAt !== null) lines.push(['previous key', `works until ${isoTime(app.previousKeyExpiresAt)}`]);
  return lines
    .map(([label, value]) => `${`${label}:`.padEnd(15)}${value}`)
    .join('\n')
    .concat('\n');
}

/** One sentence on stderr and the exit code; never a key, never a database password. */
function failure(error: unknown): { message: string; code: number } {
  if (error instanceof UsageError) return { message: error.message, code: 2 };
  if (error instanceof AppInputError) return { message: `${flagOfField[error.field] ?? error.field} ${error.reason}.`, code: 2 };
  if (error instanceof AppNotFoundError || error instanceof NotFoundError || error instanceof UnknownAccountError) return { message: error.message, code: 1 };
  return { message: redactUrls(error instanceof Error ? error.message : String(error)), code: 1 };
}

/** Runs one command of `argv` (the arguments after `apps`); resolves with the exit code. */
export async function runApps(argv: string[]): Promise<number> {
  try {
    return await main(argv);
  } catch (error) {
    const { message, code } = failure(error);
    process.stderr.write(`${message}\n`);
    return code;
  }
}

if (import.meta.main) process.exitCode = await runApps(process.argv.slice(2));
