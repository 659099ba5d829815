import { rm } from 'node:fs/promises';
import { Alchemy, Network, WebhookType, type AddressActivityWebhook } from 'alchemy-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/open.ts';
import { siteOpenApiDocument } from '../../../src/runtime/site-api.ts';
import { createResponseValidator } from '../../support/openapi-validator.ts';
import { writeFixtureDist, type FixtureDist } from '../../support/fixture-dist.ts';
import { databaseEngines } from '../../support/postgres.ts';
import { startBuiltSite, type BuiltSite } from '../../support/site.ts';
import { databaseEnv, prepareAccount, type NotifyAccount } from './notify-site.ts';

// The incumbent SDK's notify namespace, alchemy-sdk 3.6.5 as a user runs it
// (`new Alchemy({ url: '<origin>/api/notify', authToken })`), against the production server on both
// engines: every method, each type of webhook, paging, in-place changes of addresses and filters,
// GRAPHQL refused, and the same webhook seen through /api/webhooks.

const HOOK_URL = 'https://hooks.example.com/sdk';
const address = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
const NFT = '0x86fdda8201fb83d35e2335bc1f372576b605be54';

let fixture: FixtureDist;
beforeAll(async () => {
  fixture = await writeFixtureDist();
});
afterAll(async () => {
  if (fixture) await rm(fixture.root, { recursive: true, force: true });
});

