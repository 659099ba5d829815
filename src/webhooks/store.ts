import { randomBytes } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { AccountLimitError } from '../apps/errors.ts';
import { insertUnderOwnerCap } from '../db/owner-cap.ts';
import type { DatabaseSchema, WebhookAttemptRow, WebhookDeliveryRow, WebhookRow } from '../db/schema.ts';
import { WebhookInputError, WebhookNotFoundError } from './errors.ts';
import { WEBHOOK_TYPES, type WebhookType } from './schemas.ts';
import { parseFilters, parseWebhookUrl, type UrlRules, type Webhook, type WebhookFilters } from './webhook.ts';
import type { NetworkIdOf } from '../site/network-names.ts';

// Webhooks, their deliveries and attempts over the database (docs/webhooks.md#registration-api), the same on SQLite and
// PostgreSQL. Every call names the owner: another owner's webhook is not found, exactly as a
// missing one, so ids reveal nothing. An owner may have at most `maxPerOwner` webhooks.

interface NewWebhook {
  type: WebhookType;
  network: string;
  url: string;
  filters?: { contractAddresses?: string[]; tokenIds?: string[] };
}

interface WebhookPatch {
  url?: string;
  filters?: { contractAddresses?: string[]; tokenIds?: string[] };
}

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
}

export interface WebhookStoreOptions {
  /** Network ids a webhook may name (content/networks/). */
  networks: readonly string[];
  /** The id another name of a network stands for (the incumbent's names); default: ids only. A webhook keeps the id. */
  networkIdOf?: NetworkIdOf;
  urlRules: UrlRules;
  /** The most webhooks one owner may have (WEBHOOKS_PER_ACCOUNT); unset, no cap. */
  maxPerOwner?: number;
  now?: () => number;
}

const PAUSED_BY_OWNER = 'paused by its owner';

export function createWebhookStore(db: Kysely<DatabaseSchema>, options: WebhookStoreOptions): WebhookStore {
  const now = options.now ?? Date.now;
  const maxPerOwner = options.maxPerOwner ?? null;

  const row = async (ownerId: string, id: string): Promise<Selectable<WebhookRow>> => {
    const found = await db.selectFrom('webhooks').selectAll().where('id', '=', id).where('owner_id', '=', ownerId).executeTakeFirst();
    if (!found) throw new WebhookNotFoundError('webhook', id);
    return found;
  };
  const change = async (ownerId: string, id: string, set: Partial<WebhookRow>): Promise<Webhook> => {
    const updated = await db
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
      };
      const insert = (into: Kysely<DatabaseSchema>) => into.insertInto('webhooks').values(created).execute();
      if (maxPerOwner === null) await insert(db);
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
  };
}

function filterColumns(filters: WebhookFilters): Pick<WebhookRow, 'contract_addresses' | 'token_ids'> {
  return { contract_addresses: JSON.stringify(filters.contractAddresses), token_ids: JSON.stringify(filters.tokenIds) };
}

function toWebhook(row: Selectable<WebhookRow>): Webhook {
  return {
    id: row.id,
    type: row.type,
    network: row.network,
    url: row.url,
    filters: { contractAddresses: JSON.parse(row.contract_addresses) as string[], tokenIds: JSON.parse(row.token_ids) as string[] },
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
