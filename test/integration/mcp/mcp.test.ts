import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { encodeFunctionData, erc20Abi, formatEther, formatUnits, getAddress, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadAppKeySecret } from '../../../src/apps/key-secret.ts';
import { createAppStore } from '../../../src/apps/store.ts';
import { loadFaucetNetworks } from '../../../src/chain/networks.ts';
import { DEMO_WALLET } from '../../../src/chain/world/actors.ts';
import { WORLD_ADDRESSES } from '../../../src/chain/world/manifest.ts';
import { openDatabase } from '../../../src/db/open.ts';
import { faucetToolOperations } from '../../../src/runtime/site-api.ts';
import { rpcRegistry } from '../../../src/node/rpc/registry.ts';
import { restProducts } from '../../../src/runtime/rest-products.ts';
import { randomAddress } from '../../support/anvil.ts';
import { projectRoot } from '../../support/build.ts';
import { demoWalletNfts, nftKey } from '../../support/world-nfts.ts';
import { startWorldSite, type WorldSite } from '../../support/world-site.ts';

// The MCP server (docs/mcp.md) through the production server in local mode, as `npm start` runs it:
// the SDK's own client over both transports, Streamable HTTP at <origin>/mcp and stdio through
// `node scripts/mcp.ts --url <origin>`. Each kind of tool is checked against the same data read
// through the JSON-RPC gateway or the REST API with the same key, and the tool list against the
// registries it is generated from.

let site: WorldSite;
let key: string;
let databasePath: string;
let appId: string;
const network = 'ethereum-sepolia';

const nodeUrl = () => `${site.origin}/node/${network}/v2/${key}`;

async function rpc(method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(nodeUrl(), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: unknown; error?: unknown };
  if (body.error) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result;
}

async function rest(path: string): Promise<unknown> {
  const response = await fetch(`${site.origin}${path}`);
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json();
}