describe.each(databaseEngines())('alchemy-sdk notify against the server on $name', (engine) => {
  let server: BuiltSite;
  let database: Database;
  let account: NotifyAccount;
  let alchemy: Alchemy;
  beforeAll(async () => {
    const location = await engine.location();
    ({ database, account } = await prepareAccount(location, ['ethereum-sepolia', 'base-sepolia']));
    server = await startBuiltSite({
      distDir: fixture.distDir,
      env: { ...databaseEnv(location), WEBHOOKS_IN_SERVER: 'off', PRICES_IN_SERVER: 'off', NFT_METADATA_IN_SERVER: 'off' },
    });
    alchemy = new Alchemy({ url: `${server.origin}/api/notify`, authToken: account.token, network: Network.ETH_SEPOLIA, maxRetries: 1 });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await database?.close();
  });

  it('creates a webhook of every type, lists them, and refuses GRAPHQL with a sentence', async () => {
    const addresses = [address(1), address(2), address(3)];
    const activity = await alchemy.notify.createWebhook(HOOK_URL, WebhookType.ADDRESS_ACTIVITY, { addresses, network: Network.BASE_SEPOLIA, name: 'wallets' });
    expect(activity).toMatchObject({
      network: Network.BASE_SEPOLIA,
      type: WebhookType.ADDRESS_ACTIVITY,
      url: HOOK_URL,
      isActive: true,
      name: 'wallets',
      version: 'V2',
    });
    expect(activity.id).toMatch(/^wh_/);
    expect(activity.signingKey).toMatch(/^whsec_/);
    expect(Math.abs(Date.parse(activity.timeCreated) - Date.now())).toBeLessThan(10 * 60_000);

    const mined = await alchemy.notify.createWebhook(HOOK_URL, WebhookType.MINED_TRANSACTION, { appId: account.app.id });
    const dropped = await alchemy.notify.createWebhook(HOOK_URL, WebhookType.DROPPED_TRANSACTION, { appId: account.app.id });
    expect(mined).toMatchObject({ network: Network.ETH_SEPOLIA, type: WebhookType.MINED_TRANSACTION, appId: account.app.id });
    expect(dropped).toMatchObject({ network: Network.ETH_SEPOLIA, type: WebhookType.DROPPED_TRANSACTION, appId: account.app.id });
    const nft = await alchemy.notify.createWebhook(HOOK_URL, WebhookType.NFT_ACTIVITY, {
      filters: [{ contractAddress: NFT, tokenId: 16 }, { contractAddress: address(9) }],
      network: Network.ETH_SEPOLIA,
    });
    const metadata = await alchemy.notify.createWebhook(HOOK_URL, WebhookType.NFT_METADATA_UPDATE, {
      filters: [{ contractAddress: NFT, tokenId: '0x10' }],
      network: Network.ETH_SEPOLIA,
    });

    await expect(
      alchemy.notify.createWebhook(HOOK_URL, WebhookType.GRAPHQL, { appId: account.app.id, graphqlQuery: '{ block { hash } }', network: Network.ETH_SEPOLIA }),
    ).rejects.toThrow(/^400: .*GRAPHQL webhooks \(custom GraphQL queries over block data\) are not supported here/);
    await expect(alchemy.notify.createWebhook(HOOK_URL, WebhookType.MINED_TRANSACTION, { appId: account.strangersApp.id })).rejects.toThrow(
      /^400: .*The app_id must be one of your apps/,
    );
    // Transaction webhooks take the SDK's `network` setting, which defaults to mainnet: named in the refusal.
    const mainnet = new Alchemy({ url: `${server.origin}/api/notify`, authToken: account.token, maxRetries: 1 });
    await expect(mainnet.notify.createWebhook(HOOK_URL, WebhookType.MINED_TRANSACTION, { appId: account.app.id })).rejects.toThrow(
      /^400: .*The network \\"ETH_MAINNET\\" is not one this server serves/,
    );

    const all = await alchemy.notify.getAllWebhooks();
    expect(all.totalCount).toBe(5);
    expect(all.webhooks.map((webhook) => [webhook.id, webhook.type, webhook.network])).toEqual([
      [activity.id, WebhookType.ADDRESS_ACTIVITY, Network.BASE_SEPOLIA],
      [mined.id, WebhookType.MINED_TRANSACTION, Network.ETH_SEPOLIA],
      [dropped.id, WebhookType.DROPPED_TRANSACTION, Network.ETH_SEPOLIA],
      [nft.id, WebhookType.NFT_ACTIVITY, Network.ETH_SEPOLIA],
      [metadata.id, WebhookType.NFT_METADATA_UPDATE, Network.ETH_SEPOLIA],
    ]);

    // The same webhooks through /api/webhooks, with the same token as X-Crucible-Token.
    const listed = (await (await fetch(`${server.origin}/api/webhooks`, { headers: { 'x-crucible-token': account.token } })).json()) as {
      webhooks: Array<{ id: string; type: string; network: string; addressCount: number; appId: string | null; filters: unknown }>;
    };
    expect(listed.webhooks.map((webhook) => [webhook.id, webhook.type, webhook.network, webhook.addressCount, webhook.appId])).toEqual([
      [activity.id, 'ADDRESS_ACTIVITY', 'base-sepolia', 3, null],
      [mined.id, 'MINED_TRANSACTION', 'ethereum-sepolia', 0, account.app.id],
      [dropped.id, 'DROPPED_TRANSACTION', 'ethereum-sepolia', 0, account.app.id],
      [nft.id, 'NFT_ACTIVITY', 'ethereum-sepolia', 0, null],
      [metadata.id, 'NFT_METADATA_UPDATE', 'ethereum-sepolia', 0, null],
    ]);
    expect(listed.webhooks[3]!.filters).toEqual({ contractAddresses: [address(9)], tokenIds: [], tokens: [{ contractAddress: NFT, tokenId: '16' }] });

    for (const webhook of all.webhooks) await alchemy.notify.deleteWebhook(webhook);
    expect((await alchemy.notify.getAllWebhooks()).totalCount).toBe(0);
  });

  it('pages an address webhook’s addresses and changes them in place, added, removed and replaced', async () => {
    const addresses = Array.from({ length: 5 }, (_, index) => address(100 + index));
    const hook = (await alchemy.notify.createWebhook(HOOK_URL, WebhookType.ADDRESS_ACTIVITY, {
      addresses,
      network: Network.ETH_SEPOLIA,
    })) as AddressActivityWebhook;
    const first = await alchemy.notify.getAddresses(hook, { limit: 2 });
    expect(first).toEqual({ addresses: addresses.slice(0, 2), totalCount: 5, pageKey: addresses[1] });
    const second = await alchemy.notify.getAddresses(hook.id, { limit: 2, pageKey: first.pageKey });
    expect(second.addresses).toEqual(addresses.slice(2, 4));
    const last = await alchemy.notify.getAddresses(hook.id, { limit: 2, pageKey: second.pageKey });
    expect(last).toEqual({ addresses: [addresses[4]], totalCount: 5, pageKey: null });

    // The SDK checksums what it sends; the server compares case-blind and keeps lowercase.
    await alchemy.notify.updateWebhook(hook, { addAddresses: [address(200), '0xABCDEF0000000000000000000000000000000001'], removeAddresses: [addresses[0]!] });
    expect((await alchemy.notify.getAddresses(hook, { limit: 100 })).addresses).toEqual([
      ...addresses.slice(1),
      address(200),
      '0xabcdef0000000000000000000000000000000001',
    ]);
    await alchemy.notify.updateWebhook(hook.id, { newAddresses: [address(7)] });
    expect(await alchemy.notify.getAddresses(hook)).toEqual({ addresses: [address(7)], totalCount: 1, pageKey: null });

    await alchemy.notify.updateWebhook(hook, { isActive: false });
    expect((await alchemy.notify.getAllWebhooks()).webhooks.find((webhook) => webhook.id === hook.id)?.isActive).toBe(false);
    const seen = (await (await fetch(`${server.origin}/api/webhooks/${hook.id}`, { headers: { 'x-crucible-token': account.token } })).json()) as {
      state: string;
    };
    expect(seen.state).toBe('paused');
    await alchemy.notify.updateWebhook(hook, { isActive: true });
    expect((await alchemy.notify.getAllWebhooks()).webhooks.find((webhook) => webhook.id === hook.id)?.isActive).toBe(true);

    await expect(alchemy.notify.updateWebhook(hook, { addAddresses: ['0x1234'] })).rejects.toThrow();
    await expect(alchemy.notify.getGraphqlQuery(hook.id)).rejects.toThrow(/^400: .*is ADDRESS_ACTIVITY and has no GraphQL query/);
    await alchemy.notify.deleteWebhook(hook.id);
    await expect(alchemy.notify.deleteWebhook(hook.id)).rejects.toThrow(/^404: /);
    await expect(alchemy.notify.getAddresses(hook.id)).rejects.toThrow(/^404: /);
  });

  it('lists and edits NFT filters as entries of a contract and an optional token id', async () => {
    const hook = await alchemy.notify.createWebhook(HOOK_URL, WebhookType.NFT_ACTIVITY, { filters: [{ contractAddress: NFT }], network: Network.ETH_SEPOLIA });
    await alchemy.notify.updateWebhook(hook, {
      addFilters: [
        { contractAddress: address(5), tokenId: 1 },
        { contractAddress: address(5), tokenId: '0x2' },
      ],
      removeFilters: [{ contractAddress: NFT }],
    });
    const page = await alchemy.notify.getNftFilters(hook, { limit: 1 });
    expect(page).toEqual({ filters: [{ contractAddress: address(5), tokenId: '1' }], totalCount: 2, pageKey: '1' });
    expect(await alchemy.notify.getNftFilters(hook.id, { limit: 5, pageKey: page.pageKey })).toEqual({
      filters: [{ contractAddress: address(5), tokenId: '2' }],
      totalCount: 2,
      pageKey: null,
    });
    const metadata = await alchemy.notify.createWebhook(HOOK_URL, WebhookType.NFT_METADATA_UPDATE, {
      filters: [{ contractAddress: NFT, tokenId: 3 }],
      network: Network.ETH_SEPOLIA,
    });
    await alchemy.notify.updateWebhook(metadata.id, {
      addMetadataFilters: [{ contractAddress: NFT, tokenId: 4 }],
      removeMetadataFilters: [{ contractAddress: NFT, tokenId: 3 }],
    });
    expect((await alchemy.notify.getNftFilters(metadata.id)).filters).toEqual([{ contractAddress: NFT, tokenId: '4' }]);
    // Metadata filters do not apply to an NFT_ACTIVITY webhook.
    await expect(alchemy.notify.updateWebhook(hook.id, { addMetadataFilters: [{ contractAddress: NFT, tokenId: 4 }] })).rejects.toThrow(
      /^400: .*apply to NFT_METADATA_UPDATE webhooks only/,
    );
    for (const webhook of [hook, metadata]) await alchemy.notify.deleteWebhook(webhook);
  });

  it('answers every operation as /openapi.json describes it, successes with 200', async () => {
    const validator = createResponseValidator(siteOpenApiDocument({ origin: server.origin, networks: [{ id: 'ethereum-sepolia' }] }));
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${server.origin}${path}`, {
        method,
        headers: { 'x-alchemy-token': account.token, ...(body !== undefined && { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const answer = (await response.json()) as Record<string, unknown>;
      expect(validator.check(method, new URL(path, server.origin).pathname, response.status, response.headers.get('content-type'), answer).errors).toEqual([]);
      return { status: response.status, body: answer };
    };
    const created = await call('POST', '/api/notify/create-webhook', {
      network: 'ETH_SEPOLIA',
      webhook_type: 'ADDRESS_ACTIVITY',
      webhook_url: HOOK_URL,
      addresses: [address(1)],
    });
    expect(created.status).toBe(200);
    const id = (created.body.data as { id: string }).id;
    const nft = await call('POST', '/api/notify/create-webhook', {
      network: 'eth-sepolia',
      webhook_type: 'NFT_ACTIVITY',
      webhook_url: HOOK_URL,
      nft_filters: [{ contract_address: NFT }],
    });
    const nftId = (nft.body.data as { id: string }).id;
    const answers = [
      await call('GET', '/api/notify/team-webhooks'),
      await call('PUT', '/api/notify/update-webhook', { webhook_id: id, is_active: false }),
      await call('PATCH', '/api/notify/update-webhook-addresses', { webhook_id: id, addresses_to_add: [address(2)], addresses_to_remove: [] }),
      await call('PUT', '/api/notify/update-webhook-addresses', { webhook_id: id, addresses: [address(3)] }),
      await call('GET', `/api/notify/webhook-addresses?webhook_id=${id}&limit=1`),
      await call('PATCH', '/api/notify/update-webhook-nft-filters', {
        webhook_id: nftId,
        nft_filters_to_add: [{ contract_address: NFT, token_id: '5' }],
        nft_filters_to_remove: [],
      }),
      await call('GET', `/api/notify/webhook-nft-filters?webhook_id=${nftId}`),
      await call('DELETE', `/api/notify/delete-webhook?webhook_id=${nftId}`),
      await call('DELETE', `/api/notify/delete-webhook?webhook_id=${id}`),
    ];
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    const refused = [
      await call('POST', '/api/notify/create-webhook', {
        network: 'ETH_SEPOLIA',
        webhook_type: 'GRAPHQL',
        webhook_url: HOOK_URL,
        graphql_query: { query: '{ block { hash } }' },
      }),
      await call('POST', '/api/notify/create-webhook', { network: 'ETH_SEPOLIA', webhook_type: 'ADDRESS_ACTIVITY', webhook_url: HOOK_URL, extra: 1 }),
      await call('GET', `/api/notify/dashboard-webhook-graphql-query?webhook_id=${id}`),
      await call('GET', '/api/notify/webhook-addresses'),
    ];
    expect(refused.map((answer) => [answer.status, (answer.body.error as { field?: string }).field])).toEqual([
      [400, 'webhook_type'],
      [400, 'extra'],
      [404, undefined],
      [400, 'webhook_id'],
    ]);
  });

  it('refuses a missing or wrong auth token with 401, app keys included', async () => {
    for (const authToken of [undefined, 'crt_unknownunknownunknownunknownunknownunknow', account.app.key]) {
      const caller = new Alchemy({ url: `${server.origin}/api/notify`, authToken, network: Network.ETH_SEPOLIA, maxRetries: 1 });
      await expect(caller.notify.createWebhook(HOOK_URL, WebhookType.ADDRESS_ACTIVITY, { addresses: [address(1)] })).rejects.toThrow(/^401: .*X-Alchemy-Token/);
    }
    const answer = await fetch(`${server.origin}/api/notify/team-webhooks`, { headers: { 'x-crucible-token': account.token } });
    expect(answer.status).toBe(200);
  });

  it('takes an address webhook of 100,000 addresses in one call, and pages through them', async () => {
    const addresses = Array.from({ length: 100_000 }, (_, index) => address(0x10_0000 + index));
    const hook = await alchemy.notify.createWebhook(HOOK_URL, WebhookType.ADDRESS_ACTIVITY, { addresses, network: Network.ETH_SEPOLIA });
    const page = await alchemy.notify.getAddresses(hook, { limit: 1000, pageKey: addresses[49_999] });
    expect(page.totalCount).toBe(100_000);
    expect(page.addresses).toEqual(addresses.slice(50_000, 51_000));
    // One more is refused, and changes nothing.
    await expect(alchemy.notify.updateWebhook(hook, { addAddresses: [address(1)] })).rejects.toThrow(/^400: .*more than the 100000 a webhook may listen to/);
    expect((await alchemy.notify.getAddresses(hook, { limit: 1 })).totalCount).toBe(100_000);
    await alchemy.notify.updateWebhook(hook, { addAddresses: [address(1)], removeAddresses: [addresses[0]!] });
    expect((await alchemy.notify.getAddresses(hook, { limit: 1 })).addresses).toEqual([address(1)]);
    await alchemy.notify.deleteWebhook(hook);
  }, 120_000);
});
