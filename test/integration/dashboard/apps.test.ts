import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Browser, newEmail, PASSWORD, startDashboardSite, type DashboardSite } from './dashboard-site.ts';

// An account's apps, usage, auth tokens and webhooks through the production server in local mode
// (docs/dashboard.md#apps-in-the-dashboard, docs/webhooks.md#registration-api), each answer checked against /openapi.json: the keys the dashboard hands out
// are tried on the node gateway at `{node_url}/v2/<key>` (the local devnet of ethereum-sepolia).

const NETWORK = 'ethereum-sepolia';

let site: DashboardSite;
let ada: Browser;
let bob: Browser;

beforeAll(async () => {
  site = await startDashboardSite();
  ada = site.browser();
  await ada.signUp(newEmail(), PASSWORD);
  bob = site.browser();
  await bob.signUp(newEmail(), PASSWORD);
});

afterAll(async () => {
  await site?.stop();
});

/** One JSON-RPC call through the gateway with this key; its HTTP status and body. */
async function rpc(key: string, method: string, params: unknown[] = [], headers: Record<string, string> = {}) {
  const response = await fetch(`${site.origin}/node/${NETWORK}/v2/${key}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return { status: response.status, body: (await response.json()) as { result?: unknown; error?: { code: number; message: string } } };
}

/** Creates an app for `browser`; its view and key. */
async function createApp(browser: Browser, body: Record<string, unknown> = {}) {
  const created = await browser.call('POST', '/api/dashboard/apps', { body: { name: 'My dapp', allowedNetworks: [], allowedDomains: [], ...body } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body as { app: { id: string; version: number; endpoints: unknown[]; [field: string]: unknown }; key: string };
}

describe('apps', () => {
  it('lists the networks an app may use with their {node_url}', async () => {
    const { body } = await ada.call('GET', '/api/dashboard/networks');
    const sepolia = body.networks.find((network: { id: string }) => network.id === NETWORK);
    expect(sepolia).toEqual({ id: NETWORK, name: expect.any(String), nodeUrl: `https://crucible.test/node/${NETWORK}` });
  });

  it('creates an app whose key works on the gateway at once, lists it newest first and shows the key again', async () => {
    const first = await createApp(ada, { name: 'first' });
    const { app, key } = await createApp(ada, { name: '  Storefront ', allowedNetworks: [NETWORK], allowedDomains: ['Shop.Example.com', '*.example.org'] });
    expect(key).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(app).toMatchObject({
      id: expect.stringMatching(/^app_[0-9a-f]{16}$/),
      name: 'Storefront',
      state: 'active',
      allowedNetworks: [NETWORK],
      allowedDomains: ['shop.example.com', '*.example.org'],
      version: 1,
      previousKeyExpiresAt: null,
      endpoints: [{ network: NETWORK, url: `https://crucible.test/node/${NETWORK}/v2/` }],
    });
    expect(first.app.endpoints.length).toBeGreaterThan(1);

    const list = await ada.call('GET', '/api/dashboard/apps');
    expect(list.body.apps.map((listed: { id: string }) => listed.id).slice(0, 2)).toEqual([app.id, first.app.id]);
    expect((await ada.call('GET', `/api/dashboard/apps/${app.id}`)).body).toEqual({ app });
    const shown = await ada.call('POST', `/api/dashboard/apps/${app.id}/key`);
    expect(shown.body).toEqual({ key });
    expect(shown.headers.get('cache-control')).toBe('no-store');

    const call = await rpc(key, 'eth_chainId');
    expect(call).toEqual({ status: 200, body: { jsonrpc: '2.0', id: 1, result: '0xaa36a7' } });
    // The allowed domains apply to browsers: a foreign Origin is refused, a listed one served.
    expect((await rpc(key, 'eth_chainId', [], { origin: 'https://evil.example' })).status).toBe(403);
    expect((await rpc(key, 'eth_chainId', [], { origin: 'https://shop.example.com' })).status).toBe(200);
  });

  it('creates an app from its name alone, for every network and any origin, as /openapi.json says', async () => {
    const created = await ada.call('POST', '/api/dashboard/apps', { body: { name: 'Name only' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.app).toMatchObject({ name: 'Name only', allowedNetworks: [], allowedDomains: [] });
    expect(created.body.app.endpoints.map((endpoint: { network: string }) => endpoint.network)).toContain(NETWORK);
    expect((await rpc(created.body.key, 'eth_chainId', [], { origin: 'https://any.example' })).status).toBe(200);

    const document = await (await fetch(`${site.origin}/openapi.json`)).json();
    const body = document.paths['/api/dashboard/apps'].post.requestBody.content['application/json'].schema;
    const schema = body.$ref ? document.components.schemas[body.$ref.split('/').pop()] : body;
    expect(schema.required).toEqual(['name']);
    expect(schema.properties.allowedNetworks.default).toEqual([]);
    expect(schema.properties.allowedDomains.default).toEqual([]);
  });

  it("takes the incumbent's names of a network in the allow-list and keeps the id", async () => {
    const created = await ada.call('POST', '/api/dashboard/apps', { body: { name: 'SDK names', allowedNetworks: ['ETH_SEPOLIA', 'eth-sepolia'] } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.app.allowedNetworks).toEqual([NETWORK]);
    expect((await rpc(created.body.key, 'eth_chainId')).status).toBe(200);
  });

  it('refuses bad input with the field at fault, and keeps nothing of it', async () => {
    const before = (await ada.call('GET', '/api/dashboard/apps')).body.apps.length;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: '', allowedNetworks: [], allowedDomains: [] }, 'name'],
      [{ name: 'x', allowedNetworks: ['no-such-net'], allowedDomains: [] }, 'allowedNetworks'],
      [{ name: 'x', allowedNetworks: [], allowedDomains: ['https://example.com/'] }, 'allowedDomains'],
      [{ name: 'x', allowedNetworks: [], allowedDomains: [], computeUnitsPerSecond: 1_000_000 }, 'computeUnitsPerSecond'],
    ];
    for (const [body, field] of cases) {
      const answer = await ada.call('POST', '/api/dashboard/apps', { body });
      expect(answer.status, field).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 'invalid_input', field });
      expect(answer.body.error.message).toMatch(/^[A-Z].*\.$/);
    }
    expect((await ada.call('GET', '/api/dashboard/apps')).body.apps).toHaveLength(before);
  });

  it('answers 404 for another account’s app on every endpoint, as for a missing one, and changes nothing', async () => {
    const { app, key } = await createApp(bob, { name: 'bob’s' });
    for (const id of [app.id, 'app_0000000000000000']) {
      const calls: Array<[string, string, unknown?]> = [
        ['GET', `/api/dashboard/apps/${id}`],
        ['PATCH', `/api/dashboard/apps/${id}`, { version: 1, name: 'taken over', state: 'disabled' }],
        ['DELETE', `/api/dashboard/apps/${id}`],
        ['POST', `/api/dashboard/apps/${id}/key`],
        ['POST', `/api/dashboard/apps/${id}/rotate`, {}],
        ['GET', `/api/dashboard/apps/${id}/usage?range=day`],
      ];
      for (const [method, path, body] of calls) {
        const answer = await ada.call(method, path, { body });
        expect(answer.status, `${method} ${path}`).toBe(404);
        expect(answer.body.error).toMatchObject({ code: 'not_found', message: `There is no app ${id} in your account.` });
      }
    }
    expect((await bob.call('GET', `/api/dashboard/apps/${app.id}`)).body.app).toEqual(app);
    expect((await rpc(key, 'eth_chainId')).status).toBe(200);
  });

  it('changes name, networks, domains and state under the version read, and refuses a stale version with 409 changing nothing', async () => {
    const { app, key } = await createApp(ada, { name: 'editable' });
    const renamed = await ada.call('PATCH', `/api/dashboard/apps/${app.id}`, { body: { version: 1, name: 'renamed', allowedDomains: ['example.com'] } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.app).toMatchObject({ name: 'renamed', allowedDomains: ['example.com'], version: 2 });
    // A second tab still holding version 1.
    const stale = await ada.call('PATCH', `/api/dashboard/apps/${app.id}`, { body: { version: 1, name: 'from a stale tab', state: 'disabled' } });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: 'stale_version', message: 'This app changed since you read it: it is at version 2 now, not 1.' });
    expect((await ada.call('GET', `/api/dashboard/apps/${app.id}`)).body.app).toEqual(renamed.body.app);
    const nothing = await ada.call('PATCH', `/api/dashboard/apps/${app.id}`, { body: { version: 2 } });
    expect(nothing.status).toBe(400);

    // Disabled, the key is refused; enabled again, it works.
    const disabled = await ada.call('PATCH', `/api/dashboard/apps/${app.id}`, { body: { version: 2, state: 'disabled' } });
    expect(disabled.body.app).toMatchObject({ state: 'disabled', version: 3 });
    expect((await rpc(key, 'eth_chainId')).status).toBe(403);
    expect((await rpc(key, 'eth_chainId')).body.error?.message).toMatch(/disabled/);
    const enabled = await ada.call('PATCH', `/api/dashboard/apps/${app.id}`, { body: { version: 3, state: 'active' } });
    expect(enabled.body.app.state).toBe('active');
    expect((await rpc(key, 'eth_chainId')).status).toBe(200);
  });

  it('rotates the key: the old one is refused by the gateway, the new one works; with a grace period both work', async () => {
    const { app, key } = await createApp(ada, { name: 'rotating' });
    expect((await rpc(key, 'eth_chainId')).status).toBe(200);
    const rotated = await ada.call('POST', `/api/dashboard/apps/${app.id}/rotate`, { body: {} });
    expect(rotated.status).toBe(200);
    expect(rotated.body.key).not.toBe(key);
    expect(rotated.body.app).toMatchObject({ version: 2, previousKeyExpiresAt: null });
    // The server's gateway forgets the keys it remembered when the dashboard changes one: refused at once.
    expect((await rpc(key, 'eth_chainId')).status).toBe(401);
    expect((await rpc(rotated.body.key, 'eth_chainId')).status).toBe(200);
    expect((await ada.call('POST', `/api/dashboard/apps/${app.id}/key`)).body.key).toBe(rotated.body.key);

    const graced = await ada.call('POST', `/api/dashboard/apps/${app.id}/rotate`, { body: { graceSeconds: 3600 } });
    expect(Date.parse(graced.body.app.previousKeyExpiresAt) - Date.now()).toBeGreaterThan(3_500_000);
    expect((await rpc(rotated.body.key, 'eth_chainId')).status).toBe(200);
    expect((await rpc(graced.body.key, 'eth_chainId')).status).toBe(200);
    const tooLong = await ada.call('POST', `/api/dashboard/apps/${app.id}/rotate`, { body: { graceSeconds: 31 * 86_400 } });
    expect(tooLong.body.error).toMatchObject({ code: 'invalid_input', field: 'graceSeconds' });
  });

  it('deletes an app: its key is refused and it is gone from the list', async () => {
    const { app, key } = await createApp(ada, { name: 'doomed' });
    expect((await rpc(key, 'eth_chainId')).status).toBe(200);
    expect((await ada.call('DELETE', `/api/dashboard/apps/${app.id}`)).status).toBe(204);
    expect((await rpc(key, 'eth_chainId')).status).toBe(401);
    expect((await ada.call('GET', `/api/dashboard/apps/${app.id}`)).status).toBe(404);
    expect((await ada.call('GET', '/api/dashboard/apps')).body.apps.map((listed: { id: string }) => listed.id)).not.toContain(app.id);
  });
});

