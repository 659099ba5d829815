import { z } from 'zod';
import type { AccountTokens } from '../../accounts/auth-tokens.ts';
import { BufferedResponse } from '../../api/buffered-response.ts';
import { documentationUrlOf } from '../../api/openapi.ts';
import { defineOperation, type ApiOperation, type ApiRequest, type InputFailure, type ResponseSpec } from '../../api/operation.ts';
import { jsonResponse } from '../../api/responses.ts';
import { AccountLimitError } from '../../apps/errors.ts';
import type { NetworkNames } from '../../site/network-names.ts';
import { CrucibleError } from '../../errors/crucible-error.ts';
import { errorBodyResponse } from '../../errors/error-body.ts';
import { WebhookInputError, WebhookNotFoundError } from '../errors.ts';
import { changeFilterEntries } from '../nft-filter-entries.ts';
import { AddressList, GRAPHQL_REFUSAL, WEBHOOK_TYPES, type WebhookType } from '../schemas.ts';
import type { WebhookStore } from '../store.ts';
import type { Webhook } from '../webhook.ts';
import { addressBodyMaxBytes, inputRefusal, type Refusal, WebhookError } from './operations.ts';

// The incumbent SDK's webhook management (`alchemy.notify`, docs/webhooks.md#notify-api) under
// `<site origin>/api/notify/`, over the same store as /api/webhooks: one webhook, two ways to manage
// it. Paths, bodies and answers are the SDK's (snake_case, `{ data }`, networks by the SDK's
// `Network` key such as ETH_SEPOLIA); every success is HTTP 200, since the SDK treats any other 2xx
// as a failure and sends it again. The account auth token comes as `X-Alchemy-Token` (the SDK's
// `authToken`) or `X-Crucible-Token`.

export interface NotifyApi {
  tokens: Pick<AccountTokens, 'authenticate'>;
  store: WebhookStore;
  networks: NetworkNames;
}

const TOKEN_HEADERS = ['x-alchemy-token', 'x-crucible-token'];
const BODY_MAX_BYTES = 256 * 1024;

const time = z.number().describe('Milliseconds since the epoch.');
const RawWebhook = z.object({
  id: z.string(),
  network: z.string().describe('The SDK’s Network key (ETH_SEPOLIA), or the network id where the SDK has none.'),
  webhook_type: z.enum(WEBHOOK_TYPES),
  webhook_url: z.string(),
  is_active: z.boolean(),
  time_created: time,
  signing_key: z.string(),
  version: z.literal('V2'),
  app_id: z.string().optional(),
  name: z.string().optional(),
  deactivation_reason: z.string().optional().describe('Why it is paused, when it is.'),
});
const Page = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    pagination: z.object({
      cursors: z.object({ after: z.string().nullable().describe('Pass as `after` for the next page; null on the last.') }),
      total_count: z.int().min(0),
    }),
  });
const FilterEntry = z.object({
  contract_address: z.string().nullable().describe('Lowercase; null for a token id of any contract (set through /api/webhooks).'),
  token_id: z.string().optional().describe('Decimal; absent: every token of the contract.'),
});

const webhookIdMessage = 'Give webhook_id, the id of one of your webhooks.';
/** A new schema each use: a query parameter's schema may not be nested in a body's too (src/api/openapi.ts). */
const webhookId = () => z.string({ error: webhookIdMessage }).min(1, webhookIdMessage).max(100, webhookIdMessage).describe('The webhook’s id.');
const tokenIdMessage = 'Each token_id is a decimal number, or 0x followed by at most 64 hexadecimal digits.';
const entry = z
  .object({
    contract_address: z.string({ error: 'Each filter has a contract_address, 0x followed by 40 hexadecimal digits.' }),
    token_id: z.string({ error: tokenIdMessage }).optional(),
  })
  .strict();
const entries = z.array(entry, { error: 'NFT filters are a list of { contract_address, token_id? } objects.' });
const limitMessage = 'The limit is a whole number from 1 to 1000.';
const PageQuery = z.object({
  webhook_id: webhookId(),
  limit: z.coerce.number({ error: limitMessage }).int(limitMessage).min(1, limitMessage).max(1000, limitMessage).default(100).describe('1–1000; default 100.'),
  after: z.string().max(100).optional().describe('The `pagination.cursors.after` of the page before.'),
});
const WebhookQuery = z.object({ webhook_id: webhookId() });

