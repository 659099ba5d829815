import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAppKeySecret } from '../../../src/apps/key-secret.ts';
import { createAppStore } from '../../../src/apps/store.ts';
import { openDatabase } from '../../../src/db/open.ts';
import { randomAddress } from '../../support/anvil.ts';
import { writeFixtureDist, type FixtureDist } from '../../support/fixture-dist.ts';
import { startBuiltSite, type BuiltSite } from '../../support/site.ts';

// Nothing is parsed for a caller before the caller is charged (README, "Server limits"), through
// the production server: a JSON-RPC request pays its minimum before its body is read, a body
// nested deeper than JSON_MAX_DEPTH is refused unparsed, bodies under /api/ and /prices/ pay a
// per-client-IP bucket first, the demo key is limited in compute units per client IP and per
// network, and an account's apps share one bucket. TRUST_PROXY=1 makes each test a client of its
// own (X-Forwarded-For); each demo test uses a network of its own, since the network's total is shared.

/** Small limits, so that a few requests drain them. */
const env = {
  TRUST_PROXY: '1',
  DEMO_KEY_COMPUTE_UNITS_PER_SECOND: '1',
  DEMO_KEY_COMPUTE_UNIT_BURST: '100',
  DEMO_KEY_NETWORK_COMPUTE_UNITS_PER_SECOND: '1',
  DEMO_KEY_NETWORK_COMPUTE_UNIT_BURST: '150',
  ACCOUNT_COMPUTE_UNITS_PER_SECOND: '1',
  API_BODY_REQUESTS_PER_SECOND: '1',
  API_BODY_REQUESTS_BURST: '3',
};
/** The default: the cheapest paid method's cost (eth_blockNumber and others, 10 CU). */
const MIN_REQUEST_CU = 10;
const MAX_DEPTH = 64;

let dir: string;
let fixture: FixtureDist;
let server: BuiltSite;
const keys: Record<'tiny' | 'small' | 'sibling1' | 'sibling2' | 'ownerless', string> = { tiny: '', small: '', sibling1: '', sibling2: '', ownerless: '' };

let lastIp = 0;
/** A client address no other test uses. */
const newIp = () => `203.0.113.${++lastIp}`;

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const call = (method: string, params: unknown[] = []) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });

