import { existsSync, readFileSync } from 'node:fs';
import { getAddress, parseEther, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEV_TURNSTILE_TOKEN } from '../../../src/faucet/captcha.ts';
import { startFaucetRuntime, type FaucetRuntime } from '../../../src/runtime/faucet.ts';
import { FAUCET_KEY, frontRunEveryBroadcast, holdBlockGasLimit, randomAddress, THIRD_PARTY_KEY } from '../../support/anvil.ts';
import { FAUCET_ADDRESS, HARNESS_TURNSTILE_ACTION, HARNESS_TURNSTILE_HOSTNAME, startHarness, type Harness } from './harness.ts';

// Every statusCode of docs/website.md#faucet-error-codes the faucet service answers (steps 4–9 and deprecated networks),
// against real anvil chains, a local mainnet anvil for the anti-sybil check, SQLite and the
// local siteverify server. Steps 1–3 are the HTTP layer's.

/** A little over the faucet's fee and balance period (src/chain/faucet-chain.ts, 1 s by default). */
const BASE = 'base-sepolia';
const DRIP = parseEther('0.1');

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ chains: { [BASE]: 84532 }, mainnet: true });
});
afterAll(async () => {
  await h?.stop();
});
afterEach(() => h.intercept(BASE, undefined));

/** A recipient that passes the anti-sybil check. */
async function seasoned(): Promise<Address> {
  const address = randomAddress();
  await h.season(address);
  return address;
}

const faucetBalance = () => h.chains[BASE]!.client.getBalance({ address: FAUCET_ADDRESS });

describe('send: success (docs/website.md#faucet-send)', () => {
  it('drips the network amount and answers hash, amount, recipient and explorer link', async () => {
    const address = await seasoned();
    const result = await h.send(BASE, address.toLowerCase(), '203.0.113.50');
    expect(result).toEqual({
      ok: true,
      body: {
        success: true,
        transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        amount: '0.1',
        recipient: getAddress(address),
        explorerUrl: expect.stringMatching(/^https:\/\/sepolia\.basescan\.org\/tx\/0x[0-9a-f]{64}$/),
        statusCode: 'success',
      },
    });
    if (!result.ok) return;
    expect(result.body.explorerUrl).toBe(`https://sepolia.basescan.org/tx/${result.body.transactionHash}`);
    const receipt = await h.chains[BASE]!.client.waitForTransactionReceipt({ hash: result.body.transactionHash as Hex, pollingInterval: 200 });
    expect(receipt.status).toBe('success');
    expect(await h.chains[BASE]!.client.getBalance({ address })).toBe(DRIP);

    // The row is settled as sent just after the answer, in the background.
    const row = await vi.waitFor(
      async () => {
        const [settled] = await h.store.listDrips({ networkId: BASE, address });
        expect(settled?.outcome).toBe('sent');
        return settled!;
      },
      { timeout: 30_000, interval: 50 },
    );
    expect(row).toMatchObject({ address: address.toLowerCase(), amountWei: DRIP, txHash: result.body.transactionHash, outcome: 'sent', statusCode: null });
    // The ledger keeps a keyed hash of the IP, never the IP.
    expect(row!.ipHash).toMatch(/^[0-9a-f]{64}$/);
    for (const file of [h.databasePath, `${h.databasePath}-wal`]) {
      if (existsSync(file)) expect(readFileSync(file).includes('203.0.113.50')).toBe(false);
    }
  });
});