describe('usage', () => {
  it('shows the calls made with the key by network and method, and the errors by code, over the hour, day and month', async () => {
    const { app, key } = await createApp(ada, { name: 'metered' });
    for (let i = 0; i < 3; i++) expect((await rpc(key, 'eth_blockNumber')).status).toBe(200);
    expect((await rpc(key, 'eth_chainId')).status).toBe(200);
    // A transaction the node cannot decode: an error answered by the node, counted by its code.
    const failed = await rpc(key, 'eth_sendRawTransaction', ['0xdeadbeef']);
    expect(failed.body.error?.code).toEqual(expect.any(Number));

    // The meter stores its sums every few seconds.
    const usage = async (range: string) => (await ada.call('GET', `/api/dashboard/apps/${app.id}/usage?range=${range}`)).body;
    await vi.waitFor(async () => expect((await usage('hour')).points.length).toBe(3), { timeout: 30_000, interval: 500 });
    const hour = await usage('hour');
    expect(hour).toMatchObject({ range: 'hour', bucket: 'minute' });
    expect(Date.parse(hour.to) - Date.parse(hour.from)).toBe(3_600_000);
    const byMethod = (points: Array<{ method: string; requests: number; errors: number; computeUnits: number; network: string }>) =>
      Object.fromEntries(
        [...new Set(points.map((point) => point.method))].map((method) => {
          const mine = points.filter((point) => point.method === method);
          return [method, { requests: mine.reduce((sum, point) => sum + point.requests, 0), errors: mine.reduce((sum, point) => sum + point.errors, 0) }];
        }),
      );
    expect(byMethod(hour.points)).toEqual({
      eth_blockNumber: { requests: 3, errors: 0 },
      eth_chainId: { requests: 1, errors: 0 },
      eth_sendRawTransaction: { requests: 1, errors: 1 },
    });
    expect(new Set(hour.points.map((point: { network: string }) => point.network))).toEqual(new Set([NETWORK]));
    expect(hour.errorsByCode).toEqual([{ code: failed.body.error!.code, count: 1 }]);

    for (const [range, bucket] of [
      ['day', 'hour'],
      ['month', 'day'],
    ]) {
      const answer = await usage(range!);
      expect(answer.bucket).toBe(bucket);
      expect(byMethod(answer.points)).toEqual(byMethod(hour.points));
      expect(answer.errorsByCode).toEqual(hour.errorsByCode);
    }
    expect((await usage('day')).range).toBe('day');
    const bad = await ada.call('GET', `/api/dashboard/apps/${app.id}/usage?range=week`);
    expect(bad.body.error).toMatchObject({ code: 'invalid_input', field: 'range' });
  });
});

