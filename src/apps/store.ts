import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/open.ts';
import { insertUnderOwnerCap } from '../db/owner-cap.ts';
import type { AppRow, DatabaseSchema } from '../db/schema.ts';
import type { App, AppState } from './app.ts';
import { AccountLimitError, AppKeySealError, AppNotFoundError, StaleVersionError } from './errors.ts';
import { appInputParser, parseExpectedVersion, parseRotateOptions, parseState, type AppPatch, type NewApp, type RotateOptions } from './input.ts';
import { hasAppKeyShape, hashAppKey, newAppId, newAppKey, openSealedAppKey, sameKeyHash, sealAppKey } from './keys.ts';
import type { NetworkIdOf } from '../site/network-names.ts';

// Apps and their keys over the database (docs/keys-and-limits.md#key-format), the same on SQLite and PostgreSQL.

export interface AppStore {
  /**
   * A new app and its key: the one time the key is handed out unasked. With `maxPerOwner` (the
   * dashboard's cap; the operator's CLI has none), AccountLimitError when its owner already has
   * that many apps, however many creates race.
   */
  create(input: NewApp, options?: { maxPerOwner?: number }): Promise<{ app: App; key: string }>;
  /** Every app, oldest first. */
  list(): Promise<App[]>;
  /** The apps of one account, newest first (the dashboard's list). */
  listByOwner(ownerId: string): Promise<App[]>;
  get(id: string): Promise<App>;
  /** The app's current key, for its owner. */
  revealKey(id: string): Promise<string>;
  /**
   * The app this key belongs to, whatever its state (a disabled app is refused by the gateway
   * as such): its current key, or the previous one within its grace period. null: no app.
   */
  findByKey(key: string): Promise<App | null>;
  /** A new key; the old one stops working at once, or after `graceSeconds`. */
  rotate(id: string, options?: RotateOptions): Promise<{ app: App; key: string }>;
  setState(id: string, state: AppState): Promise<App>;
  /**
   * Replaces the given settings, and the state when one is given, in one change; with
   * `expectedVersion`, only if the app is still at that version (else StaleVersionError).
   */
  update(id: string, patch: AppPatch & { state?: AppState }, expectedVersion?: number): Promise<App>;
  /** Deletes the app: its key stops working. Its recorded usage stays. */
  delete(id: string): Promise<void>;
}

export interface AppStoreOptions {
  /** 32 bytes sealing the stored keys (loadAppKeySecret). */
  keySecret: Buffer;
  /** The network ids an app may be limited to (content/networks/). */
  networks: readonly string[];
  /** The id another name of a network stands for (the incumbent's names); default: ids only. */
  networkIdOf?: NetworkIdOf;
  /** Milliseconds since the epoch; tests pass their own clock. */
  now?: () => number;
}