describe('send: refusals (docs/website.md#faucet-error-codes)', () => {
  it('unsupported_faucet (400) lists the supported chains', async () => {
    const result = await h.send('solana-devnet', randomAddress());
    expect(result).toMatchObject({ ok: false, statusCode: 'unsupported_faucet' });
    expect(!result.ok && result.supportedChains).toHaveLength(23);
    expect(!result.ok && result.supportedChains).toContain('crucible-testnet');
  });

  it('invalid_address (400) for an address the HTTP layer should have stopped', async () => {
    expect(await h.send(BASE, '0x1234')).toMatchObject({ ok: false, statusCode: 'invalid_address' });
  });

  it('turnstile_failed (403) with the siteverify error codes as details, and a token is used once', async () => {
    const address = await seasoned();
    const forged = await h.faucet.send({ faucetId: BASE, address, turnstileToken: 'forged', ip: null });
    expect(forged).toMatchObject({ ok: false, statusCode: 'turnstile_failed', details: 'invalid-input-response' });
    const token = h.siteverify.issueToken();
    expect((await h.faucet.send({ faucetId: BASE, address, turnstileToken: token, ip: null })).ok).toBe(true);
    const replay = await h.faucet.send({ faucetId: BASE, address: await seasoned(), turnstileToken: token, ip: null });
    expect(replay).toMatchObject({ ok: false, statusCode: 'turnstile_failed', details: 'timeout-or-duplicate' });
  });

  it('rate_limit_exceeded (429) for a second drip inside the window, with resetAt', async () => {
    const address = await seasoned();
    const before = Date.now();
    expect((await h.send(BASE, address)).ok).toBe(true);
    const after = Date.now();
    const again = await h.send(BASE, address.toLowerCase(), '198.51.100.77');
    expect(again).toMatchObject({ ok: false, statusCode: 'rate_limit_exceeded' });
    const resetAt = Date.parse(!again.ok ? again.resetAt! : '');
    expect(resetAt).toBeGreaterThanOrEqual(before + 24 * 3_600_000);
    expect(resetAt).toBeLessThanOrEqual(after + 24 * 3_600_000);
  });

  it('insufficient_mainnet_balance (403) before insufficient_mainnet_activity (403)', async () => {
    const address = randomAddress();
    expect(await h.send(BASE, address)).toMatchObject({ ok: false, statusCode: 'insufficient_mainnet_balance' });
    await h.mainnet!.setBalance(address, parseEther('0.001'));
    expect(await h.send(BASE, address)).toMatchObject({ ok: false, statusCode: 'insufficient_mainnet_activity' });
    // A refusal hands the reservation back: once the history exists, the same address is served.
    await h.mainnet!.client.setNonce({ address, nonce: 1 });
    expect((await h.send(BASE, address)).ok).toBe(true);
  });

  it('invalid_address (400) for a recipient whose receive code burns gas, at no cost to the faucet', async () => {
    const chain = h.chains[BASE]!;
    const deploy = async (initCode: Hex) => {
      const hash = await chain.client.sendTransaction({ account: privateKeyToAccount(THIRD_PARTY_KEY), chain: null, data: initCode });
      const { contractAddress } = await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 200 });
      await h.season(contractAddress!);
      return contractAddress!;
    };
    // Runtime: count down from N to 0 (26 gas a round), then accept the value. N = 8192: about
    // 213,000 gas, over the default cap of 100,000; N = 16: a few hundred, like a contract wallet.
    const countdown = (rounds: string): Hex => `0x600d8060093d393df361${rounds}5b600190038060035700`;
    const burner = await deploy(countdown('2000'));
    const cheap = await deploy(countdown('0010'));

    const nonceBefore = await chain.client.getTransactionCount({ address: FAUCET_ADDRESS, blockTag: 'pending' });
    const refused = await h.send(BASE, burner);
    expect(refused).toMatchObject({ ok: false, statusCode: 'invalid_address' });
    expect(!refused.ok && refused.message).toMatch(/within 100000 gas/);
    // Nothing was signed or sent for it, so it cost the faucet nothing.
    expect(await chain.client.getTransactionCount({ address: FAUCET_ADDRESS, blockTag: 'pending' })).toBe(nonceBefore);
    expect(await chain.client.getBalance({ address: burner })).toBe(0n);

    const served = await h.send(BASE, cheap);
    if (!served.ok) throw new Error(`drip to a cheap receiver failed: ${served.statusCode}`);
    const receipt = await chain.client.waitForTransactionReceipt({ hash: served.body.transactionHash as Hex, pollingInterval: 200 });
    expect(receipt.status).toBe('success');
    expect(receipt.gasUsed).toBeGreaterThan(21_000n);
    expect(receipt.gasUsed).toBeLessThanOrEqual(100_000n);
  });

  it('max_balance_exceeded (403) for a recipient already above the cap', async () => {
    const address = await seasoned();
    await h.chains[BASE]!.setBalance(address, parseEther('1') + 1n);
    expect(await h.send(BASE, address)).toMatchObject({ ok: false, statusCode: 'max_balance_exceeded' });
    await h.chains[BASE]!.setBalance(address, parseEther('1'));
    expect((await h.send(BASE, address)).ok).toBe(true);
  });

  it('insufficient_faucet_balance (503) when the wallet cannot cover drip and fee', async () => {
    const balance = await faucetBalance();
    /**
     * The faucet reads its wallet's balance once per fee period (a second), not per drip: a drip
     * decided on the balance from before it was lowered is refused by the node for funds, which
     * drops that read, so the drip after it is decided on the lowered balance, whatever the clock.
     */
    const refusedOnceRead = async () => {
      const first = await h.send(BASE, await seasoned());
      expect(first).toMatchObject({ ok: false, statusCode: expect.stringMatching(/^insufficient_faucet_balance(_tx)?$/) });
      return first.ok === false && first.statusCode === 'insufficient_faucet_balance' ? first : h.send(BASE, await seasoned());
    };
    try {
      await h.chains[BASE]!.setBalance(FAUCET_ADDRESS, DRIP);
      expect(await refusedOnceRead()).toMatchObject({ ok: false, statusCode: 'insufficient_faucet_balance' });
      await h.chains[BASE]!.setBalance(FAUCET_ADDRESS, 0n);
      expect(await refusedOnceRead()).toMatchObject({ ok: false, statusCode: 'insufficient_faucet_balance' });
    } finally {
      await h.chains[BASE]!.setBalance(FAUCET_ADDRESS, balance);
    }
  });

  it('insufficient_faucet_balance_tx (503) when the node refuses the broadcast for funds', async () => {
    const balance = await faucetBalance();
    // The wallet passes the check, then is emptied on the real node just before the broadcast.
    h.intercept(BASE, async (call) => {
      if (call.method === 'eth_sendRawTransaction') await h.chains[BASE]!.setBalance(FAUCET_ADDRESS, 0n);
      return undefined;
    });
    const address = await seasoned();
    try {
      expect(await h.send(BASE, address)).toMatchObject({ ok: false, statusCode: 'insufficient_faucet_balance_tx' });
    } finally {
      await h.chains[BASE]!.setBalance(FAUCET_ADDRESS, balance);
    }
    // The signed transaction the node refused is on record, settled as failed.
    expect(await h.store.listDrips({ address })).toMatchObject([
      { outcome: 'failed', txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/), statusCode: 'insufficient_faucet_balance_tx' },
    ]);
  });

  it('nonce_conflict (409) when the same key takes every nonce the sender tries', async () => {
    h.intercept(BASE, frontRunEveryBroadcast(h.chains[BASE]!.client, FAUCET_KEY));
    const address = await seasoned();
    expect(await h.send(BASE, address)).toMatchObject({ ok: false, statusCode: 'nonce_conflict' });
    h.intercept(BASE, undefined);
    expect((await h.send(BASE, address)).ok).toBe(true);
  });

  it('faucet_request_failed (500, retryable) when the node refuses the broadcast, and the address may retry', async () => {
    // The node refuses any transfer while a block holds less gas than one.
    h.intercept(BASE, async (call) => {
      if (call.method === 'eth_sendRawTransaction') await holdBlockGasLimit(h.chains[BASE]!.client, 20_000n);
      return undefined;
    });
    const address = await seasoned();
    try {
      const failed = await h.send(BASE, address);
      expect(failed).toMatchObject({ ok: false, statusCode: 'faucet_request_failed' });
      expect(!failed.ok && failed.cause).toBeDefined();
    } finally {
      h.intercept(BASE, undefined);
      await holdBlockGasLimit(h.chains[BASE]!.client, 30_000_000n);
    }
    expect((await h.send(BASE, address)).ok).toBe(true);
  });

  it('faucet_request_failed (500) when the broadcast gets no answer: the address stays held, the drip may still be mined', async () => {
    h.intercept(BASE, async (call) => (call.method === 'eth_sendRawTransaction' ? 'drop' : undefined));
    const address = await seasoned();
    const lost = await h.send(BASE, address);
    expect(lost).toMatchObject({ ok: false, statusCode: 'faucet_request_failed' });
    expect(!lost.ok && lost.message).toMatch(/may still be mined/);
    h.intercept(BASE, undefined);
    expect(await h.send(BASE, address)).toMatchObject({ ok: false, statusCode: 'rate_limit_exceeded' });
  });

  it('faucet_request_failed (500) when the chain cannot be read', async () => {
    h.intercept(BASE, async (call) => (call.method === 'eth_getBalance' ? 'drop' : undefined));
    expect(await h.send(BASE, await seasoned())).toMatchObject({ ok: false, statusCode: 'faucet_request_failed' });
  });
});

