import { z } from 'zod';
import { AccountLimitError } from '../../apps/errors.ts';
import type { AccountTokens } from '../../accounts/auth-tokens.ts';
import { WebhookInputError, WebhookNotFoundError } from '../errors.ts';
import type { DeliveryAttempt, DeliveryDetail, DeliverySummary, WebhookStore } from '../store.ts';
import { ChangeAddresses, CreateWebhook, ReplaceAddresses, UpdateWebhook, WebhookTypeSchema } from '../schemas.ts';
import type { Webhook as WebhookRecord } from '../webhook.ts';
import { BufferedResponse } from '../../api/buffered-response.ts';
import { CrucibleError } from '../../errors/crucible-error.ts';
import { errorBodyResponse } from '../../errors/error-body.ts';
import { documentationUrlOf } from '../../api/openapi.ts';
import { defineOperation, type ApiOperation, type ApiRequest, type InputFailure, type ResponseSpec } from '../../api/operation.ts';
import { jsonResponse } from '../../api/responses.ts';
import { DashboardError, ErrorBody, ReachedLimit } from '../../api/schemas.ts';

// The webhook API under /api/webhooks (docs/webhooks.md#registration-api): create, list, get, update, pause, resume and
// delete webhooks, and read their deliveries with every attempt. Every call carries an account auth
// token in `X-Crucible-Token` (`npm run apps -- token create`), or the dashboard's session cookie
// (docs/webhooks.md#authentication; then its state changes are CSRF-checked as the dashboard's are); app keys are never
// accepted, as they ship in front ends. Another owner's webhook answers 404 exactly as a missing
// one. The signing key is part of the webhook and shown to its owner whenever asked (as the
// incumbent's dashboard does). Inputs are judged by src/webhooks/schemas.ts (the dashboard's form
// checks with them too), then by the store; a refusal of one input names it in `field`.

/** What the operations need: who a token (or a session) belongs to, and the owner's webhooks. */
export interface WebhookApi {
  tokens: Pick<AccountTokens, 'authenticate'>;
  store: WebhookStore;
  /**
   * The owner a request's dashboard session names, asked when it carries no X-Crucible-Token:
   * null without a session, a refusal (403) when a state change fails the CSRF check.
   */
  sessions?: (request: ApiRequest) => Promise<{ ownerId: string } | { refused: Response } | null>;
}

const TOKEN_HEADER = 'x-crucible-token';
const BODY_MAX_BYTES = 256 * 1024;

/** The largest body that can carry `maxAddresses` addresses (a quoted address and a comma: 43 bytes, with room for spaces) and the rest. */
export function addressBodyMaxBytes(maxAddresses: number): number {
  return maxAddresses * 48 + BODY_MAX_BYTES;
}

const time = z.iso.datetime().describe('ISO 8601, UTC.');

const Webhook = z.object({
  id: z.string(),
  type: WebhookTypeSchema,
  network: z.string().describe('Network id, as in content/networks/.'),
  url: z.url().describe('Where deliveries are POSTed.'),
  filters: z
    .object({
      contractAddresses: z.array(z.string()).describe('Lowercase: every token of these contracts (with tokenIds, those ids of them).'),
      tokenIds: z.array(z.string()).describe('Decimal: these ids (of the contracts listed, or of any contract).'),
      tokens: z.array(z.object({ contractAddress: z.string(), tokenId: z.string() })).describe('Exact tokens, matched besides the two lists.'),
    })
    .describe('NFT types: a transfer passes when any of the three selects it; all empty, every transfer passes.'),
  addressCount: z.int().min(0).describe('ADDRESS_ACTIVITY: how many addresses it listens to (listed at /addresses); 0 for other types.'),
  appId: z.string().nullable().describe('MINED_TRANSACTION and DROPPED_TRANSACTION: the app whose broadcasts it hears; null for other types.'),
  name: z.string().nullable(),
  signingKey: z
    .string()
    .describe(
      'Key of every delivery’s signatures, each hex HMAC-SHA256: `X-Crucible-Signature` of `<X-Crucible-Timestamp>.<raw body>`, `X-Alchemy-Signature` of the raw body alone (the incumbent’s), the timestamp being the attempt’s unix seconds (refuse one more than 5 minutes from your clock). Shown to the owner whenever asked.',
    ),
  state: z.enum(['active', 'paused']),
  pausedReason: z.string().nullable().describe('Why it is paused, e.g. `paused by its owner` or `paused: repeated delivery failures (…)`; null while active.'),
  consecutiveFailures: z.int().min(0).describe('Deliveries that failed after every retry since the last that succeeded.'),
  createdAt: time,
  updatedAt: time,
});

