import { randomBytes } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { AccountLimitError } from '../apps/errors.ts';
import { insertUnderOwnerCap } from '../db/owner-cap.ts';
import type { DatabaseSchema, WebhookAttemptRow, WebhookDeliveryRow, WebhookRow } from '../db/schema.ts';
import { addressPage, changeAddresses, clearAddresses, parseAddresses } from './addresses.ts';
import { WebhookInputError, WebhookNotFoundError } from './errors.ts';
import { changeFilterEntries, filterEntries, type FilterEntry } from './nft-filter-entries.ts';
import { MAX_NAME_LENGTH, NFT_WEBHOOK_TYPES, TRANSACTION_WEBHOOK_TYPES, WEBHOOK_TYPES, type WebhookType } from './schemas.ts';
import { parseFilters, parseWebhookUrl, type NftToken, type UrlRules, type Webhook, type WebhookFilters } from './webhook.ts';
import type { NetworkIdOf } from '../site/network-names.ts';

// Webhooks, their deliveries and attempts over the database (docs/webhooks.md#registration-api), the same on SQLite and
// PostgreSQL: the one store behind both ways to manage a webhook, /api/webhooks and the SDK's
// /api/notify. Every call names the owner: another owner's webhook is not found, exactly as a
// missing one, so ids reveal nothing. An owner may have at most `maxPerOwner` webhooks, an
// ADDRESS_ACTIVITY webhook at most `maxAddresses` addresses.

interface FiltersInput {
  contractAddresses?: string[];
  tokenIds?: string[];
  tokens?: NftToken[];
}

interface NewWebhook {
  type: WebhookType;
  network: string;
  url: string;
  filters?: FiltersInput;
  /** ADDRESS_ACTIVITY only. */
  addresses?: string[];
  /** MINED_TRANSACTION and DROPPED_TRANSACTION: required, an app of the owner. */
  appId?: string;
  name?: string;
}

interface WebhookPatch {
  url?: string;
  filters?: FiltersInput;
  /** null clears it. */
  name?: string | null;
}

type EntryInput = { contractAddress: string; tokenId?: string };

type DeliveryStatus = WebhookDeliveryRow['status'];

export interface DeliverySummary {
  id: string;
  status: DeliveryStatus;
  /** The block its activity is in; null for a metadata update. */
  blockNumber: number | null;
  attempts: number;
  createdAt: number;
  /** When it was delivered or finally failed. */
  completedAt: number | null;
  /** When it is sent next, while pending. */
  nextAttemptAt: number | null;
  lastHttpStatus: number | null;
  lastError: string | null;
}

export interface DeliveryAttempt {
  attempt: number;
  /** `sending` until the answer is recorded; `abandoned` when the process sending it stopped first. */
  outcome: WebhookAttemptRow['outcome'];
  httpStatus: number | null;
  error: string | null;
  durationMs: number | null;
  startedAt: number;
}

export interface DeliveryDetail extends DeliverySummary {
  /** The body POSTed, parsed. */
  payload: unknown;
  attemptList: DeliveryAttempt[];
}

interface DeliveryPage {
  deliveries: DeliverySummary[];
  /** Pass as `after` for the next (older) page; null on the last. */
  next: number | null;
}

export interface WebhookStore {
  /** AccountLimitError when the owner already has `maxPerOwner` webhooks, however many creates race. */
  create(ownerId: string, input: NewWebhook): Promise<Webhook>;
  /** The most webhooks one owner may have (WEBHOOKS_PER_ACCOUNT); null: no cap. */
  readonly maxPerOwner: number | null;
  /** The owner's webhooks, oldest first. */
  list(ownerId: string): Promise<Webhook[]>;
  get(ownerId: string, id: string): Promise<Webhook>;
  update(ownerId: string, id: string, patch: WebhookPatch): Promise<Webhook>;
  /** Nothing is queued for a paused webhook; what was queued waits. */
  pause(ownerId: string, id: string): Promise<Webhook>;
  /** Active again, its failure count reset; queued deliveries go out in order. */
  resume(ownerId: string, id: string): Promise<Webhook>;
  /** The webhook, its deliveries and their attempts. */
  delete(ownerId: string, id: string): Promise<void>;
  /** Newest first; `after`: the `next` of the page before. */
  deliveries(ownerId: string, webhookId: string, options: { limit: number; after?: number; status?: DeliveryStatus }): Promise<DeliveryPage>;
  delivery(ownerId: string, webhookId: string, deliveryId: string): Promise<DeliveryDetail>;
  /** ADDRESS_ACTIVITY: a page of its addresses in address order, after the last of the page before. */
  addresses(ownerId: string, webhookId: string, page: { limit: number; after?: string }): Promise<{ addresses: string[]; total: number; next: string | null }>;
  /** ADDRESS_ACTIVITY: addresses added and removed in place (one in both is removed); refused past `maxAddresses`. */
  changeAddresses(ownerId: string, webhookId: string, change: { add?: string[]; remove?: string[] }): Promise<Webhook>;
  /** ADDRESS_ACTIVITY: the addresses replaced whole. */
  replaceAddresses(ownerId: string, webhookId: string, addresses: string[]): Promise<Webhook>;
  /** NFT types: a page of the filters as entries (nft-filter-entries.ts), from `offset`. */
  filterEntries(ownerId: string, webhookId: string, page: { limit: number; offset: number }): Promise<{ entries: FilterEntry[]; total: number }>;
  /** NFT types: entries added and removed (removed after added). */
  changeFilterEntries(ownerId: string, webhookId: string, change: { add?: EntryInput[]; remove?: EntryInput[] }): Promise<Webhook>;
  /** The most addresses one ADDRESS_ACTIVITY webhook may list (WEBHOOK_MAX_ADDRESSES). */
  readonly maxAddresses: number;
}