const CreateBody = z
  .object({
    network: z.string({ error: 'Give the network, by the SDK’s Network key (ETH_SEPOLIA) or its id.' }),
    webhook_type: z.string({ error: `Give webhook_type, one of ${WEBHOOK_TYPES.join(', ')}.` }),
    webhook_url: z.string({ error: 'Give webhook_url, where deliveries are POSTed.' }),
    app_id: z.string().optional(),
    name: z.string().optional(),
    nft_filters: entries.optional(),
    nft_metadata_filters: entries.optional(),
    addresses: AddressList.optional(),
    graphql_query: z.unknown().optional(),
  })
  .strict();
const ActiveBody = z.object({ webhook_id: webhookId(), is_active: z.boolean({ error: 'Give is_active, true or false.' }) }).strict();
const AddressesPatch = z.object({ webhook_id: webhookId(), addresses_to_add: AddressList.default([]), addresses_to_remove: AddressList.default([]) }).strict();
const AddressesPut = z.object({ webhook_id: webhookId(), addresses: AddressList }).strict();
const NftFiltersPatch = z.object({ webhook_id: webhookId(), nft_filters_to_add: entries.default([]), nft_filters_to_remove: entries.default([]) }).strict();
const MetadataFiltersPatch = z
  .object({ webhook_id: webhookId(), nft_metadata_filters_to_add: entries.default([]), nft_metadata_filters_to_remove: entries.default([]) })
  .strict();

/** The store's names of inputs, as this API names them. */
const FIELDS: Readonly<Record<string, string>> = {
  type: 'webhook_type',
  url: 'webhook_url',
  appId: 'app_id',
  filters: 'nft_filters',
  'filters.contractAddresses': 'nft_filters',
  'filters.tokenIds': 'nft_filters',
  'filters.tokens': 'nft_filters',
};