export function createAppStore(database: Database, options: AppStoreOptions): AppStore {
  const { db } = database;
  const { keySecret } = options;
  const now = options.now ?? Date.now;
  const parse = appInputParser(options.networks, options.networkIdOf);

  const get = async (id: string): Promise<App> => {
    const row = await db.selectFrom('apps').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw new AppNotFoundError(id);
    return toApp(row, now());
  };
  /** The row an update returned, or the app's absence as an error. */
  const updated = async (id: string, row: Selectable<AppRow> | undefined, at: number): Promise<App> => (row ? toApp(row, at) : get(id));
  const newKeyColumns = (id: string) => {
    const key = newAppKey();
    return { key, columns: { key_hash: hashAppKey(key), key_sealed: sealAppKey(key, id, keySecret) } };
  };

  return {
    async create(input, { maxPerOwner } = {}) {
      const app = parse.newApp(input);
      const at = now();
      const id = newAppId();
      const { key, columns } = newKeyColumns(id);
      const row: AppRow = {
        id,
        name: app.name,
        owner_id: app.ownerId,
        ...columns,
        previous_key_hash: null,
        previous_key_expires_at: null,
        allowed_domains: JSON.stringify(app.allowedDomains),
        allowed_networks: JSON.stringify(app.allowedNetworks),
        compute_units_per_second: app.computeUnitsPerSecond,
        monthly_compute_unit_quota: app.monthlyComputeUnitQuota,
        state: 'active',
        created_at: at,
        updated_at: at,
        version: 1,
      };
      const insert = (into: Kysely<DatabaseSchema>) => into.insertInto('apps').values(row).execute();
      if (maxPerOwner === undefined || app.ownerId === null) await insert(db);
      else if (!(await insertUnderOwnerCap(db, { table: 'apps', ownerId: app.ownerId, max: maxPerOwner }, insert)))
        throw new AccountLimitError('appsPerAccount', maxPerOwner);
      return { app: toApp(row, at), key };
    },

    async list() {
      const at = now();
      const rows = await db.selectFrom('apps').selectAll().orderBy('created_at').orderBy('id').execute();
      return rows.map((row) => toApp(row, at));
    },

    async listByOwner(ownerId) {
      const at = now();
      const rows = await db.selectFrom('apps').selectAll().where('owner_id', '=', ownerId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
      return rows.map((row) => toApp(row, at));
    },

    get,

    async revealKey(id) {
      const row = await db.selectFrom('apps').select('key_sealed').where('id', '=', id).executeTakeFirst();
      if (!row) throw new AppNotFoundError(id);
      const key = openSealedAppKey(row.key_sealed, id, keySecret);
      if (key === null) throw new AppKeySealError(id);
      return key;
    },

    async findByKey(key) {
      if (!hasAppKeyShape(key)) return null;
      const hash = hashAppKey(key);
      const at = now();
      const row = await db
        .selectFrom('apps')
        .selectAll()
        .where((eb) => eb.or([eb('key_hash', '=', hash), eb.and([eb('previous_key_hash', '=', hash), eb('previous_key_expires_at', '>', at)])]))
        .executeTakeFirst();
      if (!row) return null;
      const current = sameKeyHash(row.key_hash, hash);
      const previous = row.previous_key_hash !== null && (row.previous_key_expires_at ?? 0) > at && sameKeyHash(row.previous_key_hash, hash);
      return current || previous ? toApp(row, at) : null;
    },

    async rotate(id, options) {
      const { graceSeconds } = parseRotateOptions(options);
      const at = now();
      const { key, columns } = newKeyColumns(id);
      const row = await db
        .updateTable('apps')
        // Every right-hand side reads the row as it was: the previous key is the one replaced.
        .set((eb) => ({
          ...columns,
          previous_key_hash: graceSeconds > 0 ? eb.ref('key_hash') : null,
          previous_key_expires_at: graceSeconds > 0 ? at + graceSeconds * 1000 : null,
          version: eb('version', '+', 1),
          updated_at: at,
        }))
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      if (!row) throw new AppNotFoundError(id);
      return { app: toApp(row, at), key };
    },

    async setState(id, state) {
      const next = parseState(state);
      const at = now();
      const row = await db
        .updateTable('apps')
        .set((eb) => ({ state: next, version: eb('version', '+', 1), updated_at: at }))
        .where('id', '=', id)
        .where('state', '<>', next)
        .returningAll()
        .executeTakeFirst();
      return updated(id, row, at);
    },

    async update(id, input, expectedVersion) {
      const { state: givenState, ...settings } = input;
      const state = givenState === undefined ? undefined : parseState(givenState);
      // A change of state alone names no setting.
      const patch = state !== undefined && Object.keys(settings).length === 0 ? {} : parse.patch(settings);
      const version = parseExpectedVersion(expectedVersion);
      const at = now();
      let query = db
        .updateTable('apps')
        .set((eb) => ({
          ...(patch.name !== undefined && { name: patch.name }),
          ...(patch.allowedDomains !== undefined && { allowed_domains: JSON.stringify(patch.allowedDomains) }),
          ...(patch.allowedNetworks !== undefined && { allowed_networks: JSON.stringify(patch.allowedNetworks) }),
          ...(patch.computeUnitsPerSecond !== undefined && { compute_units_per_second: patch.computeUnitsPerSecond }),
          ...(patch.monthlyComputeUnitQuota !== undefined && { monthly_compute_unit_quota: patch.monthlyComputeUnitQuota }),
          ...(state !== undefined && { state }),
          version: eb('version', '+', 1),
          updated_at: at,
        }))
        .where('id', '=', id);
      if (version !== undefined) query = query.where('version', '=', version);
      const row = await query.returningAll().executeTakeFirst();
      const app = await updated(id, row, at);
      if (!row && version !== undefined) throw new StaleVersionError(id, version, app.version);
      return app;
    },

    async delete(id) {
      const deleted = await db.deleteFrom('apps').where('id', '=', id).executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) throw new AppNotFoundError(id);
    },
  };
}

function toApp(row: Selectable<AppRow>, at: number): App {
  return {
    id: row.id,
    name: row.name,
    ownerId: row.owner_id,
    allowedDomains: JSON.parse(row.allowed_domains) as string[],
    allowedNetworks: JSON.parse(row.allowed_networks) as string[],
    computeUnitsPerSecond: row.compute_units_per_second,
    monthlyComputeUnitQuota: row.monthly_compute_unit_quota,
    state: row.state,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: row.version,
    previousKeyExpiresAt: row.previous_key_expires_at !== null && row.previous_key_expires_at > at ? row.previous_key_expires_at : null,
  };
}
