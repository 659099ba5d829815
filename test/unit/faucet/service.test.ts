import { ExecutionRevertedError, InsufficientFundsError, parseEther, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import type { FaucetSendCode, RateLimitKind } from '../../../src/faucet/errors.ts';
import { ipBucketOf } from '../../../src/http/ip-bucket.ts';
import type { FaucetSendInput } from '../../../src/faucet/service.ts';
import { SOLVED_TOKEN, testFaucet, testNetwork, type TestFaucet } from '../../support/faucet-fakes.ts';

// The decision chain of src/faucet/service.ts over in-memory fakes, rule by rule, in the order
// src/faucet/README.md documents them. Each section below is one of its headings.

const DAY = 24 * 3_600_000;
const ADDRESS = '0x71C7656EC7ab88b098defB751B7401B5f6d8976F';
const IP = '198.51.100.7';

const funded = testNetwork('alpha-testnet');
const flagship = testNetwork('beta-sepolia', { suggestForDeprecated: true });
const retired = testNetwork('gamma-retired', { deprecated: true });
const networks = [funded, flagship, retired];

const request = (overrides: Partial<FaucetSendInput> = {}): FaucetSendInput => ({
  faucetId: funded.id,
  address: ADDRESS,
  turnstileToken: SOLVED_TOKEN,
  ip: IP,
  ...overrides,
});
const hashOf = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as Hex;
const ipKeyOf = (ip: string | null) => `hashed:${ipBucketOf(ip, 64)}`;
/** The bookkeeping after a drip's answer is not awaited by the send. */
const bookkeepingDone = () => new Promise((resolve) => setImmediate(resolve));

interface Rule {
  rule: string;
  code: FaucetSendCode;
  limit?: RateLimitKind;
  message?: RegExp;
  /** What the rule asks of the fakes; a rule that refuses asks nothing a later rule asks. */
  asks?: string;
  /** Makes the request fail this rule (and, applied after the later rules' breaks, fail it first). */
  breaks(input: FaucetSendInput, h: TestFaucet): void | Promise<void>;
}

/** README.md, "Order": each rule with a way to break it. */
const order: Rule[] = [
  { rule: 'unknown id', code: 'unsupported_faucet', breaks: (input) => void (input.faucetId = 'no-such-network') },
  { rule: 'malformed address', code: 'invalid_address', breaks: (input) => void (input.address = '0x1234') },
  { rule: 'deprecated network', code: 'insufficient_faucet_balance', message: /deprecated/, breaks: (input) => void (input.faucetId = retired.id) },
  { rule: 'CAPTCHA', code: 'turnstile_failed', asks: 'captcha.verify', breaks: (input) => void (input.turnstileToken = 'made-up') },
  {
    rule: 'per-address limit',
    code: 'rate_limit_exceeded',
    limit: 'address',
    asks: 'store.reserveAddress',
    breaks: async (input, h) => void (await h.store.reserveAddress({ networkId: input.faucetId, address: input.address, windowMs: DAY, now: h.clock.now() })),
  },
  {
    rule: 'per-IP limit',
    code: 'rate_limit_exceeded',
    limit: 'network',
    asks: 'store.takeIpSlot',
    breaks: async (input, h) =>
      void (await h.store.takeIpSlot({ networkId: input.faucetId, ipHash: ipKeyOf(input.ip), max: 1, windowMs: DAY, now: h.clock.now() })),
  },
  { rule: 'anti-sybil balance', code: 'insufficient_mainnet_balance', asks: 'mainnet.getBalance', breaks: (_, h) => void (h.mainnet.balance = 0n) },
  {
    rule: 'anti-sybil activity',
    code: 'insufficient_mainnet_activity',
    asks: 'mainnet.getTransactionCount',
    breaks: (_, h) => void (h.mainnet.transactionCount = 0),
  },
  { rule: 'chain', code: 'insufficient_faucet_balance', message: /not served/, asks: 'chains.get', breaks: (input, h) => void h.unserved.add(input.faucetId) },
  {
    rule: 'recipient cap',
    code: 'max_balance_exceeded',
    asks: 'chain.prepareTransfer',
    breaks: (input, h) => void (h.chains[input.faucetId]!.recipientBalance = parseEther('2')),
  },
  { rule: 'gas cap', code: 'invalid_address', message: /within 100000 gas/, breaks: (input, h) => void (h.chains[input.faucetId]!.gas = 100_001n) },
  {
    rule: 'wallet balance against drip + gas × max fee',
    code: 'insufficient_faucet_balance',
    breaks: (input, h) => void (h.chains[input.faucetId]!.walletBalance = funded.dripWei),
  },
  {
    rule: 'broadcast',
    code: 'insufficient_faucet_balance_tx',
    asks: 'chain.transfer',
    breaks: (input, h) => void (h.chains[input.faucetId]!.broadcastAnswer = 'insufficient_funds'),
  },
];

describe('Order', () => {
  it.each(order.map((rule, index) => [rule.rule, index] as const))('%s answers before every later rule is asked', async (_, index) => {
    const rule = order[index]!;
    const h = testFaucet(networks, { perIpLimit: { max: 1, windowMs: DAY } });
    const input = request();
    // This rule and every later one broken; the later ones first, so that this one has the last word.
    for (const later of order.slice(index).reverse()) await later.breaks(input, h);

    const result = await h.faucet.send(input);

    expect(result).toMatchObject({ ok: false, statusCode: rule.code, ...(rule.limit ? { limit: rule.limit } : {}) });
    if (rule.message) expect(!result.ok && result.message).toMatch(rule.message);
    const laterAsks = order.slice(index + 1).flatMap((later) => (later.asks && later.asks !== rule.asks ? [later.asks] : []));
    for (const asked of laterAsks) expect(h.journal, `${rule.rule} asked ${asked}`).not.toContain(asked);
  });

  it('sends the drip when every rule passes, asking each in that order', async () => {
    const h = testFaucet(networks);
    const result = await h.faucet.send(request());

    expect(result).toEqual({
      ok: true,
      body: {
        success: true,
        transactionHash: hashOf(1),
        amount: '0.1',
        recipient: ADDRESS,
        explorerUrl: `${funded.explorer}/tx/${hashOf(1)}`,
        statusCode: 'success',
      },
    });
    const asked = order.flatMap((rule) => (rule.asks ? [rule.asks] : []));
    expect(h.journal.filter((call) => asked.includes(call))).toEqual(asked);
  });

  it('names the network marked suggestForDeprecated to callers of a deprecated one, before the CAPTCHA is spent', async () => {
    const h = testFaucet(networks);
    expect(await h.faucet.send(request({ faucetId: retired.id }))).toMatchObject({
      ok: false,
      statusCode: 'insufficient_faucet_balance',
      message: 'Gamma Retired is deprecated and no longer funded.',
      hint: 'Request from a funded network instead, such as Beta Sepolia (beta-sepolia).',
    });
    expect(h.journal).toEqual([]);
  });
});

describe('Reservation and write-ahead', () => {
  it('makes the hash on the reservation and a pending ledger row durable before the broadcast', async () => {
    const h = testFaucet(networks);
    const chain = h.chains[funded.id]!;
    const transfer = chain.transfer;
    let atBroadcast: unknown;
    chain.transfer = async (to, value, quote, beforeBroadcast) =>
      transfer(to, value, quote, async (signed) => {
        await beforeBroadcast?.(signed);
        atBroadcast = structuredClone({ reservation: h.store.reservationOf(funded.id, ADDRESS), ledger: await h.store.listDrips() });
      });

    await h.faucet.send(request());

    expect(atBroadcast).toMatchObject({
      reservation: { state: 'reserved', txHash: hashOf(1) },
      ledger: [{ networkId: funded.id, address: ADDRESS.toLowerCase(), txHash: hashOf(1), ipHash: ipKeyOf(IP), outcome: 'pending' }],
    });
    await bookkeepingDone();
    expect(h.store.reservationOf(funded.id, ADDRESS)).toMatchObject({ state: 'confirmed' });
    expect(await h.store.listDrips()).toMatchObject([{ txHash: hashOf(1), outcome: 'sent' }]);
  });

  it('hands the reservation and the IP slot back after a refusal, so the caller may retry at once', async () => {
    const h = testFaucet(networks, { perIpLimit: { max: 1, windowMs: DAY } });
    h.chains[funded.id]!.walletBalance = 0n;
    expect(await h.faucet.send(request())).toMatchObject({ ok: false, statusCode: 'insufficient_faucet_balance' });
    h.chains[funded.id]!.walletBalance = parseEther('100');
    expect(await h.faucet.send(request())).toMatchObject({ ok: true });
  });

  it.each([
    ['failed', 'faucet_request_failed'],
    ['nonce_conflict', 'nonce_conflict'],
    ['insufficient_funds', 'insufficient_faucet_balance_tx'],
  ] as const)('hands the reservation back when the node refuses the broadcast (%s), and records the row failed', async (answer, code) => {
    const h = testFaucet(networks);
    h.chains[funded.id]!.broadcastAnswer = answer;
    expect(await h.faucet.send(request())).toMatchObject({ ok: false, statusCode: code });
    expect(await h.store.listDrips()).toMatchObject([{ txHash: hashOf(1), outcome: 'failed', statusCode: code }]);
    expect(h.store.reservationOf(funded.id, ADDRESS)).toBeUndefined();
  });

  it('records a send that failed before anything was signed without a hash', async () => {
    const h = testFaucet(networks);
    h.chains[funded.id]!.broadcastAnswer = 'refused-before-signing';
    expect(await h.faucet.send(request())).toMatchObject({ ok: false, statusCode: 'faucet_request_failed' });
    expect(await h.store.listDrips()).toMatchObject([{ txHash: null, outcome: 'failed', statusCode: 'faucet_request_failed' }]);
  });

  it('runs the window from the broadcast, not from the request', async () => {
    const h = testFaucet(networks);
    const chain = h.chains[funded.id]!;
    const transfer = chain.transfer;
    // The broadcast happens a minute after the reservation was made.
    chain.transfer = async (...args) => {
      h.clock.advance(60_000);
      return transfer(...args);
    };
    const broadcastAt = h.clock.now().getTime() + 60_000;
    await h.faucet.send(request());
    await bookkeepingDone();
    expect(await h.faucet.send(request())).toMatchObject({ ok: false, statusCode: 'rate_limit_exceeded', resetAt: new Date(broadcastAt + DAY).toISOString() });
  });
});

describe('Unknown outcomes', () => {
  it('keeps the reservation, the IP slot and the pending row of a broadcast nobody answered, and names its hash', async () => {
    const h = testFaucet(networks, { perIpLimit: { max: 1, windowMs: DAY } });
    h.chains[funded.id]!.broadcastAnswer = 'unknown';

    const result = await h.faucet.send(request());

    expect(result).toMatchObject({ ok: false, statusCode: 'faucet_request_failed', message: expect.stringContaining(hashOf(1)) });
    expect(!result.ok && result.message).toMatch(/Poll the status/);
    expect(h.store.reservationOf(funded.id, ADDRESS)).toMatchObject({ state: 'reserved', txHash: hashOf(1) });
    expect(await h.store.listDrips()).toMatchObject([{ txHash: hashOf(1), outcome: 'pending' }]);
    h.chains[funded.id]!.broadcastAnswer = 'taken';
    expect(await h.faucet.send(request())).toMatchObject({ statusCode: 'rate_limit_exceeded', limit: 'address' });
    expect(await h.faucet.send(request({ address: '0x000000000000000000000000000000000000bEEF' }))).toMatchObject({
      statusCode: 'rate_limit_exceeded',
      limit: 'network',
    });
  });
});

describe('Reconcile', () => {
  const SETTLE_AFTER = 120_000;
  /** The write-ahead ledger row of a drip signed for `address` as `hash`. */
  const pendingDrip = (h: TestFaucet, address: string, hash: Hex) => ({
    networkId: funded.id,
    address,
    amountWei: funded.dripWei,
    txHash: hash,
    ipHash: null,
    createdAt: h.clock.now(),
    outcome: 'pending' as const,
    statusCode: null,
  });
  /** What a crash leaves: a reservation, and with a signed hash its write-ahead records. */
  async function leftover(h: TestFaucet, address: string, hash: Hex | null) {
    const reserved = await h.store.reserveAddress({ networkId: funded.id, address, windowMs: DAY, now: h.clock.now() });
    if (!reserved.ok) throw new Error('address already reserved');
    if (hash) {
      await h.store.recordBroadcast(reserved.reservation, hash);
      await h.store.recordDrip(pendingDrip(h, address, hash));
    }
  }
  const addresses = ['0x00000000000000000000000000000000000000a1', '0x00000000000000000000000000000000000000a2', '0x00000000000000000000000000000000000000a3'];

  it('settles from the chain what was left unsettled for settleAfterMs: unsigned released, known confirmed, unknown released', async () => {
    const h = testFaucet(networks, { settleAfterMs: SETTLE_AFTER });
    await leftover(h, addresses[0]!, null);
    await leftover(h, addresses[1]!, hashOf(0xa2));
    await leftover(h, addresses[2]!, hashOf(0xa3));
    h.chains[funded.id]!.known.add(hashOf(0xa2));
    h.clock.advance(SETTLE_AFTER);

    expect(await h.faucet.reconcile()).toBe(3);

    expect(h.store.reservationOf(funded.id, addresses[0]!)).toBeUndefined();
    expect(h.store.reservationOf(funded.id, addresses[1]!)).toMatchObject({ state: 'confirmed' });
    expect(h.store.reservationOf(funded.id, addresses[2]!)).toBeUndefined();
    expect(await h.store.listDrips()).toMatchObject([
      { txHash: hashOf(0xa2), outcome: 'sent' },
      { txHash: hashOf(0xa3), outcome: 'failed', statusCode: 'faucet_request_failed' },
    ]);
  });

  it('leaves what is younger than settleAfterMs, what a sender still holds, and what the node cannot be asked about', async () => {
    const h = testFaucet(networks, { settleAfterMs: SETTLE_AFTER });
    await leftover(h, addresses[0]!, hashOf(0xa1));
    await leftover(h, addresses[1]!, hashOf(0xa2));
    h.chains[funded.id]!.inFlight.add(hashOf(0xa1));
    h.clock.advance(SETTLE_AFTER - 1);
    expect(await h.faucet.reconcile()).toBe(0);

    h.clock.advance(1);
    h.chains[funded.id]!.reachable = false;
    expect(await h.faucet.reconcile()).toBe(0);
    expect(h.loggedErrors).toEqual([`settling the reservation of ${addresses[1]} on ${funded.id} failed`]);
    expect(await h.store.listDrips()).toMatchObject([{ outcome: 'pending' }, { outcome: 'pending' }]);
  });

  it('settles this ledger’s pending rows whose reservation another process settled', async () => {
    const h = testFaucet(networks, { settleAfterMs: SETTLE_AFTER });
    for (const [i, hash] of [hashOf(0xb1), hashOf(0xb2)].entries()) {
      await h.store.recordDrip(pendingDrip(h, addresses[i]!, hash));
    }
    h.chains[funded.id]!.known.add(hashOf(0xb1));
    h.clock.advance(SETTLE_AFTER);

    expect(await h.faucet.reconcile()).toBe(0);
    expect(await h.store.listDrips()).toMatchObject([{ outcome: 'sent' }, { outcome: 'failed', statusCode: 'faucet_request_failed' }]);
  });
});

describe('Gas per drip', () => {
  it('refuses a recipient that needs more than maxDripGas, saying why, before anything is signed', async () => {
    const h = testFaucet(networks);
    h.chains[funded.id]!.gas = funded.maxDripGas + 1n;
    expect(await h.faucet.send(request())).toMatchObject({
      ok: false,
      statusCode: 'invalid_address',
      message: 'The recipient does not accept a plain transfer within 100000 gas on Alpha Testnet.',
      hint: expect.stringMatching(/externally owned account/),
    });
    h.chains[funded.id]!.gas = funded.maxDripGas;
    expect(await h.faucet.send(request())).toMatchObject({ ok: true });
    expect(h.journal.filter((call) => call === 'chain.transfer')).toHaveLength(1);
  });

  it('refuses a recipient whose code reverts the estimate, and answers a wallet the estimate says cannot pay', async () => {
    const h = testFaucet(networks);
    h.chains[funded.id]!.prepareError = new ExecutionRevertedError({ message: 'execution reverted' });
    expect(await h.faucet.send(request())).toMatchObject({ ok: false, statusCode: 'invalid_address', message: expect.stringMatching(/does not accept/) });
    h.chains[funded.id]!.prepareError = new InsufficientFundsError();
    expect(await h.faucet.send(request())).toMatchObject({ ok: false, statusCode: 'insufficient_faucet_balance' });
    expect(h.journal).not.toContain('chain.transfer');
  });
});

describe('Per-IP limit', () => {
  it('counts the drips of a client per network in a fixed window, with its own sentence and resetAt', async () => {
    const h = testFaucet(networks, { perIpLimit: { max: 2, windowMs: DAY } });
    const start = h.clock.now().getTime();
    const addresses = Array.from({ length: 4 }, (_, i) => `0x${(0xc1 + i).toString(16).padStart(40, '0')}`);
    expect(await h.faucet.send(request({ address: addresses[0] }))).toMatchObject({ ok: true });
    expect(await h.faucet.send(request({ address: addresses[1] }))).toMatchObject({ ok: true });
    expect(await h.faucet.send(request({ address: addresses[2] }))).toMatchObject({
      ok: false,
      statusCode: 'rate_limit_exceeded',
      limit: 'network',
      resetAt: new Date(start + DAY).toISOString(),
    });
    // Another network counts on its own; the window ends when it ends.
    expect(await h.faucet.send(request({ address: addresses[2], faucetId: flagship.id }))).toMatchObject({ ok: true });
    h.clock.advance(DAY);
    expect(await h.faucet.send(request({ address: addresses[3] }))).toMatchObject({ ok: true });
  });

  it('counts an IPv6 /64 as one client and unknown clients as one, storing no hash for an unknown one', async () => {
    const h = testFaucet(networks, { perIpLimit: { max: 1, windowMs: DAY } });
    const [a, b, c, d] = [
      '0x00000000000000000000000000000000000000d1',
      '0x00000000000000000000000000000000000000d2',
      '0x00000000000000000000000000000000000000d3',
      '0x00000000000000000000000000000000000000d4',
    ];
    expect(await h.faucet.send(request({ address: a, ip: '2001:db8:0:1::1' }))).toMatchObject({ ok: true });
    expect(await h.faucet.send(request({ address: b, ip: '2001:db8:0:1:ffff::2' }))).toMatchObject({ statusCode: 'rate_limit_exceeded', limit: 'network' });
    expect(await h.faucet.send(request({ address: c, ip: null }))).toMatchObject({ ok: true });
    expect(await h.faucet.send(request({ address: d, ip: 'not-an-ip' }))).toMatchObject({ statusCode: 'rate_limit_exceeded', limit: 'network' });
    expect((await h.store.listDrips()).map((drip) => drip.ipHash)).toEqual([ipKeyOf('2001:db8:0:1::1'), null]);
  });
});

describe('Status polls', () => {
  const status = (h: TestFaucet, transactionHash: string, ip: string | null = IP) => h.faucet.status({ faucetId: funded.id, transactionHash, ip });

  it('asks the node until the answer is final, then answers from memory', async () => {
    const h = testFaucet(networks);
    const hash = hashOf(0xe1);
    const facts = { transactionHash: hash, chainId: funded.chainId, chainName: 'Alpha Testnet' };
    expect(await status(h, hash)).toEqual({ ok: true, body: { status: 'pending', success: true, ...facts } });
    h.chains[funded.id]!.receipts.set(hash, 'reverted');
    const final = { ok: true, body: { status: 'failed', mined: true, ...facts, explorerUrl: `${funded.explorer}/tx/${hash}` } };
    expect(await status(h, hash.toUpperCase().replace('0X', '0x'))).toEqual(final);
    h.chains[funded.id]!.reachable = false;
    expect(await status(h, hash)).toEqual(final);
    expect(h.journal.filter((call) => call === 'chain.receiptStatus')).toHaveLength(2);
  });

  it('limits the questions a client bucket puts to the node, never the final answers', async () => {
    const h = testFaucet(networks, { statusPollLimit: { perMinute: 60, burst: 2 } });
    const [pending, mined] = [hashOf(0xe2), hashOf(0xe3)];
    h.chains[funded.id]!.receipts.set(mined, 'success');
    expect(await status(h, mined)).toMatchObject({ ok: true });
    expect(await status(h, pending)).toMatchObject({ ok: true });
    expect(await status(h, pending)).toMatchObject({
      ok: false,
      statusCode: 'rate_limit_exceeded',
      limit: 'polls',
      resetAt: new Date(h.clock.now().getTime() + 1_000).toISOString(),
    });
    expect(await status(h, mined)).toMatchObject({ ok: true, body: { status: 'success' } });
    expect(await status(h, pending, '198.51.100.8')).toMatchObject({ ok: true });
  });

  it('answers a drip this faucet replaced with its replacement', async () => {
    const h = testFaucet(networks);
    const [dropped, replacement] = [hashOf(0xf1), hashOf(0xf2)];
    await h.store.recordDrip({
      networkId: funded.id,
      address: ADDRESS,
      amountWei: funded.dripWei,
      txHash: dropped,
      ipHash: null,
      createdAt: h.clock.now(),
      outcome: 'sent',
      statusCode: null,
    });
    await h.store.replaceDrip(dropped, replacement);
    h.chains[funded.id]!.receipts.set(replacement, 'success');
    expect(await status(h, dropped)).toMatchObject({ ok: true, body: { status: 'success', transactionHash: replacement } });
  });

  it('refuses an unknown id and a malformed hash, and says when no node can be asked', async () => {
    const h = testFaucet(networks);
    expect(await h.faucet.status({ faucetId: 'no-such-network', transactionHash: hashOf(1), ip: IP })).toMatchObject({
      statusCode: 'unsupported_faucet',
      supportedChains: networks.map((n) => n.id),
    });
    expect(await status(h, '0x1234')).toMatchObject({ statusCode: 'invalid_transaction_hash' });
    h.unserved.add(funded.id);
    expect(await status(h, hashOf(1))).toMatchObject({
      statusCode: 'status_check_failed',
      message: 'Alpha Testnet has no RPC endpoint here, so its transactions cannot be looked up.',
    });
    h.unserved.clear();
    h.chains[funded.id]!.reachable = false;
    expect(await status(h, hashOf(1))).toMatchObject({ statusCode: 'status_check_failed', cause: expect.any(Error) });
  });
});
