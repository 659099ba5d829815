import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAdmission, type UsageRecorder } from '../../../src/admission/admission.ts';
import { createKeyLookup } from '../../../src/admission/callers.ts';
import { isDemoKey } from '../../../src/apps/demo.ts';
import { createAppStore } from '../../../src/apps/store.ts';
import { openDatabase, type Database } from '../../../src/db/open.ts';
import { CrucibleError } from '../../../src/errors/crucible-error.ts';
import { createMemoryQuotaCounter } from '../../../src/limits/memory-quota.ts';
import { createMemoryRateLimiter } from '../../../src/limits/memory-rate-limiter.ts';
import { createRestDoor, mountProduct, type RestDoor } from '../../../src/rest/door.ts';
import { defineRestOperation, type RestProduct } from '../../../src/rest/operation.ts';

// The keyed REST door (src/rest/door.ts) on its own: apps in a real SQLite database, the admission
// the gateway uses, real web Requests, and a small product of the test's making whose handler
// answers what its body asks. Each test is a client and a key of its own.

const ORIGIN = 'https://crucible.test';

const Echo = z.object({ say: z.enum(['hello', 'missing', 'crash']) });

/** One operation that answers its body back, refuses `missing` (404) and fails on `crash`. */
const echoProduct: RestProduct<{ served: string }> = {
  name: 'echo',
  mount: { at: 'site', prefix: '/echo/' },
  queryStyle: 'plain',
  scope: { name: 'echo' },
  apiKey: z.object({ apiKey: z.string() }),
  internalErrorMessage: 'The echo failed.',
  operations: [
    defineRestOperation<{ served: string }, z.ZodObject, typeof Echo>({
      operationId: 'echo',
      method: 'POST',
      paths: [{ path: '/echo/v1/{apiKey}/say', operationId: 'echo' }],
      summary: 'Says it back.',
      description: 'Costs 50 compute units.',
      tags: ['Echo'],
      body: { schema: Echo, maxBytes: 1024 },
      computeUnits: 50,
      meteredAs: 'echo/say',
      responses: {},
      handler: async ({ body }, services) => {
        if (body.say === 'missing') throw new CrucibleError('not_found', 'Nothing to say.');
        if (body.say === 'crash') throw new Error('the echo broke');
        return { said: body.say, by: services.served };
      },
    }),
  ],
};

let dir: string;
let database: Database;
let door: RestDoor;
const usage: Array<Parameters<UsageRecorder['record']>[0]> = [];
const logged: string[] = [];
let lastIp = 0;
let apps: ReturnType<typeof createAppStore>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'crucible-rest-door-'));
  database = await openDatabase({ engine: 'sqlite', path: join(dir, 'crucible.sqlite') });
  apps = createAppStore(database, { keySecret: randomBytes(32), networks: ['base-sepolia'] });
  const limiter = createMemoryRateLimiter();
  door = createRestDoor({
    admission: createAdmission({
      keys: createKeyLookup({ findApp: (key) => apps.findByKey(key), isDemoKey }),
      rateLimiter: limiter,
      quota: createMemoryQuotaCounter(async () => 0),
      usage: { record: (entry) => void usage.push(entry) },
      demo: { perClient: { computeUnitsPerSecond: 10, burst: 100 }, perNetwork: { computeUnitsPerSecond: 1000, burst: 10_000 } },
      account: { computeUnitsPerSecond: 1000, burst: 10_000 },
      ipv6PrefixLength: 64,
    }),
    siteOrigin: ORIGIN,
    networks: new Map([['base-sepolia', { name: 'Base Sepolia' }]]),
    nodeUrlOf: (network) => `${ORIGIN}/node/${network}`,
    products: [mountProduct(echoProduct, () => ({ served: 'the echo' }))],
    bodies: { jsonMaxDepth: 8, perClient: { limiter, requestsPerSecond: 1, burst: 3, ipv6PrefixLength: 64 } },
  });
});

