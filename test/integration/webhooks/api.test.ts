import { afterEach, describe, expect, it } from 'vitest';
import { createRouter, type Router } from '../../../src/api/router.ts';
import { webhookOperations } from '../../../src/webhooks/api/operations.ts';
import { siteOpenApiDocument } from '../../../src/runtime/site-api.ts';
import { createAppStore } from '../../../src/apps/store.ts';
import type { Database } from '../../../src/db/open.ts';
import { createAccountTokens, type AccountTokens } from '../../../src/accounts/auth-tokens.ts';
import { createWebhookStore } from '../../../src/webhooks/store.ts';
import { createResponseValidator } from '../../support/openapi-validator.ts';
import { databaseEngines } from '../../support/postgres.ts';
import { fillOutbox } from './outbox-fill.ts';

// /api/webhooks through the real router over real stores, on both engines: every operation and
// every error path, each answer checked against the generated /openapi.json.

const ORIGIN = 'https://crucible.test';
const NETWORKS = [{ id: 'crucible-testnet' }, { id: 'ethereum-sepolia' }];
const RELICS = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const validator = createResponseValidator(siteOpenApiDocument({ origin: ORIGIN, networks: NETWORKS }));
const log = { info: () => {}, error: () => {} };

describe.each(databaseEngines())('the webhook API on $name', (engine) => {
  let database: Database;
  let tokens: AccountTokens;
  let router: (mode: 'local' | 'production') => Router;
  afterEach(() => database?.close());

  async function setUp() {
    database = await engine.open();
    tokens = createAccountTokens(database.db);
    router = (mode) =>
      createRouter(
        webhookOperations(ORIGIN, {
          tokens,
          store: createWebhookStore(database.db, {
            networks: NETWORKS.map((network) => network.id),
            // The incumbent's names of ethereum-sepolia (content/networks/aliases.yaml).
            networkIdOf: (name) => (['eth-sepolia', 'ETH_SEPOLIA'].includes(name) ? 'ethereum-sepolia' : null),
            urlRules: { local: mode === 'local' },
            maxPerOwner: 20,
            maxAddresses: 5,
          }),
        }),
        { origin: ORIGIN },
      );
    const alice = (await tokens.create({ ownerId: 'acct_alice', name: 'ci' })).secret;
    const bob = (await tokens.create({ ownerId: 'acct_bob' })).secret;
    return { alice, bob };
  }

  async function call(method: string, path: string, options: { token?: string; body?: unknown; rawBody?: string; mode?: 'local' | 'production' } = {}) {
    const headers: Record<string, string> = {};
    if (options.token !== undefined) headers['x-crucible-token'] = options.token;
    const text = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    if (text !== undefined) headers['content-type'] = 'application/json';
    const request = new Request(`${ORIGIN}${path}`, { method, headers, body: text });
    const response = await router(options.mode ?? 'local').handle(request, { requestId: 'test', clientIp: null, log });
    // biome-ignore lint/suspicious/noExplicitAny: answers are checked against the OpenAPI document above, then read freely.
    const body = response.status === 204 ? undefined : ((await response.json()) as Record<string, any>);
    const checked = validator.check(method, new URL(path, ORIGIN).pathname, response.status, response.headers.get('content-type'), body);
    expect(checked.errors).toEqual([]);
    return { status: response.status, body: body!, headers: response.headers };
  }

  const activity = { type: 'NFT_ACTIVITY', network: 'crucible-testnet', url: 'https://hooks.example.com/nft' };
  const ZERO = '0x0000000000000000000000000000000000000000';

  it('creates, lists, gets, updates, pauses, resumes and deletes a webhook for its owner', async () => {
    const { alice } = await setUp();
    const created = await call('POST', '/api/webhooks', {
      token: alice,
      body: { ...activity, filters: { contractAddresses: [RELICS], tokenIds: ['1', '0x10'] } },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const hook = created.body;
    expect(hook).toMatchObject({
      type: 'NFT_ACTIVITY',
      network: 'crucible-testnet',
      url: 'https://hooks.example.com/nft',
      filters: { contractAddresses: [RELICS.toLowerCase()], tokenIds: ['1', '16'] },
      state: 'active',
      pausedReason: null,
      consecutiveFailures: 0,
    });
    expect(hook.signingKey).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);

    expect((await call('GET', '/api/webhooks', { token: alice })).body).toEqual({ webhooks: [hook], maxWebhooks: 20 });
    expect((await call('GET', `/api/webhooks/${hook.id}`, { token: alice })).body).toEqual(hook);

    const updated = await call('PATCH', `/api/webhooks/${hook.id}`, { token: alice, body: { url: 'https://other.example.com/x', filters: {} } });
    expect(updated.body).toMatchObject({ url: 'https://other.example.com/x', filters: { contractAddresses: [], tokenIds: [] }, signingKey: hook.signingKey });

    expect((await call('POST', `/api/webhooks/${hook.id}/pause`, { token: alice })).body).toMatchObject({
      state: 'paused',
      pausedReason: 'paused by its owner',
    });
    expect((await call('POST', `/api/webhooks/${hook.id}/resume`, { token: alice })).body).toMatchObject({ state: 'active', pausedReason: null });

    expect((await call('DELETE', `/api/webhooks/${hook.id}`, { token: alice })).status).toBe(204);
    expect((await call('GET', `/api/webhooks/${hook.id}`, { token: alice })).status).toBe(404);
    expect((await call('GET', '/api/webhooks', { token: alice })).body).toEqual({ webhooks: [], maxWebhooks: 20 });
  });

  it('lists, changes and replaces an address webhook’s addresses in place, up to the cap; a transaction webhook names an app of its owner', async () => {
    const { alice } = await setUp();
    const address = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
    const created = await call('POST', '/api/webhooks', {
      token: alice,
      body: {
        type: 'ADDRESS_ACTIVITY',
        network: 'ETH_SEPOLIA',
        url: 'https://hooks.example.com/a',
        addresses: [address(3), address(1), address(3).toUpperCase().replace('0X', '0x')],
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ type: 'ADDRESS_ACTIVITY', network: 'ethereum-sepolia', addressCount: 2, appId: null });
    const hook = created.body;
    const page = await call('GET', `/api/webhooks/${hook.id}/addresses?limit=1`, { token: alice });
    expect(page.body).toEqual({ addresses: [address(1)], totalCount: 2, pageKey: address(1) });
    expect((await call('GET', `/api/webhooks/${hook.id}/addresses?pageKey=${address(1)}`, { token: alice })).body).toEqual({
      addresses: [address(3)],
      totalCount: 2,
      pageKey: null,
    });
    const changed = await call('PATCH', `/api/webhooks/${hook.id}/addresses`, {
      token: alice,
      body: { add: [address(7), address(8)], remove: [address(1), address(8)] },
    });
    expect(changed.body.addressCount).toBe(2);
    expect((await call('GET', `/api/webhooks/${hook.id}/addresses`, { token: alice })).body.addresses).toEqual([address(3), address(7)]);
    // Past the cap (5 here) nothing changes.
    const over = await call('PATCH', `/api/webhooks/${hook.id}/addresses`, { token: alice, body: { add: [10, 11, 12, 13].map(address) } });
    expect({ status: over.status, field: over.body.error.field, message: over.body.error.message }).toEqual({
      status: 400,
      field: 'addresses',
      message: 'The addresses would then number 6, more than the 5 a webhook may listen to.',
    });
    expect((await call('GET', `/api/webhooks/${hook.id}/addresses`, { token: alice })).body.totalCount).toBe(2);
    expect((await call('PUT', `/api/webhooks/${hook.id}/addresses`, { token: alice, body: { addresses: [address(9)] } })).body.addressCount).toBe(1);
    expect((await call('GET', `/api/webhooks/${hook.id}/addresses`, { token: alice })).body.addresses).toEqual([address(9)]);
    // Addresses belong to address webhooks only.
    const nft = (await call('POST', '/api/webhooks', { token: alice, body: activity })).body;
    const refused = await call('GET', `/api/webhooks/${nft.id}/addresses`, { token: alice });
    expect({ status: refused.status, field: refused.body.error.field }).toEqual({ status: 400, field: 'addresses' });

    const apps = createAppStore(database, { keySecret: Buffer.alloc(32, 1), networks: ['ethereum-sepolia'] });
    const mine = (await apps.create({ name: 'mine', ownerId: 'acct_alice' })).app;
    const mined = await call('POST', '/api/webhooks', {
      token: alice,
      body: { type: 'MINED_TRANSACTION', network: 'ethereum-sepolia', url: 'https://hooks.example.com/m', appId: mine.id, name: ' deposits ' },
    });
    expect(mined.body).toMatchObject({ type: 'MINED_TRANSACTION', appId: mine.id, name: 'deposits', addressCount: 0 });
  });

  it('lists deliveries newest first, a page at a time, and a delivery with its payload and attempts', async () => {
    const { alice } = await setUp();
    const hook = (await call('POST', '/api/webhooks', { token: alice, body: activity })).body;
    await fillOutbox(database, 'crucible-testnet', [1, 2, 3, 4, 5]);
    const first = await call('GET', `/api/webhooks/${hook.id}/deliveries?limit=2`, { token: alice });
    expect(first.body.deliveries.map((delivery: { blockNumber: number }) => delivery.blockNumber)).toEqual([5, 4]);
    const seen = [...first.body.deliveries];
    let pageKey = first.body.pageKey;
    while (pageKey !== null) {
      const page = await call('GET', `/api/webhooks/${hook.id}/deliveries?limit=2&pageKey=${pageKey}`, { token: alice });
      seen.push(...page.body.deliveries);
      pageKey = page.body.pageKey;
    }
    expect(seen.map((delivery) => delivery.blockNumber)).toEqual([5, 4, 3, 2, 1]);
    expect(seen.every((delivery) => delivery.status === 'pending' && delivery.attempts === 0)).toBe(true);
    expect((await call('GET', `/api/webhooks/${hook.id}/deliveries?status=delivered`, { token: alice })).body).toEqual({ deliveries: [], pageKey: null });

    const detail = await call('GET', `/api/webhooks/${hook.id}/deliveries/${seen[0].id}`, { token: alice });
    expect(detail.body).toMatchObject({ id: seen[0].id, status: 'pending', attemptList: [] });
    expect(detail.body.payload).toMatchObject({ webhookId: hook.id, id: seen[0].id, type: 'NFT_ACTIVITY', event: { network: 'crucible-testnet' } });
    expect((await call('GET', `/api/webhooks/${hook.id}/deliveries/whevt_nope`, { token: alice })).status).toBe(404);
  });

  it('refuses a missing, unknown, revoked or app-key credential with 401 unauthorized, before judging the input', async () => {
    const { alice } = await setUp();
    const { key: appKey } = await createAppStore(database, { keySecret: Buffer.alloc(32, 1), networks: ['crucible-testnet'] }).create({
      name: 'x',
      ownerId: 'acct_alice',
    });
    const revoked = await tokens.create({ ownerId: 'acct_alice' });
    await tokens.revoke(revoked.token.id);
    for (const token of [undefined, '', `crt_${'A'.repeat(43)}`, appKey, revoked.secret, `${alice}x`]) {
      for (const [method, path, body] of [
        ['GET', '/api/webhooks', undefined],
        ['POST', '/api/webhooks', { nonsense: true }],
        ['PATCH', '/api/webhooks/wh_1', {}],
        ['DELETE', '/api/webhooks/wh_1', undefined],
        ['GET', '/api/webhooks/wh_1/deliveries?limit=0', undefined],
      ] as const) {
        const answer = await call(method, path, { token, body });
        expect({ token, method, path, status: answer.status, code: answer.body.error.code }).toEqual({
          token,
          method,
          path,
          status: 401,
          code: 'unauthorized',
        });
      }
    }
    // A refusal never echoes the token presented.
    const answer = await call('GET', '/api/webhooks', { token: revoked.secret });
    expect(JSON.stringify(answer.body)).not.toContain(revoked.secret);
  });

  it('answers another owner’s webhook and its deliveries 404, as a missing one', async () => {
    const { alice, bob } = await setUp();
    const hook = (await call('POST', '/api/webhooks', { token: alice, body: activity })).body;
    await fillOutbox(database, 'crucible-testnet', [9]);
    const [delivery] = (await call('GET', `/api/webhooks/${hook.id}/deliveries`, { token: alice })).body.deliveries;
    for (const [method, path, body] of [
      ['GET', `/api/webhooks/${hook.id}`, undefined],
      ['PATCH', `/api/webhooks/${hook.id}`, { url: 'https://bob.example.com/' }],
      ['POST', `/api/webhooks/${hook.id}/pause`, undefined],
      ['POST', `/api/webhooks/${hook.id}/resume`, undefined],
      ['DELETE', `/api/webhooks/${hook.id}`, undefined],
      ['GET', `/api/webhooks/${hook.id}/deliveries`, undefined],
      ['GET', `/api/webhooks/${hook.id}/deliveries/${delivery.id}`, undefined],
      ['GET', '/api/webhooks/wh_missing', undefined],
    ] as const) {
      const answer = await call(method, path, { token: bob, body });
      expect({ method, path, status: answer.status, code: answer.body.error.code }).toEqual({ method, path, status: 404, code: 'not_found' });
    }
    expect((await call('GET', '/api/webhooks', { token: bob })).body).toEqual({ webhooks: [], maxWebhooks: 20 });
    expect((await call('GET', `/api/webhooks/${hook.id}`, { token: alice })).body).toEqual(hook);
  });

  it("takes the incumbent's name of a network and keeps the id, which its deliveries name", async () => {
    const { alice } = await setUp();
    for (const network of ['eth-sepolia', 'ETH_SEPOLIA']) {
      const created = await call('POST', '/api/webhooks', { token: alice, body: { ...activity, network } });
      expect(created.status).toBe(201);
      expect(created.body.network).toBe('ethereum-sepolia');
    }
  });

  it('refuses bad input with 400 bad_request saying why, and stores nothing', async () => {
    const { alice } = await setUp();
    const cases: Array<[unknown, string | undefined, RegExp]> = [
      [{ ...activity, type: 'TOKEN_ACTIVITY' }, 'type', /The type is one of NFT_ACTIVITY, NFT_METADATA_UPDATE, ADDRESS_ACTIVITY/],
      [{ ...activity, type: 'GRAPHQL' }, 'type', /GRAPHQL webhooks \(custom GraphQL queries over block data\) are not supported/],
      [
        { ...activity, type: 'ADDRESS_ACTIVITY', filters: { contractAddresses: [ZERO] } },
        'filters',
        /filters apply to NFT_ACTIVITY and NFT_METADATA_UPDATE webhooks only/,
      ],
      [{ ...activity, addresses: [ZERO] }, 'addresses', /addresses apply to ADDRESS_ACTIVITY webhooks only/],
      [{ ...activity, type: 'ADDRESS_ACTIVITY', addresses: ['0x12'] }, 'addresses', /0x addresses/],
      [{ ...activity, type: 'MINED_TRANSACTION' }, 'appId', /appId is required for MINED_TRANSACTION webhooks/],
      [{ ...activity, type: 'DROPPED_TRANSACTION', appId: 'app_of_someone_else' }, 'appId', /appId must be one of your apps/],
      [{ ...activity, appId: 'app_x' }, 'appId', /appId applies to MINED_TRANSACTION and DROPPED_TRANSACTION webhooks only/],
      [{ ...activity, network: 'nowhere' }, 'network', /network must be one of crucible-testnet, ethereum-sepolia/],
      [{ ...activity, url: 'not a url' }, 'url', /URL must be an absolute http or https URL/],
      [{ ...activity, url: 'ftp://hooks.example.com/' }, 'url', /URL must be an absolute http or https URL/],
      [{ ...activity, url: 'https://user:pw@hooks.example.com/' }, 'url', /URL must not carry a user name or password/],
      [{ ...activity, filters: { contractAddresses: ['0x1234'] } }, 'filters.contractAddresses', /contract address/],
      [{ ...activity, filters: { tokenIds: ['-1'] } }, 'filters.tokenIds', /token id/],
      [{ ...activity, filters: { tokenIds: [`0x1${'0'.repeat(64)}`] } }, 'filters.tokenIds', /token id/],
      [{ ...activity, type: 'NFT_METADATA_UPDATE', filters: { tokenIds: ['1'] } }, 'filters.tokenIds', /token ids apply to NFT_ACTIVITY webhooks only/],
      [{ ...activity, extra: 1 }, 'extra', /extra/],
      [{ ...activity, url: undefined }, 'url', /URL/],
      [[activity], undefined, /JSON object/],
    ];
    for (const [body, field, reason] of cases) {
      const answer = await call('POST', '/api/webhooks', { token: alice, body });
      expect({ body, status: answer.status, code: answer.body.error.code, field: answer.body.error.field }).toEqual({
        body,
        status: 400,
        code: 'bad_request',
        field,
      });
      expect(answer.body.error.message).toMatch(reason);
    }
    expect((await call('POST', '/api/webhooks', { token: alice, rawBody: '{"type":' })).status).toBe(400);
    const hook = (await call('POST', '/api/webhooks', { token: alice, body: activity })).body;
    expect((await call('PATCH', `/api/webhooks/${hook.id}`, { token: alice, body: {} })).body.error.message).toMatch(/give url, filters or name/);
    expect((await call('PATCH', `/api/webhooks/${hook.id}`, { token: alice, body: { url: 'gopher://x' } })).body.error.field).toBe('url');
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=x', 'limit'],
      ['pageKey=abc', 'pageKey'],
      ['status=lost', 'status'],
    ]) {
      const answer = await call('GET', `/api/webhooks/${hook.id}/deliveries?${query}`, { token: alice });
      expect({ query, status: answer.status, field: answer.body.error.field }).toEqual({ query, status: 400, field });
    }
    expect((await call('GET', '/api/webhooks', { token: alice })).body.webhooks).toHaveLength(1);
  });

  it('names the field at fault of a bad url and of a bad contract address, in a sentence', async () => {
    const { alice } = await setUp();
    const badUrl = await call('POST', '/api/webhooks', { token: alice, body: { ...activity, url: 'hooks.example.com/nft' } });
    expect({ status: badUrl.status, field: badUrl.body.error.field, message: badUrl.body.error.message }).toEqual({
      status: 400,
      field: 'url',
      message: 'The URL must be an absolute http or https URL, such as https://example.com/hooks.',
    });
    const badContract = await call('POST', '/api/webhooks', {
      token: alice,
      body: { ...activity, filters: { contractAddresses: [RELICS, `${RELICS}00`] } },
    });
    expect({ status: badContract.status, field: badContract.body.error.field, message: badContract.body.error.message }).toEqual({
      status: 400,
      field: 'filters.contractAddresses',
      message: 'Each contract address is 0x followed by 40 hexadecimal digits.',
    });
    // The store's own rules (here, production's) are named the same way.
    const loopback = await call('POST', '/api/webhooks', { token: alice, body: { ...activity, url: 'https://127.0.0.1/hook' }, mode: 'production' });
    expect({ status: loopback.status, field: loopback.body.error.field, message: loopback.body.error.message }).toEqual({
      status: 400,
      field: 'url',
      message: 'The URL must reach a public address (127.0.0.1 is loopback, private, link-local or otherwise not public).',
    });
    const nat64 = await call('POST', '/api/webhooks', { token: alice, body: { ...activity, url: 'https://[64:ff9b::a9fe:a9fe]/' }, mode: 'production' });
    expect({ status: nat64.status, field: nat64.body.error.field, message: nat64.body.error.message }).toEqual({
      status: 400,
      field: 'url',
      message: 'The URL must reach a public address (64:ff9b::a9fe:a9fe is loopback, private, link-local or otherwise not public).',
    });
    expect((await call('GET', '/api/webhooks', { token: alice })).body.webhooks).toEqual([]);
  });

  it('in production takes https URLs to public hosts only', async () => {
    const { alice } = await setUp();
    for (const url of [
      'http://hooks.example.com/',
      'https://127.0.0.1/hook',
      'https://10.1.2.3/hook',
      'https://192.168.0.10/hook',
      'https://169.254.169.254/latest',
      'https://[::1]/hook',
      'https://[fd00::1]/hook',
      'https://localhost:8443/hook',
      'https://api.localhost/hook',
      // IPv6 forms that carry a non-public IPv4: NAT64, 6to4, Teredo (client 10.0.0.1), IPv4-translated, IPv4-compatible.
      'https://[64:ff9b::a9fe:a9fe]/',
      'https://[2002:a9fe:a9fe::1]/hook',
      'https://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/hook',
      'https://[::ffff:0:a9fe:a9fe]/hook',
      'https://[::a9fe:a9fe]/hook',
      'https://[100::1]/hook',
    ]) {
      const answer = await call('POST', '/api/webhooks', { token: alice, body: { ...activity, url }, mode: 'production' });
      expect({ url, status: answer.status }).toEqual({ url, status: 400 });
      expect({ field: answer.body.error.field, message: answer.body.error.message }).toEqual({
        field: 'url',
        message: expect.stringMatching(/^The URL must be an https URL\.$|^The URL must reach a public address/),
      });
    }
    expect((await call('POST', '/api/webhooks', { token: alice, body: { ...activity, url: 'https://8.8.8.8/hook' }, mode: 'production' })).status).toBe(201);
    // The same forms carrying a public IPv4 are public.
    for (const url of ['https://[64:ff9b::808:808]/hook', 'https://[2002:808:808::1]/hook']) {
      expect({ url, status: (await call('POST', '/api/webhooks', { token: alice, body: { ...activity, url }, mode: 'production' })).status }).toEqual({
        url,
        status: 201,
      });
    }
    // Local mode: http and this machine are fine.
    expect((await call('POST', '/api/webhooks', { token: alice, body: { ...activity, url: 'http://127.0.0.1:9/hook' } })).status).toBe(201);
  });
});