export function notifyOperations(origin: string, api: NotifyApi): ApiOperation[] {
  const documentationUrl = documentationUrlOf(origin);
  /** The SDK's Network key of a network id (ETH_SEPOLIA), or the id where the SDK has no name for its chain. */
  const sdkKeyOf = (id: string) => api.networks.aliasesOf(id)[0]?.key ?? id;
  const json = (body: unknown) => jsonResponse(body, { status: 200, headers: { 'cache-control': 'no-store' } });
  const refuse = (error: CrucibleError) => errorBodyResponse(error, documentationUrl);
  const badRequest = ({ problem, field }: Refusal) => refuse(new CrucibleError('bad_request', problem, { field }));
  const unauthorized = () =>
    refuse(
      new CrucibleError(
        'unauthorized',
        'This call needs an account auth token in the X-Alchemy-Token header (the SDK’s authToken) or X-Crucible-Token; none was given, or it is unknown, revoked or expired.',
        {
          hint: 'Create a token in the dashboard (or with `npm run apps -- token create --owner <account>`) and pass it as `authToken` (app keys are not accepted here).',
        },
      ),
    );
  const owner = async (request: ApiRequest): Promise<string | null> => {
    const token = TOKEN_HEADERS.map((name) => request.headers.get(name)).find((value) => value !== null) ?? null;
    return api.tokens.authenticate(token);
  };
  const authorized =
    <I extends { request: ApiRequest }>(act: (ownerId: string, input: I) => Promise<Response>) =>
    async (input: I): Promise<Response> => {
      const ownerId = await owner(input.request);
      if (ownerId === null) return unauthorized();
      try {
        return await act(ownerId, input);
      } catch (error) {
        if (error instanceof WebhookInputError) {
          const field = FIELDS[error.field] ?? error.field;
          return badRequest({ problem: `The ${field} ${error.reason}.`, field });
        }
        if (error instanceof WebhookNotFoundError)
          return refuse(new CrucibleError('not_found', 'No webhook with this webhook_id belongs to the token’s account.'));
        if (error instanceof AccountLimitError)
          return refuse(new CrucibleError('limit_reached', error.message, { members: { limit: { name: error.limit, max: error.max } } }));
        throw error;
      }
    };
  const invalid: ApiOperation['invalid'] = async (failures: InputFailure[], { request }) =>
    (await owner(request)) === null ? unauthorized() : badRequest(inputRefusal(failures[0]!));
  /** The SDK's webhook answer. */
  const raw = (webhook: Webhook): z.infer<typeof RawWebhook> => ({
    id: webhook.id,
    network: sdkKeyOf(webhook.network),
    webhook_type: webhook.type,
    webhook_url: webhook.url,
    is_active: webhook.state === 'active',
    time_created: webhook.createdAt,
    signing_key: webhook.signingKey,
    version: 'V2',
    ...(webhook.appId !== null && { app_id: webhook.appId }),
    ...(webhook.name !== null && { name: webhook.name }),
    ...(webhook.pausedReason !== null && { deactivation_reason: webhook.pausedReason }),
  });
  const data = (webhook: Webhook) => json({ data: raw(webhook) });
  /** The owner's webhook, refused as input when it is not of `type`. */
  const ofType = async (ownerId: string, id: string, type: WebhookType, field: string) => {
    const webhook = await api.store.get(ownerId, id);
    if (webhook.type !== type) throw new WebhookInputError(field, `apply to ${type} webhooks only, and this one is ${webhook.type}`);
    return webhook;
  };

  const error = (status: number, code: string, when: string): [number, ResponseSpec] => [
    status,
    { description: `\`${code}\` (${status}): ${when}`, content: { 'application/json': WebhookError } },
  ];
  const common: Record<number, ResponseSpec> = Object.fromEntries([
    error(400, 'bad_request', 'a parameter or the body is invalid; `field` names it and the message says why.'),
    error(401, 'unauthorized', 'no valid account auth token in X-Alchemy-Token or X-Crucible-Token (app keys are not accepted).'),
    error(404, 'not_found', 'no webhook with this webhook_id belongs to the token’s account.'),
    error(500, 'internal_error', 'the server failed unexpectedly.'),
  ]);
  const auth = 'Needs an account auth token in `X-Alchemy-Token` (the SDK’s `authToken`) or `X-Crucible-Token`. Every success answers 200.';
  const tags = ['Notify'];
  const ok = (description: string, schema: z.ZodType) => ({ 200: { description, content: { 'application/json': schema } }, ...common });
  const addressBytes = addressBodyMaxBytes(api.store?.maxAddresses ?? 0);
  const WebhookAnswer = z.object({ data: RawWebhook });

  return [
    defineOperation({
      operationId: 'notifyTeamWebhooks',
      method: 'GET',
      path: '/api/notify/team-webhooks',
      summary: 'Every webhook of the account (SDK: getAllWebhooks)',
      description: `The account’s webhooks of every type, oldest first, however they were made. ${auth}`,
      tags,
      responses: ok('The webhooks.', z.object({ data: z.array(RawWebhook) })),
      invalid,
      handler: authorized(async (ownerId) => json({ data: (await api.store.list(ownerId)).map(raw) })),
    }),
    defineOperation({
      operationId: 'notifyCreateWebhook',
      method: 'POST',
      path: '/api/notify/create-webhook',
      summary: 'Create a webhook (SDK: createWebhook)',
      description: `ADDRESS_ACTIVITY with \`addresses\`; MINED_TRANSACTION and DROPPED_TRANSACTION with \`app_id\`, an app of the account; NFT_ACTIVITY with \`nft_filters\` and NFT_METADATA_UPDATE with \`nft_metadata_filters\` (absent or empty: every NFT). GRAPHQL answers 400. \`network\` is the SDK’s Network key (ETH_SEPOLIA) or the network id. ${auth}`,
      tags,
      body: { schema: CreateBody, maxBytes: addressBytes },
      responses: ok('The webhook, active, with its signing key.', WebhookAnswer),
      invalid,
      handler: authorized(async (ownerId, { body }) => {
        if (body.webhook_type === 'GRAPHQL') return badRequest({ problem: GRAPHQL_REFUSAL, field: 'webhook_type' });
        if (!(WEBHOOK_TYPES as readonly string[]).includes(body.webhook_type))
          return badRequest({
            problem: `The webhook_type must be one of ${WEBHOOK_TYPES.join(', ')} (got ${JSON.stringify(body.webhook_type)}).`,
            field: 'webhook_type',
          });
        const type = body.webhook_type as WebhookType;
        const network = api.networks.idOf(body.network);
        if (network === null) {
          const named = JSON.stringify(body.network);
          return badRequest({
            problem: `The network ${named} is not one this server serves; give one of ${api.networks.ids.map(sdkKeyOf).join(', ')} (the SDK sends its \`network\` setting for transaction webhooks).`,
            field: 'network',
          });
        }
        const listed = type === 'NFT_METADATA_UPDATE' ? body.nft_metadata_filters : body.nft_filters;
        const wrongList = type === 'NFT_METADATA_UPDATE' ? body.nft_filters : body.nft_metadata_filters;
        if (wrongList !== undefined && wrongList.length > 0)
          throw new WebhookInputError(type === 'NFT_METADATA_UPDATE' ? 'nft_filters' : 'nft_metadata_filters', `do not apply to ${type} webhooks`);
        const filters =
          listed === undefined
            ? undefined
            : changeFilterEntries({ contractAddresses: [], tokenIds: [], tokens: [] }, { add: listed.map(asEntry), remove: [] }, 'filters');
        const webhook = await api.store.create(ownerId, {
          type,
          network,
          url: body.webhook_url,
          ...(filters && { filters }),
          ...(body.addresses !== undefined && { addresses: body.addresses }),
          ...(body.app_id !== undefined && { appId: body.app_id }),
          ...(body.name !== undefined && { name: body.name }),
        });
        return data(webhook);
      }),
    }),
    defineOperation({
      operationId: 'notifyUpdateWebhook',
      method: 'PUT',
      path: '/api/notify/update-webhook',
      summary: 'Activate or deactivate a webhook (SDK: updateWebhook with isActive)',
      description: `\`is_active: false\` pauses it (nothing new is queued; what was queued waits), \`true\` resumes it. ${auth}`,
      tags,
      body: { schema: ActiveBody, maxBytes: BODY_MAX_BYTES },
      responses: ok('The webhook as changed.', WebhookAnswer),
      invalid,
      handler: authorized(async (ownerId, { body }) =>
        data(await (body.is_active ? api.store.resume(ownerId, body.webhook_id) : api.store.pause(ownerId, body.webhook_id))),
      ),
    }),
    defineOperation({
      operationId: 'notifyChangeWebhookAddresses',
      method: 'PATCH',
      path: '/api/notify/update-webhook-addresses',
      summary: 'Add and remove addresses (SDK: updateWebhook with addAddresses, removeAddresses)',
      description: `ADDRESS_ACTIVITY only, in place; an address in both lists is removed. At most 100,000 addresses a webhook by default (WEBHOOK_MAX_ADDRESSES). ${auth}`,
      tags,
      body: { schema: AddressesPatch, maxBytes: addressBytes },
      responses: ok('The webhook as changed.', WebhookAnswer),
      invalid,
      handler: authorized(async (ownerId, { body }) =>
        data(await api.store.changeAddresses(ownerId, body.webhook_id, { add: body.addresses_to_add, remove: body.addresses_to_remove })),
      ),
    }),
    defineOperation({
      operationId: 'notifyReplaceWebhookAddresses',
      method: 'PUT',
      path: '/api/notify/update-webhook-addresses',
      summary: 'Replace the addresses (SDK: updateWebhook with newAddresses)',
      description: `ADDRESS_ACTIVITY only: the list given becomes the whole list. ${auth}`,
      tags,
      body: { schema: AddressesPut, maxBytes: addressBytes },
      responses: ok('The webhook as changed.', WebhookAnswer),
      invalid,
      handler: authorized(async (ownerId, { body }) => data(await api.store.replaceAddresses(ownerId, body.webhook_id, body.addresses))),
    }),
    defineOperation({
      operationId: 'notifyChangeNftFilters',
      method: 'PATCH',
      path: '/api/notify/update-webhook-nft-filters',
      summary: 'Add and remove NFT filters (SDK: updateWebhook with addFilters, removeFilters)',
      description: `NFT_ACTIVITY only. A filter without token_id is every token of the contract. ${auth}`,
      tags,
      body: { schema: NftFiltersPatch, maxBytes: BODY_MAX_BYTES },
      responses: ok('The webhook as changed.', WebhookAnswer),
      invalid,
      handler: authorized(async (ownerId, { body }) => {
        await ofType(ownerId, body.webhook_id, 'NFT_ACTIVITY', 'nft_filters');
        return data(
          await api.store.changeFilterEntries(ownerId, body.webhook_id, {
            add: body.nft_filters_to_add.map(asEntry),
            remove: body.nft_filters_to_remove.map(asEntry),
          }),
        );
      }),
    }),
    defineOperation({
      operationId: 'notifyChangeNftMetadataFilters',
      method: 'PATCH',
      path: '/api/notify/update-webhook-nft-metadata-filters',
      summary: 'Add and remove NFT metadata filters (SDK: updateWebhook with addMetadataFilters, removeMetadataFilters)',
      description: `NFT_METADATA_UPDATE only. ${auth}`,
      tags,
      body: { schema: MetadataFiltersPatch, maxBytes: BODY_MAX_BYTES },
      responses: ok('The webhook as changed.', WebhookAnswer),
      invalid,
      handler: authorized(async (ownerId, { body }) => {
        await ofType(ownerId, body.webhook_id, 'NFT_METADATA_UPDATE', 'nft_metadata_filters');
        return data(
          await api.store.changeFilterEntries(ownerId, body.webhook_id, {
            add: body.nft_metadata_filters_to_add.map(asEntry),
            remove: body.nft_metadata_filters_to_remove.map(asEntry),
          }),
        );
      }),
    }),
    defineOperation({
      operationId: 'notifyWebhookAddresses',
      method: 'GET',
      path: '/api/notify/webhook-addresses',
      summary: 'An address webhook’s addresses, a page at a time (SDK: getAddresses)',
      description: `ADDRESS_ACTIVITY only: lowercase, in address order. ${auth}`,
      tags,
      query: PageQuery,
      responses: ok('A page of addresses.', Page(z.string())),
      invalid,
      handler: authorized(async (ownerId, { query }) => {
        const after = query.after !== undefined && /^0x[0-9a-fA-F]{40}$/.test(query.after) ? query.after : undefined;
        if (query.after !== undefined && after === undefined) throw new WebhookInputError('after', 'must be the cursor of the page before');
        const page = await api.store.addresses(ownerId, query.webhook_id, { limit: query.limit, ...(after !== undefined && { after }) });
        return json({ data: page.addresses, pagination: { cursors: { after: page.next }, total_count: page.total } });
      }),
    }),
    defineOperation({
      operationId: 'notifyWebhookNftFilters',
      method: 'GET',
      path: '/api/notify/webhook-nft-filters',
      summary: 'An NFT webhook’s filters, a page at a time (SDK: getNftFilters)',
      description: `NFT_ACTIVITY and NFT_METADATA_UPDATE: whole contracts, then exact tokens. ${auth}`,
      tags,
      query: PageQuery,
      responses: ok('A page of filters.', Page(FilterEntry)),
      invalid,
      handler: authorized(async (ownerId, { query }) => {
        const offset = query.after === undefined ? 0 : /^\d{1,9}$/.test(query.after) ? Number(query.after) : null;
        if (offset === null) throw new WebhookInputError('after', 'must be the cursor of the page before');
        const page = await api.store.filterEntries(ownerId, query.webhook_id, { limit: query.limit, offset });
        const next = offset + page.entries.length;
        return json({
          data: page.entries.map((item) => ({ contract_address: item.contractAddress, ...(item.tokenId !== null && { token_id: item.tokenId }) })),
          pagination: { cursors: { after: next < page.total ? String(next) : null }, total_count: page.total },
        });
      }),
    }),
    defineOperation({
      operationId: 'notifyGraphqlQuery',
      method: 'GET',
      path: '/api/notify/dashboard-webhook-graphql-query',
      summary: 'A GRAPHQL webhook’s query (SDK: getGraphqlQuery): not offered',
      description: `There are no GRAPHQL webhooks here: a webhook of the account answers 400 saying so, another id 404. ${auth}`,
      tags,
      query: WebhookQuery,
      responses: common,
      invalid,
      handler: authorized(async (ownerId, { query }) => {
        const webhook = await api.store.get(ownerId, query.webhook_id);
        return badRequest({ problem: `This webhook is ${webhook.type} and has no GraphQL query: ${GRAPHQL_REFUSAL}`, field: 'webhook_id' });
      }),
    }),
    defineOperation({
      operationId: 'notifyDeleteWebhook',
      method: 'DELETE',
      path: '/api/notify/delete-webhook',
      summary: 'Delete a webhook (SDK: deleteWebhook)',
      description: `The webhook, its queued deliveries and their history; answers \`{}\`. ${auth}`,
      tags,
      query: WebhookQuery,
      responses: ok('Deleted.', z.object({})),
      invalid,
      handler: authorized(async (ownerId, { query }) => {
        await api.store.delete(ownerId, query.webhook_id);
        return new BufferedResponse('{}', { status: 200, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
      }),
    }),
  ] as ApiOperation[];
}

function asEntry(item: { contract_address: string; token_id?: string | undefined }): { contractAddress: string; tokenId?: string } {
  return { contractAddress: item.contract_address, ...(item.token_id !== undefined && { tokenId: item.token_id }) };
}

/** Named schemas for the OpenAPI document's components. */
export const notifyComponentSchemas = { NotifyWebhook: RawWebhook };