const DeliveryStatus = z.enum(['pending', 'delivered', 'failed']);

const Delivery = z.object({
  id: z.string().describe('The payload’s `id`.'),
  status: DeliveryStatus.describe('pending: queued or between retries; delivered: a 2xx answer; failed: every retry failed.'),
  blockNumber: z.int().nullable().describe('The block of its activity; null for a metadata update.'),
  attempts: z.int().min(0),
  createdAt: time,
  completedAt: time.nullable(),
  nextAttemptAt: time.nullable().describe('When it is sent next, while pending.'),
  lastHttpStatus: z.int().nullable(),
  lastError: z.string().nullable(),
});

const Attempt = z.object({
  attempt: z.int().min(1),
  outcome: z
    .enum(['sending', 'delivered', 'failed', 'abandoned'])
    .describe('abandoned: the process sending it stopped before the answer was recorded; it was sent again.'),
  httpStatus: z.int().nullable(),
  error: z
    .string()
    .nullable()
    .describe('Why it failed: `HTTP 500`, `no answer within 5000 ms`, `connection failed: ECONNREFUSED`, `blocked address 10.0.0.1`, …'),
  durationMs: z.int().nullable(),
  startedAt: time,
});

const DeliveryDetailBody = Delivery.extend({
  payload: z.record(z.string(), z.unknown()).describe('The body POSTed: `{ webhookId, id, createdAt, type, event }` (docs/webhooks.md#payload).'),
  attemptList: z.array(Attempt).describe('Every attempt, oldest first.'),
});

const WebhookList = z.object({
  webhooks: z.array(Webhook),
  maxWebhooks: z
    .int()
    .min(1)
    .nullable()
    .describe('The most webhooks one account may have (WEBHOOKS_PER_ACCOUNT); creating more answers 409 `limit_reached`. null: no cap.'),
});
const DeliveryPage = z.object({
  deliveries: z.array(Delivery).describe('Newest first.'),
  pageKey: z.string().nullable().describe('Pass for the next page; null on the last.'),
});

const idMessage = (what: string) => `A ${what} id has 1 to 100 characters.`;
const WebhookParams = z.object({ webhookId: z.string().min(1, idMessage('webhook')).max(100, idMessage('webhook')).describe('The webhook’s id.') });
const addressLimitMessage = 'The limit is a whole number from 1 to 1000.';
const AddressQuery = z.object({
  limit: z.coerce
    .number({ error: addressLimitMessage })
    .int(addressLimitMessage)
    .min(1, addressLimitMessage)
    .max(1000, addressLimitMessage)
    .default(100)
    .describe('Addresses per page, 1–1000; default 100.'),
  pageKey: z
    .string()
    .regex(/^0x[0-9a-f]{40}$/, 'The pageKey must be the pageKey of the page before.')
    .optional()
    .describe('The `pageKey` of the page before.'),
});
const AddressPage = z.object({
  addresses: z.array(z.string()).describe('Lowercase, in address order.'),
  totalCount: z.int().min(0),
  pageKey: z.string().nullable().describe('Pass for the next page; null on the last.'),
});
const DeliveryParams = WebhookParams.extend({
  deliveryId: z.string().min(1, idMessage('delivery')).max(100, idMessage('delivery')).describe('The delivery’s id (its payload’s `id`).'),
});
const limitMessage = 'The limit is a whole number from 1 to 100.';
const DeliveryQuery = z.object({
  limit: z.coerce
    .number({ error: limitMessage })
    .int(limitMessage)
    .min(1, limitMessage)
    .max(100, limitMessage)
    .default(50)
    .describe('Deliveries per page, 1–100; default 50.'),
  pageKey: z
    .string()
    .regex(/^\d{1,15}$/, 'The pageKey must be the pageKey of the page before.')
    .optional()
    .describe('The `pageKey` of the page before.'),
  status: z
    .enum(DeliveryStatus.options, { error: `The status is ${DeliveryStatus.options.join(', ')}.` })
    .optional()
    .describe('Only deliveries in this state.'),
});

