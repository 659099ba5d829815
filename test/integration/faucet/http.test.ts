import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getAddress, parseEther, type Address, type Hex } from 'viem';
import { privateKeyToAccount, privateKeyToAddress } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  FAUCET_KEY,
  frontRunEveryBroadcast,
  holdBlockGasLimit,
  randomAddress,
  startRpcProxy,
  startTestAnvil,
  THIRD_PARTY_KEY,
  type RpcInterceptor,
  type TestAnvil,
} from '../../support/anvil.ts';
import { writeFixtureDist, type FixtureDist } from '../../support/fixture-dist.ts';
import { createResponseValidator, type ResponseValidator } from '../../support/openapi-validator.ts';
import { startBuiltSite, type BuiltSite } from '../../support/site.ts';
import { startSiteverify, type TestSiteverify } from '../../support/siteverify.ts';

// The faucet through the real production server (`node src/server/main.ts`) over HTTP: every
// statusCode and HTTP status of docs/website.md#faucet-error-codes, the success of docs/website.md#faucet-send, status pending -> success
// (docs/website.md#faucet-status), each response validated against the served /openapi.json. Behind it: real anvil
// chains (base-sepolia through a pass-through proxy that can act at the broadcast), a local
// "mainnet" anvil for the anti-sybil check, SQLite, and the local Turnstile siteverify server.

const BASE = 'base-sepolia';
const DRIP = parseEther('0.1');
const SECRET = 'http-test-turnstile-secret';
const FAUCET_ADDRESS: Address = privateKeyToAddress(FAUCET_KEY);
const PER_IP_MAX = 3;

/** docs/website.md#order-of-checks (with the statuses the faucet gives the codes it leaves open), docs/website.md#faucet-status for the status. */
const sendStatuses: Record<string, number> = {
  invalid_request_body: 400,
  unsupported_faucet: 400,
  missing_address: 400,
  invalid_address: 400,
  missing_turnstile: 400,
  turnstile_failed: 403,
  turnstile_unavailable: 503,
  insufficient_mainnet_balance: 403,
  insufficient_mainnet_activity: 403,
  max_balance_exceeded: 403,
  nonce_conflict: 409,
  rate_limit_exceeded: 429,
  faucet_request_failed: 500,
  insufficient_faucet_balance: 503,
  insufficient_faucet_balance_tx: 503,
};
const statusStatuses: Record<string, number> = { unsupported_faucet: 400, invalid_transaction_hash: 400, rate_limit_exceeded: 429, status_check_failed: 500 };
/** Status polls that reach the node, per client per minute (burst: a quarter of it). */
const STATUS_POLLS_PER_MINUTE = 8;
const faucetErrorFields = ['error', 'statusCode', 'message', 'hint', 'supportedChains', 'resetAt', 'details'];

let dir: string;
let fixture: FixtureDist;
let siteverify: TestSiteverify;
let mainnet: TestAnvil;
let chain: TestAnvil;
let proxy: { url: string; close(): Promise<void> };
let intercept: RpcInterceptor | undefined;
let server: BuiltSite;
let validator: ResponseValidator;
const seen = { send: new Map<string, number>(), status: new Map<string, number>() };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'crucible-faucet-http-'));
  fixture = await writeFixtureDist();
  [siteverify, mainnet, chain] = await Promise.all([
    startSiteverify({ secret: SECRET }),
    startTestAnvil({ chainId: 1 }),
    startTestAnvil({ chainId: 84532, blockTimeSeconds: 1 }),
  ]);
  proxy = await startRpcProxy(chain.rpcUrl, (call) => intercept?.(call) ?? Promise.resolve(undefined));
  server = await startBuiltSite({
    distDir: fixture.distDir,
    env: {
      DATABASE_PATH: join(dir, 'faucet.sqlite'),
      ANVIL_BLOCK_TIME: '1',
      TURNSTILE_SECRET_KEY: SECRET,
      TURNSTILE_SITEVERIFY_URL: siteverify.url,
      MAINNET_RPC_URL: mainnet.rpcUrl,
      RPC_URL_BASE_SEPOLIA: proxy.url,
      // Each request names its client in X-Forwarded-For, so per-IP limits stay per test.
      TRUST_PROXY: '1',
      PER_IP_MAX_DRIPS: String(PER_IP_MAX),
      STATUS_POLLS_PER_MINUTE: String(STATUS_POLLS_PER_MINUTE),
    },
  });
  validator = createResponseValidator(await (await fetch(`${server.origin}/openapi.json`)).json());
});