describe('auth tokens and webhooks', () => {
  it('creates a token shown once, which the webhook API accepts until it is revoked', async () => {
    const created = await ada.call('POST', '/api/dashboard/tokens', { body: { name: 'ci' } });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^crt_[A-Za-z0-9_-]{43}$/);
    expect(created.body.token).toMatchObject({ id: expect.stringMatching(/^tok_/), name: 'ci', lastUsedAt: null, revokedAt: null });
    const listed = await ada.call('GET', '/api/dashboard/tokens');
    expect(listed.body.tokens).toContainEqual(created.body.token);
    expect(JSON.stringify(listed.body)).not.toContain(created.body.secret);

    const withToken = (token: string) => fetch(`${site.origin}/api/webhooks`, { headers: { 'x-crucible-token': token } });
    expect((await withToken(created.body.secret)).status).toBe(200);
    // Bob cannot revoke Ada's token.
    expect((await bob.call('DELETE', `/api/dashboard/tokens/${created.body.token.id}`)).status).toBe(404);
    expect((await ada.call('DELETE', `/api/dashboard/tokens/${created.body.token.id}`)).status).toBe(204);
    expect((await withToken(created.body.secret)).status).toBe(401);
    const revoked = (await ada.call('GET', '/api/dashboard/tokens')).body.tokens.find((token: { id: string }) => token.id === created.body.token.id);
    expect(revoked.revokedAt).not.toBeNull();
    expect(revoked.lastUsedAt).not.toBeNull();
    const tooLong = await ada.call('POST', '/api/dashboard/tokens', { body: { name: 'x'.repeat(101) } });
    expect(tooLong.body.error).toMatchObject({ code: 'invalid_input', field: 'name' });
  });

  it('creates, lists and pauses a webhook with the session, which another account cannot see', async () => {
    const created = await ada.call('POST', '/api/webhooks', { body: { type: 'NFT_ACTIVITY', network: NETWORK, url: 'https://hooks.example.com/nft' } });
    expect(created.status).toBe(201);
    const hook = created.body;
    expect((await ada.call('GET', '/api/webhooks')).body.webhooks).toEqual([hook]);
    const paused = await ada.call('POST', `/api/webhooks/${hook.id}/pause`);
    expect(paused.body).toMatchObject({ id: hook.id, state: 'paused', pausedReason: 'paused by its owner' });
    expect((await bob.call('GET', `/api/webhooks/${hook.id}`)).status).toBe(404);
    expect((await bob.call('GET', '/api/webhooks')).body.webhooks).toEqual([]);
    // Without a session or a token: 401.
    const anonymous = site.browser();
    await anonymous.session();
    expect((await anonymous.call('GET', '/api/webhooks')).status).toBe(401);
  });
});