describe('send: per-IP limit', () => {
  it('refuses an IP past its drips per window on a network, and counts a refused drip back', async () => {
    const limited = await startHarness({
      chains: {},
      reuse: h,
      env: { PER_IP_MAX_DRIPS: '2', PER_IP_WINDOW_HOURS: '1', RPC_URL_BASE_SEPOLIA: h.chains[BASE]!.rpcUrl },
    });
    try {
      const ip = '192.0.2.44';
      // A refusal after the IP was counted (no mainnet balance) gives the slot back.
      expect((await limited.send(BASE, randomAddress(), ip)).ok).toBe(false);
      expect((await limited.send(BASE, await seasoned(), ip)).ok).toBe(true);
      expect((await limited.send(BASE, await seasoned(), ip)).ok).toBe(true);
      const third = await limited.send(BASE, await seasoned(), ip);
      expect(third).toMatchObject({ ok: false, statusCode: 'rate_limit_exceeded' });
      expect(Date.parse(!third.ok ? third.resetAt! : '')).toBeGreaterThan(Date.now());
      expect((await limited.send(BASE, await seasoned(), '192.0.2.45')).ok).toBe(true);
    } finally {
      await limited.stop();
    }
  });
});

describe('send: deprecated networks', () => {
  it.each(['syndicate-risa', 'starknet-sepolia'])('%s answers insufficient_faucet_balance (503) naming the deprecation', async (faucetId) => {
    const result = await h.send(faucetId, randomAddress());
    expect(result).toMatchObject({ ok: false, statusCode: 'insufficient_faucet_balance' });
    if (result.ok) return;
    expect(result.message).toMatch(/deprecated and no longer funded/);
    expect(result.hint).toMatch(/Ethereum Sepolia \(ethereum-sepolia\)/);
  });
});