/** The Error body (docs/errors.md#error-body-with-field) with the input at fault, so the dashboard shows the sentence next to its field. */
export const WebhookError = ErrorBody.extend({
  error: ErrorBody.shape.error.extend({
    field: z
      .string()
      .optional()
      .describe('On 400, the input at fault by its dotted name (`url`, `filters.contractAddresses`, `limit`), when one is: `message` is about it.'),
    limit: ReachedLimit.optional(),
  }),
});

/** Named schemas for the OpenAPI document's components (each used in more than one place). */
export const webhookComponentSchemas = { Webhook, WebhookDelivery: Delivery, WebhookError };

export function webhookOperations(origin: string, api: WebhookApi): ApiOperation[] {
  const documentationUrl = documentationUrlOf(origin);
  const noStore = { 'cache-control': 'no-store' };
  const json = (body: unknown, status = 200) => jsonResponse(body, { status, headers: noStore });
  const refuse = (error: CrucibleError) => errorBodyResponse(error, documentationUrl);
  /** 400 with the input at fault named in `field`, where one is. */
  const badRequest = ({ problem, field }: Refusal) => refuse(new CrucibleError('bad_request', problem, { field }));

  const unauthorized = () =>
    refuse(
      new CrucibleError(
        'unauthorized',
        'This call needs an account auth token in the X-Crucible-Token header, or a dashboard session; none was given, or it is unknown, revoked or expired.',
        {
          hint: 'Create a token in the dashboard (or with `npm run apps -- token create --owner <account>`) and send it as X-Crucible-Token (app keys are not accepted here).',
        },
      ),
    );
  /** The caller's owner id: by X-Crucible-Token when the request carries one, else by its session; or the answer to give instead. */
  const owner = async (request: ApiRequest): Promise<{ ownerId: string } | { refused: Response }> => {
    const token = request.headers.get(TOKEN_HEADER);
    const found =
      token === null && api.sessions ? await api.sessions(request) : await api.tokens.authenticate(token).then((id) => (id === null ? null : { ownerId: id }));
    return found ?? { refused: unauthorized() };
  };
  /** 409: the account has as many webhooks as it may. */
  const limitReached = (error: AccountLimitError) =>
    refuse(new CrucibleError('limit_reached', error.message, { members: { limit: { name: error.limit, max: error.max } } }));
  /** Runs `act` for the caller's owner; the store's refusals become 400, 404 and 409. */
  const authorized =
    <I extends { request: ApiRequest }>(act: (ownerId: string, input: I) => Promise<Response>) =>
    async (input: I): Promise<Response> => {
      const caller = await owner(input.request);
      if ('refused' in caller) return caller.refused;
      try {
        return await act(caller.ownerId, input);
      } catch (error) {
        if (error instanceof WebhookInputError) return badRequest(storeRefusal(error));
        if (error instanceof WebhookNotFoundError) return refuse(new CrucibleError('not_found'));
        if (error instanceof AccountLimitError) return limitReached(error);
        throw error;
      }
    };
  // A request without a valid token is refused as such before its inputs are judged.
  const invalid: ApiOperation['invalid'] = async (failures, { request }) => {
    const caller = await owner(request);
    if ('refused' in caller) return caller.refused;
    return badRequest(inputRefusal(failures[0]!));
  };

  const error = (status: number, code: string, when: string): [number, ResponseSpec] => [
    status,
    { description: `\`${code}\` (${status}): ${when}`, content: { 'application/json': WebhookError } },
  ];
  const common = (notFound: boolean): Record<number, ResponseSpec> =>
    Object.fromEntries([
      error(400, 'bad_request', 'a parameter or the body is invalid; the message says which and why.'),
      error(401, 'unauthorized', 'neither a valid X-Crucible-Token nor a dashboard session (app keys are not accepted).'),
      [
        403,
        {
          description: '`csrf_failed` (403): with a dashboard session, a state change without a matching X-CSRF-Token, or from another site.',
          content: { 'application/json': DashboardError },
        },
      ],
      ...(notFound ? [error(404, 'not_found', 'no webhook (or delivery) with this id belongs to the token’s account.')] : []),
      error(500, 'internal_error', 'the server failed unexpectedly.'),
    ]);
  const auth =
    'Needs an account auth token in the `X-Crucible-Token` header (dashboard, or `npm run apps -- token create`), or the dashboard’s session cookie with X-CSRF-Token on state changes; app keys are refused (401).';
  const tags = ['Webhooks'];
  const webhookBody = (webhook: WebhookRecord) => json(webhookJson(webhook));
  const addressBodyBytes = addressBodyMaxBytes(api.store?.maxAddresses ?? 0);

  return [
    defineOperation({
      operationId: 'createWebhook',
      method: 'POST',
      path: '/api/webhooks',
      summary: 'Create a webhook',
      description: `A webhook of one network and type: NFT_ACTIVITY or NFT_METADATA_UPDATE with optional filters, ADDRESS_ACTIVITY with its addresses (at most 100,000 by default, WEBHOOK_MAX_ADDRESSES), MINED_TRANSACTION or DROPPED_TRANSACTION with the app whose broadcasts it hears (\`appId\`). GRAPHQL is refused. The network is an id or the SDK's name for it (\`ETH_SEPOLIA\`, \`eth-sepolia\`). An account may have at most 20 webhooks by default (WEBHOOKS_PER_ACCOUNT; \`maxWebhooks\` of the list says how many): one more answers 409 \`limit_reached\`. ${auth}`,
      tags,
      body: { schema: CreateWebhook, maxBytes: addressBodyBytes },
      responses: {
        201: { description: 'The webhook, active, with its signing key.', content: { 'application/json': Webhook } },
        ...common(false),
        409: error(409, 'limit_reached', 'the account has as many webhooks as it may: `limit` names the cap (`webhooksPerAccount`) and its value.')[1],
      },
      invalid,
      handler: authorized(async (ownerId, { body }) => json(webhookJson(await api.store.create(ownerId, body)), 201)),
    }),
    defineOperation({
      operationId: 'listWebhooks',
      method: 'GET',
      path: '/api/webhooks',
      summary: 'List webhooks',
      description: `The account’s webhooks, oldest first, with the most it may have. ${auth}`,
      tags,
      responses: { 200: { description: 'Every webhook of the account.', content: { 'application/json': WebhookList } }, ...common(false) },
      invalid,
      handler: authorized(async (ownerId) => json({ webhooks: (await api.store.list(ownerId)).map(webhookJson), maxWebhooks: api.store.maxPerOwner })),
    }),
    defineOperation({
      operationId: 'getWebhook',
      method: 'GET',
      path: '/api/webhooks/{webhookId}',
      summary: 'Get a webhook',
      description: auth,
      tags,
      params: WebhookParams,
      responses: { 200: { description: 'The webhook.', content: { 'application/json': Webhook } }, ...common(true) },
      invalid,
      handler: authorized(async (ownerId, { params }) => webhookBody(await api.store.get(ownerId, params.webhookId))),
    }),
    defineOperation({
      operationId: 'updateWebhook',
      method: 'PATCH',
      path: '/api/webhooks/{webhookId}',
      summary: 'Change a webhook’s URL, filters or name',
      description: `Filters given replace the old ones whole. ${auth}`,
      tags,
      params: WebhookParams,
      body: { schema: UpdateWebhook, maxBytes: BODY_MAX_BYTES },
      responses: { 200: { description: 'The webhook as changed.', content: { 'application/json': Webhook } }, ...common(true) },
      invalid,
      handler: authorized(async (ownerId, { params, body }) => webhookBody(await api.store.update(ownerId, params.webhookId, body))),
    }),
    defineOperation({
      operationId: 'deleteWebhook',
      method: 'DELETE',
      path: '/api/webhooks/{webhookId}',
      summary: 'Delete a webhook',
      description: `The webhook, its queued deliveries and their history. ${auth}`,
      tags,
      params: WebhookParams,
      responses: { 204: { description: 'Deleted.' }, ...common(true) },
      invalid,
      handler: authorized(async (ownerId, { params }) => {
        await api.store.delete(ownerId, params.webhookId);
        return new BufferedResponse(null, { status: 204, headers: noStore });
      }),
    }),
    defineOperation({
      operationId: 'pauseWebhook',
      method: 'POST',
      path: '/api/webhooks/{webhookId}/pause',
      summary: 'Pause a webhook',
      description: `Nothing new is queued for it while paused (the reason says \`paused by its owner\`); what was queued waits. ${auth}`,
      tags,
      params: WebhookParams,
      responses: { 200: { description: 'The webhook, paused.', content: { 'application/json': Webhook } }, ...common(true) },
      invalid,
      handler: authorized(async (ownerId, { params }) => webhookBody(await api.store.pause(ownerId, params.webhookId))),
    }),
    defineOperation({
      operationId: 'resumeWebhook',
      method: 'POST',
      path: '/api/webhooks/{webhookId}/resume',
      summary: 'Resume a webhook',
      description: `Active again, its failure count reset; queued deliveries go out in order. ${auth}`,
      tags,
      params: WebhookParams,
      responses: { 200: { description: 'The webhook, active.', content: { 'application/json': Webhook } }, ...common(true) },
      invalid,
      handler: authorized(async (ownerId, { params }) => webhookBody(await api.store.resume(ownerId, params.webhookId))),
    }),
    defineOperation({
      operationId: 'listWebhookAddresses',
      method: 'GET',
      path: '/api/webhooks/{webhookId}/addresses',
      summary: 'List an address webhook’s addresses',
      description: `ADDRESS_ACTIVITY only: its addresses in address order, a page at a time. ${auth}`,
      tags,
      params: WebhookParams,
      query: AddressQuery,
      responses: { 200: { description: 'A page of addresses.', content: { 'application/json': AddressPage } }, ...common(true) },
      invalid,
      handler: authorized(async (ownerId, { params, query }) => {
        const page = await api.store.addresses(ownerId, params.webhookId, {
          limit: query.limit,
          ...(query.pageKey !== undefined && { after: query.pageKey }),
        });
        return json({ addresses: page.addresses, totalCount: page.total, pageKey: page.next });
      }),
    }),
    defineOperation({
      operationId: 'changeWebhookAddresses',
      method: 'PATCH',
      path: '/api/webhooks/{webhookId}/addresses',
      summary: 'Add and remove an address webhook’s addresses',
      description: `ADDRESS_ACTIVITY only: in place, at once for the next block; an address in both lists is removed. Past the most a webhook may list (WEBHOOK_MAX_ADDRESSES, 100,000) nothing changes and the answer is 400. ${auth}`,
      tags,
      params: WebhookParams,
      body: { schema: ChangeAddresses, maxBytes: addressBodyBytes },
      responses: { 200: { description: 'The webhook as changed (`addressCount`).', content: { 'application/json': Webhook } }, ...common(true) },
      invalid,
      handler: authorized(async (ownerId, { params, body }) => webhookBody(await api.store.changeAddresses(ownerId, params.webhookId, body))),
    }),
    defineOperation({
      operationId: 'replaceWebhookAddresses',
      method: 'PUT',
      path: '/api/webhooks/{webhookId}/addresses',
      summary: 'Replace an address webhook’s addresses',
      description: `ADDRESS_ACTIVITY only: the list given becomes the whole list. ${auth}`,
      tags,
      params: WebhookParams,
      body: { schema: ReplaceAddresses, maxBytes: addressBodyBytes },
      responses: { 200: { description: 'The webhook as changed (`addressCount`).', content: { 'application/json': Webhook } }, ...common(true) },
      invalid,
      handler: authorized(async (ownerId, { params, body }) => webhookBody(await api.store.replaceAddresses(ownerId, params.webhookId, body.addresses))),
    }),
    defineOperation({
      operationId: 'listWebhookDeliveries',
      method: 'GET',
      path: '/api/webhooks/{webhookId}/deliveries',
      summary: 'List a webhook’s deliveries',
      description: `Newest first, a page at a time. ${auth}`,
      tags,
      params: WebhookParams,
      query: DeliveryQuery,
      responses: { 200: { description: 'A page of deliveries.', content: { 'application/json': DeliveryPage } }, ...common(true) },
      invalid,
      handler: authorized(async (ownerId, { params, query }) => {
        const page = await api.store.deliveries(ownerId, params.webhookId, {
          limit: query.limit,
          ...(query.pageKey !== undefined && { after: Number(query.pageKey) }),
          ...(query.status !== undefined && { status: query.status }),
        });
        return json({ deliveries: page.deliveries.map(deliveryJson), pageKey: page.next === null ? null : String(page.next) });
      }),
    }),
    defineOperation({
      operationId: 'getWebhookDelivery',
      method: 'GET',
      path: '/api/webhooks/{webhookId}/deliveries/{deliveryId}',
      summary: 'Get a delivery and its attempts',
      description: `The payload sent and every attempt: outcome, HTTP status, error, duration and time. ${auth}`,
      tags,
      params: DeliveryParams,
      responses: { 200: { description: 'The delivery.', content: { 'application/json': DeliveryDetailBody } }, ...common(true) },
      invalid,
      handler: authorized(async (ownerId, { params }) => json(deliveryDetailJson(await api.store.delivery(ownerId, params.webhookId, params.deliveryId)))),
    }),
  ] as ApiOperation[];
}