async function post(path: string, body: string | Uint8Array<ArrayBuffer>, ip: string) {
  const response = await fetch(server.origin + path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': ip }, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

const nodePath = (network: string, key: string) => `/node/${network}/v2/${key}`;

/**
 * Sends the head of a POST and the first bytes of a body it never finishes, and resolves with what
 * the server sends until it closes the connection: only a server that answers without reading the
 * body (and does not wait to read the rest) can do that.
 */
function answerWithoutBody(path: string, ip: string): Promise<string> {
  const { hostname, port } = new URL(server.origin);
  const socket = connect(Number(port), hostname);
  return new Promise<string>((resolve, reject) => {
    let received = '';
    const bound = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the connection stayed open while the body was unfinished; received ${JSON.stringify(received)}`));
    }, 10_000);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => {}); // a reset closes it too
    socket.once('close', () => {
      clearTimeout(bound);
      resolve(received);
    });
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\nX-Forwarded-For: ${ip}\r\n\r\n[[[[`,
    );
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'crucible-node-charge-'));
  fixture = await writeFixtureDist();
  const databasePath = join(dir, 'crucible.sqlite');
  const database = await openDatabase({ engine: 'sqlite', path: databasePath });
  const apps = createAppStore(database, {
    keySecret: await loadAppKeySecret({ engine: 'sqlite', path: databasePath, appKeySecret: null }),
    networks: ['ethereum-sepolia'],
  });
  keys.tiny = (await apps.create({ name: 'one CU a second', computeUnitsPerSecond: 1 })).key;
  keys.small = (await apps.create({ name: 'a bucket of 10 CU', computeUnitsPerSecond: 1 })).key;
  keys.sibling1 = (await apps.create({ name: 'first of an account', ownerId: 'acct_charge_test' })).key;
  keys.sibling2 = (await apps.create({ name: 'second of the account', ownerId: 'acct_charge_test' })).key;
  keys.ownerless = (await apps.create({ name: 'made by the CLI' })).key;
  await database.close();
  server = await startBuiltSite({ distDir: fixture.distDir, env: { ...env, DATABASE_PATH: databasePath, ANVIL_BLOCK_TIME: '1' } });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  if (fixture) await rm(fixture.root, { recursive: true, force: true });
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('JSON-RPC over HTTP: charged before the body is read', () => {
  it('refuses a body nested deeper than JSON_MAX_DEPTH with -32600 naming the limit, and charges it', async () => {
    const ip = newIp();
    const deep = await post(nodePath('polygon-amoy', keys.tiny), nested(MAX_DEPTH + 1), ip);
    expect(deep.status).toBe(400);
    expect(deep.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining(`${MAX_DEPTH}`) } });
    expect(deep.body.error.message).toMatch(/nest/);
    // The app's bucket holds 10 CU (1 CU/s for 10 s): the refused body took them.
    const next = await post(nodePath('polygon-amoy', keys.tiny), call('rpc.discover'), ip);
    expect(next.status).toBe(429);
    expect(next.body.error.message).toMatch(/this app's rate of 1 compute units per second/);
  });

  it('parses a body nested to the limit: a batch whose item is no request', async () => {
    const answer = await post(nodePath('worldchain-sepolia', 'demo'), nested(MAX_DEPTH), newIp());
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([{ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/must be a JSON object/) } }]);
  });

  it("drains the demo key's per-IP bucket with bodies it never parses, then answers 429 without reading the body", async () => {
    const ip = newIp();
    const path = nodePath('optimism-sepolia', 'demo');
    // 100 CU per client IP: ten bodies at the 10 CU minimum.
    for (let i = 0; i < 100 / MIN_REQUEST_CU; i++) {
      const answer = await post(path, nested(200), ip);
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.error.code).toBe(-32600);
    }
    const refused = await post(path, call('rpc.discover'), ip);
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toMatch(/demo key's 1 compute units per second per client IP/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const unread = await answerWithoutBody(path, ip);
    expect(unread).toMatch(/^HTTP\/1\.1 429 /);
    expect(unread).toMatch(/\r\nconnection: close\r\n/i);
  });

  it('keeps answering GET / while 8 clients send 2 MB nested bodies with the demo key, which are refused unparsed', async () => {
    const body = Buffer.from(nested(1_000_000));
    const path = nodePath('ink-sepolia', 'demo');
    const statuses: Array<number | 'closed'> = [];
    let sending = true;
    const client = async (ip: string) => {
      while (sending) {
        // Refused unread, the connection is closed: the upload may end in a reset before the answer is read.
        const answer = await post(path, body, ip).catch(() => null);
        statuses.push(answer?.status ?? 'closed');
        if (answer?.status === 400) expect(answer.body.error).toEqual({ code: -32600, message: expect.stringContaining(`${MAX_DEPTH}`) });
      }
    };
    const clients = Array.from({ length: 8 }, () => client(newIp()));
    try {
      for (let i = 0; i < 10; i++) {
        const page = await fetch(`${server.origin}/`);
        expect(page.status).toBe(200);
        await page.arrayBuffer();
      }
    } finally {
      sending = false;
      await Promise.all(clients);
    }
    expect(statuses).toContain(400);
    expect(statuses.every((status) => status === 400 || status === 429 || status === 'closed')).toBe(true);
  });

  it('charges a valid call only what its compute units exceed the minimum by', async () => {
    // eth_getLogs costs 75 CU: 10 before the body is read, 65 after; the per-IP bucket holds 100.
    const ip = newIp();
    const path = nodePath('ethereum-sepolia', 'demo');
    const logs = call('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', address: randomAddress() }]);
    const first = await post(path, logs, ip);
    expect(first.body).toEqual({ jsonrpc: '2.0', id: 1, result: [] });
    // 25 CU left: a second eth_getLogs is over the limit (a request-counted limit let it through).
    const second = await post(path, logs, ip);
    expect(second.status).toBe(429);
    expect(second.body.error.message).toMatch(/compute units per second per client IP/);
    // …and a call that fits is served.
    expect((await post(path, call('rpc.discover'), ip)).status).toBe(200);
  });
});