afterAll(async () => {
  await server?.stop();
  await proxy?.close();
  await Promise.all([chain?.stop(), mainnet?.stop(), siteverify?.close()]);
  if (fixture) await rm(fixture.root, { recursive: true, force: true });
  if (dir) await rm(dir, { recursive: true, force: true });
});

afterEach(() => {
  intercept = undefined;
});

let ipCounter = 0;
/** A client address of its own for each request unless one is given. */
const nextIp = () => `10.${(++ipCounter >> 8) & 255}.${ipCounter & 255}.1`;

interface ApiAnswer {
  status: number;
  headers: Headers;
  json: Record<string, unknown>;
}

/** Every faucet answer goes through here: validated against the served OpenAPI document. */
async function api(method: 'GET' | 'POST', path: string, options: { body?: string; contentType?: string; ip?: string } = {}): Promise<ApiAnswer> {
  const headers: Record<string, string> = { 'x-forwarded-for': options.ip ?? nextIp() };
  if (options.body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
  const response = await fetch(server.origin + path, { method, headers, body: options.body });
  const text = await response.text();
  const json = JSON.parse(text) as Record<string, unknown>;
  const check = validator.check(method, path.split('?')[0]!, response.status, response.headers.get('content-type'), json);
  expect(check.errors, `${method} ${path} -> ${response.status}: ${text}`).toEqual([]);
  expect(check.template, path).toMatch(/^\/api\/faucets\/\{faucetId\}\/(send|status)$/);
  // Chain state and limits change from one request to the next: never cached.
  expect(response.headers.get('cache-control')).toBe('no-store');
  if (response.status !== 200) {
    // The FaucetError shape only: no stack, no cause, nothing internal (docs/errors.md#faucet-error-body).
    expect(
      Object.keys(json).filter((key) => !faucetErrorFields.includes(key)),
      text,
    ).toEqual([]);
    expect(text).not.toMatch(/\bat \S+ \(|node_modules|Error:/);
    const which = check.template!.endsWith('/send') ? seen.send : seen.status;
    which.set(String(json.statusCode), response.status);
  }
  return { status: response.status, headers: response.headers, json };
}

const send = (faucetId: string, body: unknown, options: { ip?: string } = {}) =>
  api('POST', `/api/faucets/${faucetId}/send`, { body: JSON.stringify(body), ...options });
const status = (faucetId: string, transactionHash: string, options: { ip?: string } = {}) =>
  api('GET', `/api/faucets/${faucetId}/status?transactionHash=${transactionHash}`, options);

/** A send with a freshly solved CAPTCHA. */
const drip = (address: string, options: { faucetId?: string; ip?: string } = {}) =>
  send(options.faucetId ?? BASE, { address, turnstileToken: siteverify.issueToken() }, options);

/** A recipient that passes the anti-sybil check (mainnet balance and one transaction). */
async function seasoned(): Promise<Address> {
  const address = randomAddress();
  await mainnet.setBalance(address, parseEther('0.01'));
  await mainnet.client.setNonce({ address, nonce: 1 });
  return address;
}

function expectError(answer: ApiAnswer, httpStatus: number, statusCode: string) {
  expect({ status: answer.status, statusCode: answer.json.statusCode }).toEqual({ status: httpStatus, statusCode });
  expect(answer.json.error).toEqual(expect.any(String));
}

async function pollUntilMined(faucetId: string, hash: string): Promise<ApiAnswer[]> {
  const answers: ApiAnswer[] = [];
  for (;;) {
    const answer = await status(faucetId, hash);
    answers.push(answer);
    if (answer.status !== 200 || answer.json.status !== 'pending') return answers;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('send: success (docs/website.md#faucet-send)', () => {
  it('drips the network amount to the address and answers hash, amount, recipient and explorer link', async () => {
    const address = await seasoned();
    const ip = '203.0.113.9';
    const answer = await drip(address.toLowerCase(), { ip });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    const hash = answer.json.transactionHash as Hex;
    expect(answer.json).toEqual({
      success: true,
      transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      amount: '0.1',
      recipient: getAddress(address),
      explorerUrl: `https://sepolia.basescan.org/tx/${hash}`,
      statusCode: 'success',
    });
    // The client address reached the CAPTCHA check (remoteip) as the edge reported it.
    expect(siteverify.requests.at(-1)!.fields.remoteip).toBe(ip);
    const receipt = await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 200 });
    expect(receipt).toMatchObject({ status: 'success', to: address.toLowerCase(), from: FAUCET_ADDRESS.toLowerCase() });
    expect(await chain.client.getBalance({ address })).toBe(DRIP);
  });
});

describe('send: input errors (400, docs/website.md#faucet-error-codes)', () => {
  const address = `0x${'ab'.repeat(20)}`;

  it('invalid_request_body for a body that is not JSON, not an object, not JSON media, or too large', async () => {
    for (const [body, contentType] of [
      ['{', 'application/json'],
      ['[1, 2]', 'application/json'],
      [JSON.stringify({ address, turnstileToken: 't' }), 'text/plain'],
      [JSON.stringify({ address, turnstileToken: 'x'.repeat(20_000) }), 'application/json'],
    ] as const) {
      const answer = await api('POST', `/api/faucets/${BASE}/send`, { body, contentType });
      expectError(answer, 400, 'invalid_request_body');
      expect(answer.json.hint, body.slice(0, 20)).toEqual(expect.any(String));
    }
  });

  it('unsupported_faucet for an unknown faucet id, listing the 23 supported ones', async () => {
    const answer = await send('solana-devnet', { address, turnstileToken: 't' });
    expectError(answer, 400, 'unsupported_faucet');
    expect(answer.json.supportedChains).toHaveLength(23);
    expect(answer.json.supportedChains).toEqual(expect.arrayContaining(['ethereum-sepolia', BASE, 'crucible-testnet', 'syndicate-risa']));
  });

  it('missing_address, invalid_address and missing_turnstile, each with a hint', async () => {
    for (const [body, statusCode] of [
      [{ turnstileToken: 't' }, 'missing_address'],
      [{ address: '', turnstileToken: 't' }, 'missing_address'],
      [{ address: '0x1234', turnstileToken: 't' }, 'invalid_address'],
      [{ address: `${address}00`, turnstileToken: 't' }, 'invalid_address'],
      [{ address }, 'missing_turnstile'],
      [{ address, turnstileToken: '' }, 'missing_turnstile'],
    ] as const) {
      const answer = await send(BASE, body);
      expectError(answer, 400, statusCode);
      expect(answer.json.hint, JSON.stringify(body)).toEqual(expect.any(String));
    }
  });
});

describe('send: refusals', () => {
  it('turnstile_failed (403) with details, and a solved token is used once', async () => {
    const address = await seasoned();
    const forged = await send(BASE, { address, turnstileToken: 'forged-token' });
    expectError(forged, 403, 'turnstile_failed');
    expect(forged.json.details).toBe('invalid-input-response');
    const token = siteverify.issueToken();
    expect((await send(BASE, { address, turnstileToken: token })).status).toBe(200);
    const replay = await send(BASE, { address: await seasoned(), turnstileToken: token });
    expectError(replay, 403, 'turnstile_failed');
    expect(replay.json.details).toBe('timeout-or-duplicate');
  });

  it('turnstile_unavailable (503, retryable) when siteverify gives no answer, retried once: the caller is not at fault, and its address is not held', async () => {
    const address = await seasoned();
    siteverify.failNext(2);
    const unavailable = await send(BASE, { address, turnstileToken: siteverify.issueToken() });
    expectError(unavailable, 503, 'turnstile_unavailable');
    expect(unavailable.json.error).toBe('The CAPTCHA could not be checked: the verification service did not answer.');
    expect(unavailable.json.message).toMatch(/not a problem with your request or your token; try again in a moment/);
    expect(unavailable.json).not.toHaveProperty('details');
    // Nothing was reserved: the same address is served at once.
    expect((await send(BASE, { address, turnstileToken: siteverify.issueToken() })).status).toBe(200);
  });

  it('insufficient_mainnet_balance (403), then insufficient_mainnet_activity (403), then served', async () => {
    const address = randomAddress();
    expectError(await drip(address), 403, 'insufficient_mainnet_balance');
    await mainnet.setBalance(address, parseEther('0.001'));
    expectError(await drip(address), 403, 'insufficient_mainnet_activity');
    await mainnet.client.setNonce({ address, nonce: 1 });
    expect((await drip(address)).status).toBe(200);
  });

  it('max_balance_exceeded (403) for a recipient above the cap', async () => {
    const address = await seasoned();
    await chain.setBalance(address, parseEther('1') + 1n);
    expectError(await drip(address), 403, 'max_balance_exceeded');
  });

  it('rate_limit_exceeded (429) for a second drip to one address, with resetAt one window after the first', async () => {
    const address = await seasoned();
    const before = Date.now();
    expect((await drip(address)).status).toBe(200);
    const after = Date.now();
    const again = await drip(address.toLowerCase());
    expectError(again, 429, 'rate_limit_exceeded');
    const resetAt = Date.parse(String(again.json.resetAt));
    expect(resetAt).toBeGreaterThanOrEqual(before + 24 * 3_600_000);
    expect(resetAt).toBeLessThanOrEqual(after + 24 * 3_600_000);
  });

  it('rate_limit_exceeded (429) for one client IP past its drips on a network', async () => {
    const ip = '192.0.2.77';
    for (let i = 0; i < PER_IP_MAX; i++) expect((await drip(await seasoned(), { ip })).status).toBe(200);
    const over = await drip(await seasoned(), { ip });
    expectError(over, 429, 'rate_limit_exceeded');
    expect(Date.parse(String(over.json.resetAt))).toBeGreaterThan(Date.now());
    // It says which limit it is: the client's network, not the address (which has had nothing).
    expect(over.json.error).toMatch(/too many drips from your network/i);
    expect((await drip(await seasoned(), { ip: '192.0.2.78' })).status).toBe(200);
  });

  it('counts every address of an IPv6 /64 as one client, with ports in X-Forwarded-For', async () => {
    const sameNetwork = ['[2001:db8:7:1::1]:443', '2001:db8:7:1::2', '[2001:db8:7:1:ffff::3]:80'];
    for (const ip of sameNetwork) expect((await drip(await seasoned(), { ip })).status).toBe(200);
    const over = await drip(await seasoned(), { ip: '[2001:db8:7:1::99]:4711' });
    expectError(over, 429, 'rate_limit_exceeded');
    expect(over.json.error).toMatch(/from your network/);
    // The next /64, and an IPv4 client written with a port, are clients of their own.
    expect((await drip(await seasoned(), { ip: '2001:db8:7:2::1' })).status).toBe(200);
    expect((await drip(await seasoned(), { ip: '203.0.113.201:4711' })).status).toBe(200);
  });

  it('counts requests whose client is unknown against one shared bucket', async () => {
    // TRUST_PROXY=1 with no (or an unparseable) X-Forwarded-For entry: the client is unknown.
    const unknown = ['', 'not-an-address', '', 'garbage:port'];
    for (const ip of unknown.slice(0, PER_IP_MAX)) expect((await drip(await seasoned(), { ip })).status).toBe(200);
    const over = await drip(await seasoned(), { ip: unknown[PER_IP_MAX]! });
    expectError(over, 429, 'rate_limit_exceeded');
    expect(over.json.error).toMatch(/from your network/);
  });

  it('says the address is the limit when it is', async () => {
    const address = await seasoned();
    expect((await drip(address)).status).toBe(200);
    const again = await drip(address);
    expectError(again, 429, 'rate_limit_exceeded');
    expect(again.json.error).toMatch(/this address/i);
    expect(again.json.error).not.toMatch(/from your network/);
  });
});

describe('send: the faucet wallet (503)', () => {
  it('insufficient_faucet_balance when the wallet cannot cover drip and fee', async () => {
    const balance = await chain.client.getBalance({ address: FAUCET_ADDRESS });
    try {
      await chain.setBalance(FAUCET_ADDRESS, DRIP);
      // The faucet reads its wallet's balance once per fee period (1 s), not per drip: a drip decided on
      // the balance from before it was lowered is refused by the node for funds, which drops that read,
      // so the drip after it is decided on the lowered balance, whatever the clock.
      let answer = await drip(await seasoned());
      if (answer.json.statusCode === 'insufficient_faucet_balance_tx') answer = await drip(await seasoned());
      expectError(answer, 503, 'insufficient_faucet_balance');
      expect(answer.json.hint).toMatch(/different network/);
    } finally {
      await chain.setBalance(FAUCET_ADDRESS, balance);
    }
  });

  it.each(['syndicate-risa', 'starknet-sepolia'])(
    'insufficient_faucet_balance for deprecated %s, naming the deprecation and a funded network',
    async (faucetId) => {
      // Answered before the CAPTCHA: even a forged token gets the deprecation, and no token is spent.
      const before = siteverify.requests.length;
      const answer = await send(faucetId, { address: randomAddress(), turnstileToken: 'forged-token' });
      expectError(answer, 503, 'insufficient_faucet_balance');
      expect(answer.json.message).toMatch(/deprecated and no longer funded/);
      expect(answer.json.hint).toBe('Request from a funded network instead, such as Ethereum Sepolia (ethereum-sepolia).');
      expect(siteverify.requests.length).toBe(before);
    },
  );

  it('insufficient_faucet_balance_tx when the node refuses the broadcast for funds', async () => {
    const balance = await chain.client.getBalance({ address: FAUCET_ADDRESS });
    // The wallet passes the check, then is emptied on the real node just before the broadcast.
    intercept = async (call) => {
      if (call.method === 'eth_sendRawTransaction') await chain.setBalance(FAUCET_ADDRESS, 0n);
      return undefined;
    };
    try {
      expectError(await drip(await seasoned()), 503, 'insufficient_faucet_balance_tx');
    } finally {
      intercept = undefined;
      await chain.setBalance(FAUCET_ADDRESS, balance);
    }
  });
});

describe('send: broadcast failures', () => {
  it('nonce_conflict (409) when the same key takes every nonce the faucet tries, then the address is served', async () => {
    intercept = frontRunEveryBroadcast(chain.client, FAUCET_KEY);
    const address = await seasoned();
    const conflict = await drip(address);
    expectError(conflict, 409, 'nonce_conflict');
    expect(conflict.json.message).toMatch(/retry/i);
    intercept = undefined;
    expect((await drip(address)).status).toBe(200);
  });

  it('faucet_request_failed (500, retryable) when the node refuses the broadcast, then the address is served', async () => {
    // The node refuses any transfer while a block holds less gas than one.
    intercept = async (call) => {
      if (call.method === 'eth_sendRawTransaction') await holdBlockGasLimit(chain.client, 20_000n);
      return undefined;
    };
    const address = await seasoned();
    try {
      const failed = await drip(address);
      expectError(failed, 500, 'faucet_request_failed');
      expect(failed.json.message).toMatch(/retryable/i);
    } finally {
      intercept = undefined;
      await holdBlockGasLimit(chain.client, 30_000_000n);
    }
    expect((await drip(address)).status).toBe(200);
  });

  it('faucet_request_failed (500) when the broadcast is lost: the answer names the hash and the address stays held', async () => {
    intercept = async (call) => (call.method === 'eth_sendRawTransaction' ? 'drop' : undefined);
    const address = await seasoned();
    const lost = await drip(address);
    expectError(lost, 500, 'faucet_request_failed');
    expect(lost.json.message).toMatch(/0x[0-9a-f]{64}.*may still be mined/);
    intercept = undefined;
    expectError(await drip(address), 429, 'rate_limit_exceeded');
  });
});

describe('status (docs/website.md#faucet-status)', () => {
  it('goes from pending to success with mined: true', async () => {
    // Hold interval mining so the first answer is pending for certain, then let blocks resume.
    await chain.client.setIntervalMining({ interval: 0 });
    let hash: string;
    try {
      const sent = await drip(await seasoned());
      expect(sent.status).toBe(200);
      hash = String(sent.json.transactionHash);
      const pending = await status(BASE, hash);
      expect(pending.status).toBe(200);
      expect(pending.json).toEqual({ status: 'pending', success: true, transactionHash: hash, chainId: 84532, chainName: 'Base Sepolia' });
    } finally {
      await chain.client.setIntervalMining({ interval: 1 });
    }
    const answers = await pollUntilMined(BASE, hash);
    expect(answers.at(-1)!.status).toBe(200);
    expect(answers.at(-1)!.json).toEqual({
      status: 'success',
      mined: true,
      transactionHash: hash,
      chainId: 84532,
      chainName: 'Base Sepolia',
      explorerUrl: `https://sepolia.basescan.org/tx/${hash}`,
    });
  });

  it('answers failed with mined: true for a transaction that reverted', async () => {
    // Init code returning the runtime PUSH0 PUSH0 REVERT: every call to it reverts.
    const thirdParty = privateKeyToAccount(THIRD_PARTY_KEY);
    const deploy = await chain.client.sendTransaction({ account: thirdParty, chain: null, data: '0x60038060093d393df35f5ffd' });
    const { contractAddress } = await chain.client.waitForTransactionReceipt({ hash: deploy, pollingInterval: 200 });
    const hash = await chain.client.sendTransaction({ account: thirdParty, chain: null, to: contractAddress!, gas: 50_000n });
    const answers = await pollUntilMined(BASE, hash);
    expect(answers.at(-1)!.json).toMatchObject({ status: 'failed', mined: true, transactionHash: hash, chainId: 84532 });
  });

  it('limits polls per client that reach the node, and answers a mined hash from its cache', async () => {
    const ip = '198.51.100.200';
    const unseen = `0x${'5e'.repeat(32)}`;
    const burst = Math.ceil(STATUS_POLLS_PER_MINUTE / 4);
    // Polls until one is refused: the bucket starts full, and refills one poll per 60/8 s the polls took.
    const started = Date.now();
    const served: number[] = [];
    let limited = await status(BASE, unseen, { ip });
    while (limited.status === 200 && served.length < 20) {
      served.push(limited.status);
      limited = await status(BASE, unseen, { ip });
    }
    expect(served.length).toBeGreaterThanOrEqual(burst);
    expect(served.length).toBeLessThanOrEqual(burst + Math.floor(((Date.now() - started) * STATUS_POLLS_PER_MINUTE) / 60_000));
    expectError(limited, 429, 'rate_limit_exceeded');
    expect(limited.json.error).toMatch(/status requests/);
    expect(Date.parse(String(limited.json.resetAt))).toBeGreaterThan(Date.now());
    // Another client is not affected.
    expect((await status(BASE, unseen, { ip: '198.51.100.201' })).status).toBe(200);

    // Once mined, the answer is final: further polls never reach the node (nor the limit).
    const sent = await drip(await seasoned());
    const hash = String(sent.json.transactionHash);
    expect((await pollUntilMined(BASE, hash)).at(-1)!.json.status).toBe('success');
    const receiptCalls: string[] = [];
    intercept = async (call) => {
      if (call.method === 'eth_getTransactionReceipt') receiptCalls.push(String(call.params[0]));
      return undefined;
    };
    for (let i = 0; i < burst + 3; i++) {
      const answer = await status(BASE, hash, { ip });
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ status: 'success', mined: true, transactionHash: hash });
    }
    expect(receiptCalls).toEqual([]);
  });

  it('answers pending for a hash the node has never seen', async () => {
    const answer = await status(BASE, `0x${'ab'.repeat(32)}`);
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ status: 'pending', success: true });
  });

  it('answers 400 for a missing or malformed hash and for an unknown faucet id', async () => {
    expectError(await api('GET', `/api/faucets/${BASE}/status`), 400, 'invalid_transaction_hash');
    expectError(await status(BASE, '0xabc'), 400, 'invalid_transaction_hash');
    expectError(await status(BASE, `0x${'ab'.repeat(32)}00`), 400, 'invalid_transaction_hash');
    const unknown = await status('solana-devnet', `0x${'ab'.repeat(32)}`);
    expectError(unknown, 400, 'unsupported_faucet');
    expect(unknown.json.supportedChains).toHaveLength(23);
  });

  it('answers 500 when the status check itself fails', async () => {
    intercept = async (call) => (call.method === 'eth_getTransactionReceipt' ? 'drop' : undefined);
    expectError(await status(BASE, `0x${'cd'.repeat(32)}`), 500, 'status_check_failed');
    intercept = undefined;
    // A network with no endpoint at all (Starknet is not EVM JSON-RPC).
    const starknet = await status('starknet-sepolia', `0x${'cd'.repeat(32)}`);
    expectError(starknet, 500, 'status_check_failed');
    expect(starknet.json.message).toMatch(/no RPC endpoint/);
  });
});

describe('local devnet (embedded default)', () => {
  it('drips on the anvil the server starts for a network without an RPC URL, without an explorer link', async () => {
    const address = await seasoned();
    const sent = await drip(address, { faucetId: 'crucible-testnet' });
    expect(sent.status).toBe(200);
    expect(sent.json).toEqual({
      success: true,
      transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      amount: '0.1',
      recipient: address,
      statusCode: 'success',
    });
    const answers = await pollUntilMined('crucible-testnet', String(sent.json.transactionHash));
    expect(answers.at(-1)!.json).toEqual({
      status: 'success',
      mined: true,
      transactionHash: sent.json.transactionHash,
      chainId: 7357001,
      chainName: 'Crucible Testnet',
    });
  });
});

describe('coverage of the error tables', () => {
  it('saw every statusCode of docs/website.md#faucet-error-codes over HTTP, each with its HTTP status', () => {
    expect(Object.fromEntries(seen.send)).toEqual(sendStatuses);
    expect(Object.fromEntries(seen.status)).toEqual(statusStatuses);
  });
});
