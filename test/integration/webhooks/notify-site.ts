import type { DatabaseLocation } from '../../../src/config/database.ts';
import { createAccountTokens } from '../../../src/accounts/auth-tokens.ts';
import { loadAppKeySecret } from '../../../src/apps/key-secret.ts';
import { createAppStore } from '../../../src/apps/store.ts';
import { openDatabase, type Database } from '../../../src/db/open.ts';
import { databaseEnv } from '../../support/crash.ts';

// An account, its auth token and an app with its key, written to a database before the production
// server starts on it: what a user of the SDK's notify namespace has made in the dashboard.

/** Any 32 bytes: support/crash.ts's databaseEnv gives PostgreSQL servers this secret. */
const POSTGRES_APP_KEY_SECRET = Buffer.from('11'.repeat(32), 'hex');

export interface NotifyAccount {
  ownerId: string;
  /** An account auth token (`crt_…`) of the owner. */
  token: string;
  /** An app of the owner, and its key. */
  app: { id: string; key: string };
  /** Another owner's app, which the owner's webhooks may not name. */
  strangersApp: { id: string };
}

export async function prepareAccount(location: DatabaseLocation, networks: readonly string[]): Promise<{ database: Database; account: NotifyAccount }> {
  const database = await openDatabase(location);
  const keySecret =
    location.engine === 'postgres' ? POSTGRES_APP_KEY_SECRET : await loadAppKeySecret({ engine: 'sqlite', path: location.path, appKeySecret: null });
  const apps = createAppStore(database, { keySecret, networks: [...networks] });
  const ownerId = 'acct_notify';
  const { secret } = await createAccountTokens(database.db).create({ ownerId, name: 'sdk' });
  const mine = await apps.create({ name: 'wallet backend', ownerId });
  const theirs = await apps.create({ name: 'someone else', ownerId: 'acct_stranger' });
  return { database, account: { ownerId, token: secret, app: { id: mine.app.id, key: mine.key }, strangersApp: { id: theirs.app.id } } };
}

export { databaseEnv };