/** A refusal of bad input: a sentence, and the input it is about where there is one. */
export interface Refusal {
  problem: string;
  field?: string;
}

/** The store's field names in a sentence ("The URL must reach a public address …"). */
const FIELD_WORDS: Readonly<Record<string, string>> = {
  type: 'type',
  network: 'network',
  url: 'URL',
  'filters.contractAddresses': 'contract addresses',
  'filters.tokenIds': 'token ids',
  'filters.tokens': 'tokens',
  addresses: 'addresses',
  appId: 'appId',
};

function storeRefusal(error: WebhookInputError): Refusal {
  return { problem: `The ${FIELD_WORDS[error.field] ?? error.field} ${error.reason}.`, field: error.field };
}

/** The first failure of a request's inputs; the schemas' messages are sentences about their input. */
export function inputRefusal(failure: InputFailure): Refusal {
  const issue = failure.issues[0];
  if (failure.reason !== 'invalid') return { problem: `The request's ${failure.part} could not be read (${failure.reason.replaceAll('_', ' ')}).` };
  if (!issue) return { problem: `The request's ${failure.part} is not valid.` };
  // An entry of a list is refused as its list (`filters.contractAddresses`), as the store names it.
  const index = issue.path.findIndex((segment) => typeof segment === 'number');
  const path = (index === -1 ? issue.path : issue.path.slice(0, index)).map(String);
  if (issue.code === 'unrecognized_keys') {
    const field = [...path, issue.keys[0]!].join('.');
    return { problem: `There is no field ${field} here.`, field };
  }
  if (path.length > 0) return { problem: issue.message, field: path.join('.') };
  return { problem: failure.part === 'body' && issue.code === 'invalid_type' ? 'The request body must be a JSON object.' : issue.message };
}

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

function webhookJson(webhook: WebhookRecord): z.infer<typeof Webhook> {
  return { ...webhook, createdAt: iso(webhook.createdAt), updatedAt: iso(webhook.updatedAt) };
}

function deliveryJson(delivery: DeliverySummary): z.infer<typeof Delivery> {
  return {
    id: delivery.id,
    status: delivery.status,
    blockNumber: delivery.blockNumber,
    attempts: delivery.attempts,
    createdAt: iso(delivery.createdAt),
    completedAt: isoOrNull(delivery.completedAt),
    nextAttemptAt: isoOrNull(delivery.nextAttemptAt),
    lastHttpStatus: delivery.lastHttpStatus,
    lastError: delivery.lastError,
  };
}

function deliveryDetailJson(delivery: DeliveryDetail): z.infer<typeof DeliveryDetailBody> {
  return {
    ...deliveryJson(delivery),
    payload: delivery.payload as Record<string, unknown>,
    attemptList: delivery.attemptList.map((attempt: DeliveryAttempt) => ({ ...attempt, startedAt: iso(attempt.startedAt) })),
  };
}