interface Answer {
  result?: unknown;
  text?: string;
  truncated: boolean;
  cursor?: string;
  slice?: { list?: string; from: number; to: number; of: number };
  [extra: string]: unknown;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Answer> {
  const answer = await client.callTool({ name, arguments: args });
  const text = (answer.content as Array<{ type: string; text: string }>)[0]!.text;
  expect(answer.isError, text).toBeFalsy();
  return JSON.parse(text) as Answer;
}

async function failure(client: Client, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const answer = await client.callTool({ name, arguments: args });
  const text = (answer.content as Array<{ type: string; text: string }>)[0]!.text;
  expect(answer.isError, text).toBe(true);
  expect(text).not.toMatch(/\n\s+at /);
  return (JSON.parse(text) as { error: Record<string, unknown> }).error;
}

/** A whole answer, its slices followed through their cursors and put back together. */
async function whole(client: Client, name: string, args: Record<string, unknown>, budget: number): Promise<{ value: unknown; pages: number }> {
  let answer = await call(client, name, args);
  let pages = 1;
  if (!answer.truncated) return { value: answer.result, pages };
  if (answer.text !== undefined) {
    let text = answer.text;
    while (answer.cursor) {
      answer = await call(client, name, { ...args, cursor: answer.cursor });
      expect(JSON.stringify(answer).length).toBeLessThanOrEqual(budget);
      text += answer.text;
      pages++;
    }
    return { value: text, pages };
  }
  const path = answer.slice!.list === '(the answer)' ? [] : answer.slice!.list!.split('.');
  const listOf = (value: unknown) => path.reduce<unknown>((at, step) => (at as Record<string, unknown>)[step], value) as unknown[];
  const first = answer.result;
  const items = [...listOf(first)];
  while (answer.cursor) {
    answer = await call(client, name, { ...args, cursor: answer.cursor });
    expect(JSON.stringify(answer).length).toBeLessThanOrEqual(budget);
    items.push(...listOf(answer.result));
    pages++;
  }
  if (path.length === 0) return { value: items, pages };
  const list = listOf(first);
  list.splice(0, list.length, ...items);
  return { value: first, pages };
}

/** The tool names the registries make: the site's three, every read of the method registry, every REST operation, the faucet's two. */
async function expectedToolNames(): Promise<string[]> {
  const reads = rpcRegistry.methods.filter((method) => method.idempotent && method.transport === 'any' && !method.filterAffinity);
  const networks = await loadFaucetNetworks(projectRoot);
  return [
    'search_docs',
    'read_page',
    'list_networks',
    ...reads.map((method) => method.name.replace('.', '_')),
    ...Object.values(restProducts).flatMap((product) => product.operations.map((operation) => operation.operationId)),
    ...faucetToolOperations(networks).map((operation) => operation.operationId),
  ];
}

const BUDGET = 20_000;

const transports: Record<string, (appKey: string) => Transport> = {
  'Streamable HTTP': (appKey) =>
    new StreamableHTTPClientTransport(new URL('/mcp', site.origin), { requestInit: { headers: { authorization: `Bearer ${appKey}` } } }),
  stdio: (appKey) =>
    new StdioClientTransport({
      command: process.execPath,
      args: ['scripts/mcp.ts', '--url', site.origin, '--key', appKey],
      cwd: projectRoot,
      env: { ...(process.env as Record<string, string>) },
      stderr: 'pipe',
    }),
};

beforeAll(async () => {
  site = await startWorldSite({
    prepare: async (path) => {
      databasePath = path;
      const database = await openDatabase({ engine: 'sqlite', path });
      const apps = createAppStore(database, { keySecret: await loadAppKeySecret({ engine: 'sqlite', path, appKeySecret: null }), networks: [network] });
      // Room for every call of the file at once: no test waits on the rate.
      const created = await apps.create({ name: 'mcp test', computeUnitsPerSecond: 100_000 });
      ({ key } = created);
      appId = created.app.id;
      await database.close();
    },
  });
  // The index holds the demo wallet's NFTs (the world, followed by the server's indexer).
  const expected = demoWalletNfts();
  await vi.waitFor(
    async () => {
      const answer = (await rest(`/node/${network}/v2/${key}/getNFTs?owner=${DEMO_WALLET}&withMetadata=false`)) as {
        ownedNfts: Array<{ contract: { address: string }; tokenId: string }>;
      };
      expect(answer.ownedNfts.length).toBeGreaterThanOrEqual(expected.length);
    },
    { timeout: 180_000, interval: 500 },
  );
});

afterAll(async () => {
  await site?.stop();
});

describe.each(Object.keys(transports))('over %s', (transportName) => {
  let client: Client;

  beforeAll(async () => {
    client = new Client({ name: 'crucible-test', version: '1.0.0' });
    await client.connect(transports[transportName]!(key));
  });

  afterAll(async () => {
    await client?.close();
  });

  it('lists one tool per read method, REST operation and faucet operation, and the site tools, each with an object schema and one line', async () => {
    const { tools } = await client.listTools();
    const expected = await expectedToolNames();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...expected].sort());
    expect(tools.length).toBe(expected.length);
    for (const name of ['eth_sendRawTransaction', 'eth_subscribe', 'eth_newFilter', 'eth_getFilterChanges'])
      expect(tools.map((tool) => tool.name)).not.toContain(name);
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.description, tool.name).toMatch(/^[^\n]+ \d+ CU\.$/);
    }
    const getBalance = tools.find((tool) => tool.name === 'eth_getBalance')!;
    expect(getBalance.inputSchema.required).toEqual(['network', 'address']);
  });

  it('search_docs finds a page of the search index, and read_page answers its twin', async () => {
    const index = (await rest('/api/search/en')) as Array<{ label: string; items: Array<{ title: string; url: string }> }>;
    const post = index.flatMap((group) => group.items).find((item) => item.title === 'Hello, agents')!;
    expect(post).toBeDefined();
    const hits = (await call(client, 'search_docs', { query: 'hello agents' })).result as Array<{ title: string; url: string; markdown: string }>;
    const hit = hits.find((item) => item.title === post.title)!;
    expect(hit.url).toBe(new URL(post.url, site.origin).href);
    expect(hit.markdown).toBe(`${hit.url}.md`);
    const page = await call(client, 'read_page', { page: hit.url });
    expect(page.truncated).toBe(false);
    expect(page.result).toBe(await (await fetch(hit.markdown)).text());
    expect(page.markdown).toBe(hit.markdown);
  });

  it('list_networks answers the network table', async () => {
    const networks = await loadFaucetNetworks(projectRoot);
    const listed = (await call(client, 'list_networks', {})).result as Array<{
      id: string;
      chainId: number | null;
      nodeUrl: string;
      nativeCurrency: { symbol: string };
    }>;
    expect(listed.map((item) => item.id)).toEqual(networks.map((item) => item.id));
    const sepolia = listed.find((item) => item.id === network)!;
    expect(sepolia.chainId).toBe(11155111);
    expect(sepolia.nodeUrl).toBe(`${site.origin}/node/${network}/v2/<key>`);
  });

  it('a JSON-RPC read answers what the gateway answers, with its wei amount formatted beside it', async () => {
    const answer = await call(client, 'eth_getBalance', { network, address: DEMO_WALLET.toLowerCase(), blockTag: 'latest' });
    const balance = (await rpc('eth_getBalance', [DEMO_WALLET, 'latest'])) as Hex;
    expect(answer.result).toBe(balance);
    expect(answer.resultFormatted).toBe(`${formatEther(BigInt(balance))} ETH`);
    const chainId = await call(client, 'eth_chainId', { network });
    expect(chainId.result).toBe(await rpc('eth_chainId', []));
  });

  it('token balances answer the raw balances with each token’s decimals applied, addresses checksummed', async () => {
    const answer = (await call(client, 'crucible_getTokenBalances', { network, address: DEMO_WALLET })).result as {
      address: string;
      tokenBalances: Array<{ contractAddress: string; tokenBalance: string | null; balance?: string; decimals?: number; symbol?: string }>;
    };
    const direct = (await rpc('crucible_getTokenBalances', [DEMO_WALLET])) as {
      tokenBalances: Array<{ contractAddress: string; tokenBalance: string | null }>;
    };
    expect(answer.tokenBalances.length).toBeGreaterThan(0);
    expect(answer.tokenBalances.map((item) => [item.contractAddress, item.tokenBalance])).toEqual(
      direct.tokenBalances.map((item) => [getAddress(item.contractAddress), item.tokenBalance]),
    );
    let formatted = 0;
    for (const item of answer.tokenBalances.filter((token) => token.tokenBalance !== null)) {
      const metadata = (await rpc('crucible_getTokenMetadata', [item.contractAddress])) as { decimals: number | null; symbol: string | null };
      // A token whose metadata names no decimals (the world has one) keeps its raw balance alone.
      if (metadata.decimals === null || metadata.symbol === null) {
        expect(item.balance).toBeUndefined();
        continue;
      }
      expect(item.decimals).toBe(metadata.decimals);
      expect(item.symbol).toBe(metadata.symbol);
      expect(item.balance).toBe(formatUnits(BigInt(item.tokenBalance!), metadata.decimals));
      formatted++;
    }
    expect(formatted).toBeGreaterThan(0);
  });

  it('getNFTs answers the REST answer, sliced within the budget and put back together through its cursors', async () => {
    const direct = (await rest(`/node/${network}/v2/${key}/getNFTs?owner=${DEMO_WALLET}`)) as {
      ownedNfts: Array<{ contract: { address: string }; tokenId: string }>;
      totalCount: number;
    };
    const { value } = await whole(client, 'getNFTs', { network, owner: DEMO_WALLET }, BUDGET);
    const answer = value as typeof direct;
    expect(answer.totalCount).toBe(direct.totalCount);
    expect(answer.ownedNfts.map((nft) => nftKey(nft.contract.address, nft.tokenId))).toEqual(
      direct.ownedNfts.map((nft) => nftKey(nft.contract.address, nft.tokenId)),
    );
    expect(answer.ownedNfts.every((nft) => nft.contract.address === getAddress(nft.contract.address))).toBe(true);
  });

  it('an answer over the budget is truncated with a cursor that continues it, and the slices make the whole', async () => {
    const twin = await (await fetch(`${site.origin}/rpc/methods.md`)).text();
    expect(twin.length).toBeGreaterThan(BUDGET);
    const first = await call(client, 'read_page', { page: '/rpc/methods' });
    expect(first.truncated).toBe(true);
    expect(typeof first.cursor).toBe('string');
    expect(JSON.stringify(first).length).toBeLessThanOrEqual(BUDGET);
    const { value, pages } = await whole(client, 'read_page', { page: '/rpc/methods' }, BUDGET);
    expect(pages).toBeGreaterThan(1);
    expect(value).toBe(twin);
    // The cursor belongs to its call: another tool, or other inputs, refuse it.
    const refused = await failure(client, 'read_page', { page: '/blog/hello-agents', cursor: first.cursor });
    expect(refused.code).toBe('bad_request');
    expect(refused.message).toMatch(/another call/);
  });

  it('token metadata and prices answer what the JSON-RPC and REST APIs answer', async () => {
    const metadata = await call(client, 'crucible_getTokenMetadata', { network, contractAddress: WORLD_ADDRESSES.forge });
    expect(metadata.result).toEqual(await rpc('crucible_getTokenMetadata', [WORLD_ADDRESSES.forge]));
    // The same sample through both doors: a sampling round landing between the two calls is waited out.
    await expect
      .poll(async () => {
        const viaTool = (await call(client, 'getTokenPricesBySymbol', { symbols: ['ETH', 'FORGE'] })).result;
        const viaRest = await rest(`/prices/v1/${key}/tokens/by-symbol?symbols=ETH&symbols=FORGE`);
        return JSON.stringify(viaTool) === JSON.stringify(viaRest) ? viaTool : { differ: [viaTool, viaRest] };
      })
      .toMatchObject({ data: [{ symbol: 'ETH' }, { symbol: 'FORGE' }] });
  });

  it('a simulation answers what the gateway answers', async () => {
    const transaction = {
      from: DEMO_WALLET,
      to: WORLD_ADDRESSES.forge,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [randomAddress(), 10n ** 18n] }),
    };
    const answer = (await call(client, 'crucible_simulateAssetChanges', { network, transaction })).result as { changes: unknown[]; error: unknown };
    const direct = await rpc('crucible_simulateAssetChanges', [transaction]);
    expect(answer.changes.length).toBe(1);
    expect(JSON.stringify(answer).toLowerCase()).toBe(JSON.stringify(direct).toLowerCase());
  });

  it('the faucet drips in local mode, and the drip traces as the gateway traces it', async () => {
    const recipient = randomAddress();
    const drip = (await call(client, 'sendFaucetDrip', { faucetId: network, address: recipient })).result as { transactionHash: Hex; statusCode: string };
    expect(drip.statusCode).toBe('success');
    await vi.waitFor(
      async () => {
        const status = (await call(client, 'getFaucetTransactionStatus', { faucetId: network, transactionHash: drip.transactionHash })).result as {
          status: string;
        };
        expect(status.status).toBe('success');
      },
      { timeout: 60_000, interval: 500 },
    );
    const traced = await call(client, 'trace_transaction', { network, transactionHash: drip.transactionHash });
    const direct = (await rpc('trace_transaction', [drip.transactionHash])) as Array<{ action: { value: string } }>;
    expect(JSON.stringify(traced.result).toLowerCase()).toContain(JSON.stringify(direct[0]!.action.value));
    const [frame] = traced.result as Array<{ action: { to: string; value: string; valueFormatted: string } }>;
    expect(frame!.action.to).toBe(getAddress(recipient));
    expect(frame!.action.valueFormatted).toBe(`${formatEther(BigInt(direct[0]!.action.value))} ETH`);
  });

  it('answers an input that fails its schema with the documented code and hint, never a stack', async () => {
    const invalid = await failure(client, 'eth_getBalance', { network, address: 'not-an-address' });
    expect(invalid.code).toBe('invalid_params');
    expect(invalid.message).toMatch(/^invalid params: \[0\] address /);
    expect((invalid.jsonrpc as { code: number }).code).toBe(-32602);
    expect(typeof invalid.hint).toBe('string');
    const unknownInput = await failure(client, 'eth_getBalance', { network, address: DEMO_WALLET, colour: 'blue' });
    expect(unknownInput.code).toBe('bad_request');
    expect(unknownInput.message).toMatch(/colour is not an input of eth_getBalance/);
    const noNetwork = await failure(client, 'getNFTs', { owner: DEMO_WALLET });
    expect(noNetwork.message).toMatch(/network is required/);
    const restInvalid = await failure(client, 'getNFTs', { network, owner: DEMO_WALLET, pageSize: 1000 });
    expect(restInvalid.code).toBe('bad_request');
    expect(restInvalid.message).toMatch(/pageSize/);
  });

  it('refuses a write or a refused method: no tool calls it', async () => {
    await expect(client.callTool({ name: 'eth_sendRawTransaction', arguments: { network, transaction: '0x00' } })).rejects.toThrow(
      /not a tool.*sends a transaction/,
    );
    await expect(client.callTool({ name: 'anvil_setBalance', arguments: { network } })).rejects.toThrow(
      /anvil_setBalance is refused: it controls a development node/,
    );
  });

  it('lists llms.txt and every twin as resources, and reads them', async () => {
    const { resources } = await client.listResources();
    const uris = resources.map((resource) => resource.uri);
    expect(uris).toContain(`${site.origin}/llms.txt`);
    expect(uris).toContain(`${site.origin}/blog/hello-agents.md`);
    const read = await client.readResource({ uri: `${site.origin}/blog/hello-agents.md` });
    expect((read.contents[0] as { text: string }).text).toBe(await (await fetch(`${site.origin}/blog/hello-agents.md`)).text());
  });
});

describe('a key', () => {
  it('that is unknown is refused on both transports before any tool', async () => {
    for (const make of Object.values(transports)) {
      const client = new Client({ name: 'crucible-test', version: '1.0.0' });
      await expect(client.connect(make('not-a-key'))).rejects.toThrow(/Invalid API key/);
      await client.close();
    }
  });

  it('meters every tool call in the app’s usage, as the same call through the API is', async () => {
    const database = await openDatabase({ engine: 'sqlite', path: databasePath });
    try {
      await vi.waitFor(
        async () => {
          const rows = await database.db.selectFrom('usage_minutes').select(['network', 'method']).where('app_id', '=', appId).execute();
          const methods = rows.map((row) => `${row.network} ${row.method}`);
          for (const method of [
            `${network} eth_getBalance`,
            `${network} getNFTs`,
            'mcp search_docs',
            'mcp sendFaucetDrip',
            `${network} crucible_simulateAssetChanges`,
          ])
            expect(methods).toContain(method);
        },
        { timeout: 30_000, interval: 500 },
      );
    } finally {
      await database.close();
    }
  });
});
