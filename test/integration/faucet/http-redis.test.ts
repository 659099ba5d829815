import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEther, type Address, type Hex } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_TURNSTILE_TOKEN } from '../../../src/faucet/captcha.ts';
import { FAUCET_KEY, randomAddress, startTestAnvil, type TestAnvil } from '../../support/anvil.ts';
import { writeFixtureDist, type FixtureDist } from '../../support/fixture-dist.ts';
import { createResponseValidator, type ResponseValidator } from '../../support/openapi-validator.ts';
import { startRedis, type TestRedis } from '../../support/redis.ts';
import { startBuiltSite, type BuiltSite } from '../../support/site.ts';

// Two production server processes sharing one redis-server and one chain, in local mode (the
// development check): the per-address limit and the per-network sender lock live in Redis, so
// over HTTP they never double-drip and keep the faucet wallet's nonces consecutive.

const NETWORK = 'crucible-testnet';
const FAUCET_ADDRESS: Address = privateKeyToAddress(FAUCET_KEY);

let dir: string;
let fixture: FixtureDist;
let redis: TestRedis;
let chain: TestAnvil;
let servers: BuiltSite[] = [];
let validator: ResponseValidator;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'crucible-faucet-redis-'));
  fixture = await writeFixtureDist();
  [redis, chain] = await Promise.all([startRedis(), startTestAnvil({ chainId: 7357001, blockTimeSeconds: 1 })]);
  servers = await Promise.all(
    ['a', 'b'].map((name) =>
      startBuiltSite({
        distDir: fixture.distDir,
        env: {
          CRUCIBLE_MODE: 'local',
          REDIS_URL: redis.url,
          RPC_URL_CRUCIBLE_TESTNET: chain.rpcUrl,
          DATABASE_PATH: join(dir, `${name}.sqlite`),
          // Each request names its client, so the per-IP limit does not join the test.
          TRUST_PROXY: '1',
        },
      }),
    ),
  );
  validator = createResponseValidator(await (await fetch(`${servers[0]!.origin}/openapi.json`)).json());
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await chain?.stop();
  await redis?.stop();
  if (fixture) await rm(fixture.root, { recursive: true, force: true });
  if (dir) await rm(dir, { recursive: true, force: true });
});

let ipCounter = 0;

async function call(server: BuiltSite, method: 'GET' | 'POST', path: string, body?: unknown) {
  ipCounter += 1;
  const response = await fetch(server.origin + path, {
    method,
    headers: { 'x-forwarded-for': `10.9.${ipCounter >> 8}.${ipCounter & 255}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await response.json()) as Record<string, unknown>;
  const check = validator.check(method, path.split('?')[0]!, response.status, response.headers.get('content-type'), json);
  expect(check.errors, `${method} ${path} -> ${response.status}: ${JSON.stringify(json)}`).toEqual([]);
  return { status: response.status, json };
}

const send = (server: BuiltSite, address: string) => call(server, 'POST', `/api/faucets/${NETWORK}/send`, { address, turnstileToken: DEV_TURNSTILE_TOKEN });

describe('two server processes sharing Redis and one chain', () => {
  it('drip exactly once for one address asked of both at once (10 requests)', async () => {
    const address = randomAddress();
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => send(servers[i % 2]!, address)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.map((a) => [a.status, a.json.statusCode])).toEqual(Array(9).fill([429, 'rate_limit_exceeded']));
    for (const answer of refused) expect(Date.parse(String(answer.json.resetAt))).toBeGreaterThan(Date.now());
    // And the chain agrees: one transfer to the address.
    const hash = answers.find((a) => a.status === 200)!.json.transactionHash as Hex;
    await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 200 });
    expect(await chain.client.getBalance({ address })).toBe(parseEther('0.1'));
  });

  it('serve 20 concurrent distinct addresses with consecutive nonces and no 409', async () => {
    const start = await chain.client.getTransactionCount({ address: FAUCET_ADDRESS, blockTag: 'pending' });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => send(servers[i % 2]!, randomAddress())));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const nonces = await Promise.all(answers.map(async (a) => (await chain.client.getTransaction({ hash: a.json.transactionHash as Hex })).nonce));
    expect(nonces.sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => start + i));
  });

  it('answer the status of a drip sent by the other process', async () => {
    const sent = await send(servers[0]!, randomAddress());
    expect(sent.status).toBe(200);
    const hash = String(sent.json.transactionHash);
    await chain.client.waitForTransactionReceipt({ hash: hash as Hex, pollingInterval: 200 });
    const answer = await call(servers[1]!, 'GET', `/api/faucets/${NETWORK}/status?transactionHash=${hash}`);
    expect(answer).toEqual({ status: 200, json: { status: 'success', mined: true, transactionHash: hash, chainId: 7357001, chainName: 'Crucible Testnet' } });
  });
});