describe("a call costing more than a bucket's burst", () => {
  // Refused for good, not "retry later": a 429 would have clients retry a call that never fits.
  const logs = (id: number) => ({ jsonrpc: '2.0', id, method: 'eth_getLogs', params: [{ fromBlock: '0x0', toBlock: 'latest', address: randomAddress() }] });

  it("is 400 -32600 naming its cost and the app's burst, with no Retry-After", async () => {
    // The app's bucket holds 10 CU (1 CU/s for 10 s); eth_getLogs costs 75. (The 10 CU every
    // message pays before it is read are taken, so an immediate repeat meets a 429 for those.)
    const refused = await post(nodePath('arbitrum-sepolia', keys.small), JSON.stringify(logs(1)), newIp());
    expect(refused.status).toBe(400);
    expect(refused.headers.get('retry-after')).toBeNull();
    expect(refused.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message:
          "Request too large for this key's limits: it costs 75 compute units, more than the 10 that this app's bucket holds at most (its burst), so it is refused however long you wait; split it into smaller requests",
        data: { limit: 'app-rate', computeUnits: 75, burst: 10 },
      },
    });
  });

  it("names the demo key's per-IP bucket for a batch larger than it", async () => {
    // Two eth_getLogs, 150 CU; the demo key's per-IP bucket holds 100.
    const refused = await post(nodePath('base-sepolia', 'demo'), JSON.stringify([logs(1), logs(2)]), newIp());
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: -32600, data: { limit: 'demo-ip', computeUnits: 150, burst: 100 } });
    expect(refused.body.error.message).toMatch(/costs 150 compute units, more than the 100 that the demo key's bucket per client IP holds/);
  });
});

describe("the demo key's total per network", () => {
  it('is shared by every client: once it is spent, a client with a full bucket of its own is refused', async () => {
    // 150 CU per network: fifteen clients' single calls at the 10 CU minimum.
    const path = nodePath('unichain-sepolia', 'demo');
    for (let i = 0; i < 150 / MIN_REQUEST_CU; i++) expect((await post(path, call('rpc.discover'), newIp())).status).toBe(200);
    const refused = await post(path, call('rpc.discover'), newIp());
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toMatch(/demo key's 1 compute units per second on this network/);
    // Another network's total is its own.
    expect((await post(nodePath('shape-sepolia', 'demo'), call('rpc.discover'), newIp())).status).toBe(200);
  });
});

describe("an account's bucket", () => {
  it("is shared by the account's apps; an app without an owner is limited per app only", async () => {
    const ip = newIp();
    // 1 CU/s with a bucket of 10 s: one call at the 10 CU minimum spends it, whichever app makes it.
    expect((await post(nodePath('soneium-minato', keys.sibling1), call('rpc.discover'), ip)).status).toBe(200);
    const refused = await post(nodePath('soneium-minato', keys.sibling2), call('rpc.discover'), ip);
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toMatch(/account's rate of 1 compute units per second/);
    for (let i = 0; i < 3; i++) expect((await post(nodePath('soneium-minato', keys.ownerless), call('rpc.discover'), ip)).status).toBe(200);
  });
});

describe('JSON bodies under /api/ and /prices/', () => {
  it('refuses nesting deeper than JSON_MAX_DEPTH with the Error body naming the limit', async () => {
    const deep = `{"addresses":${nested(MAX_DEPTH)}}`;
    const prices = await post('/prices/v1/demo/tokens/by-address', deep, newIp());
    expect(prices.status).toBe(400);
    expect(prices.body.error).toMatchObject({ code: 'bad_request', status: 400, message: expect.stringContaining(`${MAX_DEPTH}`) });
    expect(prices.body.error.message).toMatch(/nest/);
    // The faucet answers its own shape, as for any unreadable body.
    const faucet = await post('/api/faucets/ethereum-sepolia/send', deep, newIp());
    expect(faucet.status).toBe(400);
    expect(faucet.body.statusCode).toBe('invalid_request_body');
  });

  it('are charged to a per-client-IP bucket before they are read: 429 rate_limited with Retry-After', async () => {
    const ip = newIp();
    const path = '/api/faucets/ethereum-sepolia/send';
    for (let i = 0; i < 3; i++) expect((await post(path, '{}', ip)).body.statusCode).toBe('missing_address');
    const refused = await post(path, '{}', ip);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const unread = await answerWithoutBody('/prices/v1/demo/tokens/historical', ip);
    expect(unread).toMatch(/^HTTP\/1\.1 429 /);
    expect(unread).toMatch(/\r\nconnection: close\r\n/i);
    // Another client is not affected.
    expect((await post(path, '{}', newIp())).body.statusCode).toBe('missing_address');
  });
});