afterAll(async () => {
  await database?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const client = () => `203.0.113.${++lastIp}`;
const context = (path: string, clientIp = client()) => ({
  path,
  clientIp,
  requestId: 'test',
  log: { info() {}, error: (message: string, fields?: Record<string, unknown>) => void logged.push(`${message} ${String(fields?.error)}`) },
});
const post = (key: string, body: string, clientIp?: string) => {
  const path = `/echo/v1/${key}/say`;
  const request = new Request(`${ORIGIN}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return door.handleSite(request, path, context(path, clientIp));
};
const errorOf = async (response: Response) => ((await response.json()) as { error: { code: string; message: string } }).error;

describe('routing', () => {
  it('answers the preflight, refuses another method with Allow, and a path no entry has with 404, all with CORS', async () => {
    const path = '/echo/v1/demo/say';
    const preflight = await door.handleSite(new Request(`${ORIGIN}${path}`, { method: 'OPTIONS' }), path, context(path));
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('POST, GET, OPTIONS');
    const get = await door.handleSite(new Request(`${ORIGIN}${path}`), path, context(path));
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, OPTIONS');
    expect(await errorOf(get)).toMatchObject({ code: 'method_not_allowed', message: `${path} does not accept GET.` });
    const missing = await door.handleSite(new Request(`${ORIGIN}/echo/v2/demo/say`), '/echo/v2/demo/say', context('/echo/v2/demo/say'));
    expect(missing.status).toBe(404);
    expect(missing.headers.get('access-control-allow-origin')).toBe('*');
    expect(door.answersSitePath('/echo/anything')).toBe(true);
    expect(door.answersSitePath('/api/ip')).toBe(false);
  });

  it('answers nothing below a {node_url} where no product is mounted', async () => {
    const path = '/node/base-sepolia/v2/demo/getNFTs';
    const answer = await door.handleNode(new Request(`${ORIGIN}${path}`), { network: 'base-sepolia', path: '/v2/demo/getNFTs' }, context(path));
    expect(answer.status).toBe(404);
    expect(await errorOf(answer)).toMatchObject({ code: 'not_found', message: `No API operation matches GET ${path}.` });
  });
});

describe('the order of a call', () => {
  it('checks the key before reading the body, and the body before charging', async () => {
    const before = usage.length;
    expect((await post('not-a-key', '{"say":')).status).toBe(401);
    const malformed = await post('demo', '{"say":"shout"}');
    expect(malformed.status).toBe(400);
    expect((await errorOf(malformed)).message).toBe('The request body is not valid (say): Invalid option: expected one of "hello"|"missing"|"crash".');
    const deep = await post('demo', `{"say":${'['.repeat(9)}${']'.repeat(9)}}`);
    expect((await errorOf(deep)).message).toBe('The request body nests arrays and objects more than 8 deep, the limit.');
    expect(usage.length).toBe(before);
  });

  it('charges a body to its client IP before reading it, whatever its key', async () => {
    const ip = client();
    for (let i = 0; i < 3; i++) expect((await post('not-a-key', '{}', ip)).status).toBe(401);
    const refused = await post('not-a-key', '{}', ip);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await errorOf(refused)).message).toMatch(/Too many requests with a body from this client/);
  });

  it('answers, charges and meters a call; a refusal of the handler is charged and metered with its status', async () => {
    const { app, key } = await apps.create({ name: 'echo test', computeUnitsPerSecond: 10 });
    const said = await post(key, '{"say":"hello"}');
    expect(said.status).toBe(200);
    expect(said.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(said.headers.get('access-control-allow-origin')).toBe('*');
    expect(await said.json()).toEqual({ said: 'hello', by: 'the echo' });
    const missing = await post(key, '{"say":"missing"}');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('cache-control')).toBe('no-store');
    expect(usage.filter((entry) => entry.appId === app.id)).toEqual([
      { appId: app.id, network: 'echo', method: 'echo/say', computeUnits: 50, errorCode: null },
      { appId: app.id, network: 'echo', method: 'echo/say', computeUnits: 50, errorCode: 404 },
    ]);
    // 10 CU/s with a bucket of 10 s: the two calls spent it.
    const over = await post(key, '{"say":"hello"}');
    expect(over.status).toBe(429);
    expect(await errorOf(over)).toMatchObject({
      code: 'rate_limited',
      message: expect.stringMatching(/^Too many requests: over this app's rate of 10 compute units per second; retry after \d+ s\.$/),
    });
  });

  it("refuses a call costing more than the app's burst with 400 bad_request naming both, every time, uncharged and unmetered", async () => {
    // 1 CU/s with a bucket of 10 s: 10 CU at most at once; the echo costs 50.
    const { app, key } = await apps.create({ name: 'echo too small', computeUnitsPerSecond: 1 });
    for (let attempt = 0; attempt < 2; attempt++) {
      const refused = await post(key, '{"say":"hello"}');
      expect(refused.status).toBe(400);
      expect(refused.headers.get('retry-after')).toBeNull();
      expect(refused.headers.get('access-control-allow-origin')).toBe('*');
      expect(await errorOf(refused)).toMatchObject({
        code: 'bad_request',
        message:
          "Request too large for this key's limits: it costs 50 compute units, more than the 10 that this app's bucket holds at most (its burst), so it is refused however long you wait; split it into smaller requests.",
        hint: expect.stringMatching(/^Retrying it unchanged will not help/),
      });
    }
    expect(usage.filter((entry) => entry.appId === app.id)).toEqual([]);
  });

  it('logs a failure of the handler and answers its product’s 500', async () => {
    const failed = await post('demo', '{"say":"crash"}');
    expect(failed.status).toBe(500);
    expect(await errorOf(failed)).toMatchObject({ code: 'internal_error', message: 'The echo failed.' });
    expect(logged.some((line) => line.includes('the echo broke'))).toBe(true);
  });
});