export interface WebhookStoreOptions {
  /** Network ids a webhook may name (content/networks/). */
  networks: readonly string[];
  /** The id another name of a network stands for (the incumbent's names); default: ids only. A webhook keeps the id. */
  networkIdOf?: NetworkIdOf;
  urlRules: UrlRules;
  /** The most webhooks one owner may have (WEBHOOKS_PER_ACCOUNT); unset, no cap. */
  maxPerOwner?: number;
  /** The most addresses an ADDRESS_ACTIVITY webhook may list (WEBHOOK_MAX_ADDRESSES); default DEFAULT_MAX_ADDRESSES. */
  maxAddresses?: number;
  now?: () => number;
}

/** The addresses an ADDRESS_ACTIVITY webhook may list unless WEBHOOK_MAX_ADDRESSES says otherwise. */
const DEFAULT_MAX_ADDRESSES = 100_000;

const PAUSED_BY_OWNER = 'paused by its owner';

export function createWebhookStore(db: Kysely<DatabaseSchema>, options: WebhookStoreOptions): WebhookStore {
  const now = options.now ?? Date.now;
  const maxPerOwner = options.maxPerOwner ?? null;
  const maxAddresses = options.maxAddresses ?? DEFAULT_MAX_ADDRESSES;

  const row = async (ownerId: string, id: string): Promise<Selectable<WebhookRow>> => {
    const found = await db.selectFrom('webhooks').selectAll().where('id', '=', id).where('owner_id', '=', ownerId).executeTakeFirst();
    if (!found) throw new WebhookNotFoundError('webhook', id);
    return found;
  };
  const change = async (ownerId: string, id: string, set: Partial<WebhookRow>, executor: Kysely<DatabaseSchema> = db): Promise<Webhook> => {
    const updated = await executor
      .updateTable('webhooks')
      .set({ ...set, updated_at: now() })
      .where('id', '=', id)
      .where('owner_id', '=', ownerId)
      .returningAll()
      .executeTakeFirst();
    if (!updated) throw new WebhookNotFoundError('webhook', id);
    return toWebhook(updated);
  };

  return {
    async create(ownerId, input) {
      if (!(WEBHOOK_TYPES as readonly string[]).includes(input.type)) throw new WebhookInputError('type', `must be one of ${WEBHOOK_TYPES.join(', ')}`);
      const network = options.networks.includes(input.network) ? input.network : options.networkIdOf?.(input.network);
      if (!network || !options.networks.includes(network)) throw new WebhookInputError('network', `must be one of ${options.networks.join(', ')}`);
      const url = parseWebhookUrl(input.url, options.urlRules);
      const filters = parseFilters(input.type, input.filters);
      if (input.type !== 'ADDRESS_ACTIVITY' && input.addresses !== undefined)
        throw new WebhookInputError('addresses', `apply to ADDRESS_ACTIVITY webhooks only, not ${input.type}`);
      const addresses = parseAddresses(input.addresses ?? [], 'addresses');
      if (addresses.length > maxAddresses) throw new WebhookInputError('addresses', `must number at most ${maxAddresses} (got ${addresses.length})`);
      const appId = await ownersApp(ownerId, input.type, input.appId);
      const at = now();
      const created: WebhookRow = {
        id: `wh_${randomBytes(8).toString('hex')}`,
        owner_id: ownerId,
        type: input.type,
        network,
        url,
        ...filterColumns(filters),
        signing_key: `whsec_${randomBytes(32).toString('base64url')}`,
        state: 'active',
        paused_reason: null,
        consecutive_failures: 0,
        next_seq: 1,
        created_at: at,
        updated_at: at,
        app_id: appId,
        name: parseName(input.name),
        address_count: addresses.length,
      };
      const insert = async (into: Kysely<DatabaseSchema>) => {
        await into.insertInto('webhooks').values(created).execute();
        if (addresses.length > 0) await changeAddresses(db, into, created, { add: addresses, remove: [] }, maxAddresses);
      };
      if (maxPerOwner === null) await db.transaction().execute(insert);
      else if (!(await insertUnderOwnerCap(db, { table: 'webhooks', ownerId, max: maxPerOwner }, insert)))
        throw new AccountLimitError('webhooksPerAccount', maxPerOwner);
      return toWebhook(created);
    },

    maxPerOwner,

    async list(ownerId) {
      const rows = await db.selectFrom('webhooks').selectAll().where('owner_id', '=', ownerId).orderBy('created_at').orderBy('id').execute();
      return rows.map(toWebhook);
    },

    get: async (ownerId, id) => toWebhook(await row(ownerId, id)),

    async update(ownerId, id, patch) {
      const current = await row(ownerId, id);
      return change(ownerId, id, {
        ...(patch.url !== undefined && { url: parseWebhookUrl(patch.url, options.urlRules) }),
        ...(patch.filters !== undefined && filterColumns(parseFilters(current.type, patch.filters))),
        ...(patch.name !== undefined && { name: parseName(patch.name) }),
      });
    },

    pause: (ownerId, id) => change(ownerId, id, { state: 'paused', paused_reason: PAUSED_BY_OWNER }),
    resume: (ownerId, id) => change(ownerId, id, { state: 'active', paused_reason: null, consecutive_failures: 0 }),

    async delete(ownerId, id) {
      const deleted = await db.deleteFrom('webhooks').where('id', '=', id).where('owner_id', '=', ownerId).executeTakeFirst();
      if (deleted.numDeletedRows !== 1n) throw new WebhookNotFoundError('webhook', id);
    },

    async deliveries(ownerId, webhookId, page) {
      await row(ownerId, webhookId);
      let query = db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('webhook_id', '=', webhookId)
        .orderBy('seq', 'desc')
        .limit(page.limit + 1);
      if (page.after !== undefined) query = query.where('seq', '<', page.after);
      if (page.status !== undefined) query = query.where('status', '=', page.status);
      const rows = await query.execute();
      const shown = rows.slice(0, page.limit);
      return { deliveries: shown.map(toSummary), next: rows.length > page.limit ? shown.at(-1)!.seq : null };
    },

    async delivery(ownerId, webhookId, deliveryId) {
      await row(ownerId, webhookId);
      const found = await db.selectFrom('webhook_deliveries').selectAll().where('id', '=', deliveryId).where('webhook_id', '=', webhookId).executeTakeFirst();
      if (!found) throw new WebhookNotFoundError('delivery', deliveryId);
      const attempts = await db.selectFrom('webhook_attempts').selectAll().where('delivery_id', '=', deliveryId).orderBy('attempt').execute();
      return {
        ...toSummary(found),
        payload: JSON.parse(found.payload) as unknown,
        attemptList: attempts.map((attempt) => ({
          attempt: attempt.attempt,
          outcome: attempt.outcome,
          httpStatus: attempt.http_status,
          error: attempt.error,
          durationMs: attempt.duration_ms,
          startedAt: attempt.started_at,
        })),
      };
    },

    maxAddresses,

    async addresses(ownerId, webhookId, page) {
      const webhook = await ofType(ownerId, webhookId, ['ADDRESS_ACTIVITY'], 'addresses');
      return { ...(await addressPage(db, webhookId, page)), total: webhook.address_count };
    },

    changeAddresses: (ownerId, webhookId, { add = [], remove = [] }) =>
      db.transaction().execute(async (trx) => {
        const webhook = await ofType(ownerId, webhookId, ['ADDRESS_ACTIVITY'], 'addresses', trx);
        const parsed = { add: parseAddresses(add, 'addresses'), remove: parseAddresses(remove, 'addresses') };
        const count = await changeAddresses(db, trx, webhook, parsed, maxAddresses);
        return change(ownerId, webhookId, { address_count: count }, trx);
      }),

    replaceAddresses: (ownerId, webhookId, addresses) =>
      db.transaction().execute(async (trx) => {
        const webhook = await ofType(ownerId, webhookId, ['ADDRESS_ACTIVITY'], 'addresses', trx);
        const parsed = parseAddresses(addresses, 'addresses');
        if (parsed.length > maxAddresses) throw new WebhookInputError('addresses', `must number at most ${maxAddresses} (got ${parsed.length})`);
        await clearAddresses(trx, webhookId);
        const count = await changeAddresses(db, trx, webhook, { add: parsed, remove: [] }, maxAddresses);
        return change(ownerId, webhookId, { address_count: count }, trx);
      }),

    async filterEntries(ownerId, webhookId, page) {
      const webhook = toWebhook(await ofType(ownerId, webhookId, NFT_WEBHOOK_TYPES, 'filters'));
      const entries = filterEntries(webhook.filters);
      const end = Math.min(entries.count, page.offset + page.limit);
      return { entries: Array.from({ length: Math.max(0, end - page.offset) }, (_, i) => entries.at(page.offset + i)), total: entries.count };
    },

    changeFilterEntries: (ownerId, webhookId, { add = [], remove = [] }) =>
      db.transaction().execute(async (trx) => {
        const webhook = toWebhook(await ofType(ownerId, webhookId, NFT_WEBHOOK_TYPES, 'filters', trx));
        const filters = changeFilterEntries(webhook.filters, { add, remove }, 'filters');
        return change(ownerId, webhookId, filterColumns(parseFilters(webhook.type, filters)), trx);
      }),
  };

  /** The owner's webhook, refused as input about `field` when it is not of one of `types`. */
  async function ofType(
    ownerId: string,
    id: string,
    types: readonly WebhookType[],
    field: string,
    executor: Kysely<DatabaseSchema> = db,
  ): Promise<Selectable<WebhookRow>> {
    const found = await executor.selectFrom('webhooks').selectAll().where('id', '=', id).where('owner_id', '=', ownerId).executeTakeFirst();
    if (!found) throw new WebhookNotFoundError('webhook', id);
    if (!types.includes(found.type)) throw new WebhookInputError(field, `apply to ${types.join(' and ')} webhooks only, and this one is ${found.type}`);
    return found;
  }

  /** The app a transaction webhook hears, which must be the owner's; none for other types. */
  async function ownersApp(ownerId: string, type: WebhookType, appId: string | undefined): Promise<string | null> {
    const needsApp = (TRANSACTION_WEBHOOK_TYPES as readonly string[]).includes(type);
    if (!needsApp) {
      if (appId !== undefined) throw new WebhookInputError('appId', `applies to MINED_TRANSACTION and DROPPED_TRANSACTION webhooks only, not ${type}`);
      return null;
    }
    if (appId === undefined) throw new WebhookInputError('appId', `is required for ${type} webhooks: the app whose broadcasts it hears`);
    const app = await db.selectFrom('apps').select('id').where('id', '=', appId).where('owner_id', '=', ownerId).executeTakeFirst();
    if (!app) throw new WebhookInputError('appId', `must be one of your apps (${JSON.stringify(appId)} is not)`);
    return app.id;
  }
}