describe('send: production mode', () => {
  it('serves configured networks through Turnstile and answers 503 for networks without an RPC URL', async () => {
    const production = await startHarness({
      chains: {},
      reuse: h,
      env: {
        CRUCIBLE_MODE: 'production',
        TURNSTILE_SITE_KEY: 'harness-site-key',
        TURNSTILE_EXPECTED_HOSTNAME: HARNESS_TURNSTILE_HOSTNAME,
        TURNSTILE_ACTION: HARNESS_TURNSTILE_ACTION,
        IP_HASH_SALT: 'harness-ip-hash-salt',
        ANTI_SYBIL_MIN_BALANCE_ETH: '0',
        ANTI_SYBIL_MIN_TX_COUNT: '0',
        FAUCET_PRIVATE_KEY: FAUCET_KEY,
        // A dev key is allowed against a chain on this machine.
        RPC_URL_BASE_SEPOLIA: h.chains[BASE]!.rpcUrl,
      },
    });
    try {
      expect(production.runtime.config.antiSybil).toBeNull();
      // Production never accepts the development token.
      const dummy = await production.faucet.send({ faucetId: BASE, address: randomAddress(), turnstileToken: DEV_TURNSTILE_TOKEN, ip: null });
      expect(dummy).toMatchObject({ ok: false, statusCode: 'turnstile_failed', details: 'invalid-input-response' });
      expect((await production.send(BASE, randomAddress())).ok).toBe(true);
      const unserved = await production.send('ink-sepolia', randomAddress());
      expect(unserved).toMatchObject({ ok: false, statusCode: 'insufficient_faucet_balance' });
      expect(!unserved.ok && unserved.message).toMatch(/not served by this faucet deployment/);
    } finally {
      await production.stop();
    }
  });
});

describe('send: local devnet (embedded default)', () => {
  let local: FaucetRuntime;
  afterAll(async () => {
    await local?.close();
  });

  it('drips on a local anvil with the development CAPTCHA, without an explorer link', async () => {
    local = await startFaucetRuntime({ env: { DATABASE_PATH: `${h.databasePath}.local` } });
    const address = randomAddress();
    const refused = await local.faucet.send({ faucetId: 'crucible-testnet', address, turnstileToken: 'anything', ip: null });
    expect(refused).toMatchObject({ ok: false, statusCode: 'turnstile_failed' });
    const result = await local.faucet.send({ faucetId: 'crucible-testnet', address, turnstileToken: DEV_TURNSTILE_TOKEN, ip: '127.0.0.1' });
    expect(result).toEqual({
      ok: true,
      body: { success: true, transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/), amount: '0.1', recipient: address, statusCode: 'success' },
    });
  });
});