describe('the caps per account', () => {
  const refusal = (what: 'apps' | 'webhooks') => ({
    code: 'limit_reached',
    status: 409,
    message: `This account has 20 ${what}, the most one account may have: delete one to create another.`,
    limit: { name: `${what}PerAccount`, max: 20 },
  });

  it('stop an account at 20 apps however many are created at once (409 limit_reached naming the limit), and the list says how many it may have', async () => {
    const carol = site.browser();
    await carol.signUp(newEmail(), PASSWORD);
    const raced = await Promise.all(
      Array.from({ length: 24 }, (_, i) => carol.call('POST', '/api/dashboard/apps', { body: { name: `app ${i}`, allowedNetworks: [], allowedDomains: [] } })),
    );
    expect(raced.filter((answer) => answer.status === 201)).toHaveLength(20);
    const refused = raced.filter((answer) => answer.status !== 201);
    expect(refused.map((answer) => answer.status)).toEqual([409, 409, 409, 409]);
    for (const answer of refused) expect(answer.body.error).toMatchObject(refusal('apps'));
    const listed = await carol.call('GET', '/api/dashboard/apps');
    expect(listed.body.apps).toHaveLength(20);
    expect(listed.body.maxApps).toBe(20);
    expect((await ada.call('GET', '/api/dashboard/apps')).body.maxApps).toBe(20);
    // Deleting one makes room for one.
    expect((await carol.call('DELETE', `/api/dashboard/apps/${listed.body.apps[0].id}`)).status).toBe(204);
    await createApp(carol);
    expect((await carol.call('POST', '/api/dashboard/apps', { body: { name: 'one too many', allowedNetworks: [], allowedDomains: [] } })).status).toBe(409);
  });

  it('stop an account at 20 webhooks, with its session or its token (409 limit_reached naming the limit), and the list says how many it may have', async () => {
    const dave = site.browser();
    await dave.signUp(newEmail(), PASSWORD);
    const hook = { type: 'NFT_ACTIVITY', network: NETWORK, url: 'https://hooks.example.com/nft' };
    const raced = await Promise.all(Array.from({ length: 21 }, () => dave.call('POST', '/api/webhooks', { body: hook })));
    expect(raced.filter((answer) => answer.status === 201)).toHaveLength(20);
    const [refused] = raced.filter((answer) => answer.status !== 201);
    expect(refused!.status).toBe(409);
    expect(refused!.body.error).toMatchObject(refusal('webhooks'));
    const listed = await dave.call('GET', '/api/webhooks');
    expect(listed.body.webhooks).toHaveLength(20);
    expect(listed.body.maxWebhooks).toBe(20);

    const { secret } = (await dave.call('POST', '/api/dashboard/tokens', { body: { name: 'ci' } })).body;
    const withToken = await fetch(`${site.origin}/api/webhooks`, {
      method: 'POST',
      headers: { 'x-crucible-token': secret, 'content-type': 'application/json' },
      body: JSON.stringify(hook),
    });
    expect(withToken.status).toBe(409);
    expect(((await withToken.json()) as { error: unknown }).error).toMatchObject(refusal('webhooks'));
    expect((await dave.call('DELETE', `/api/webhooks/${listed.body.webhooks[0].id}`)).status).toBe(204);
    expect((await dave.call('POST', '/api/webhooks', { body: hook })).status).toBe(201);
  });
});