function parseName(name: string | null | undefined): string | null {
  const trimmed = name?.trim() || null;
  if (trimmed !== null && trimmed.length > MAX_NAME_LENGTH) throw new WebhookInputError('name', `must be at most ${MAX_NAME_LENGTH} characters`);
  return trimmed;
}

function filterColumns(filters: WebhookFilters): Pick<WebhookRow, 'contract_addresses' | 'token_ids' | 'nft_tokens'> {
  return {
    contract_addresses: JSON.stringify(filters.contractAddresses),
    token_ids: JSON.stringify(filters.tokenIds),
    nft_tokens: JSON.stringify(filters.tokens),
  };
}

/** A stored webhook's NFT filters. */
export function filtersOf(row: Pick<WebhookRow, 'contract_addresses' | 'token_ids' | 'nft_tokens'>): WebhookFilters {
  return {
    contractAddresses: JSON.parse(row.contract_addresses) as string[],
    tokenIds: JSON.parse(row.token_ids) as string[],
    tokens: JSON.parse(row.nft_tokens) as NftToken[],
  };
}

function toWebhook(row: Selectable<WebhookRow>): Webhook {
  return {
    id: row.id,
    type: row.type,
    network: row.network,
    url: row.url,
    filters: filtersOf(row),
    addressCount: row.address_count,
    appId: row.app_id,
    name: row.name,
    signingKey: row.signing_key,
    state: row.state,
    pausedReason: row.paused_reason,
    consecutiveFailures: row.consecutive_failures,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toSummary(row: Selectable<WebhookDeliveryRow>): DeliverySummary {
  return {
    id: row.id,
    status: row.status,
    blockNumber: row.block_number,
    attempts: row.attempts,
    createdAt: row.created_at,
    completedAt: row.completed_at,
    nextAttemptAt: row.status === 'pending' ? row.next_attempt_at : null,
    lastHttpStatus: row.last_http_status,
    lastError: row.last_error,
  };
}
