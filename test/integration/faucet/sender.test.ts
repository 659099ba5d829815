import { parseEther, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectFaucetChain, type FaucetChain } from '../../../src/chain/faucet-chain.ts';
import type { FaucetNetwork } from '../../../src/chain/networks.ts';
import {
  FAUCET_KEY,
  frontRunEveryBroadcast,
  holdBlockGasLimit,
  randomAddress,
  startRpcProxy,
  startTestAnvil,
  type RpcInterceptor,
  type TestAnvil,
} from '../../support/anvil.ts';

// The sender against a real anvil: nonces under concurrency, resync after a competitor took a
// nonce, bounded retries, and no nonce consumed by a broadcast the node did not take.

const CHAIN_ID = 31337;
const network: FaucetNetwork & { chainId: number } = {
  id: 'test-chain',
  name: 'Test Chain',
  chainId: CHAIN_ID,
  vm: 'evm',
  symbol: 'ETH',
  decimals: 18,
  explorer: 'https://explorer.example.com',
  dripAmount: '0.1',
  dripWei: parseEther('0.1'),
  maxBalanceWei: parseEther('1'),
  rateWindowMs: 86_400_000,
  maxDripGas: 100_000n,
  deprecated: false,
  suggestForDeprecated: false,
};
const faucetAccount = privateKeyToAccount(FAUCET_KEY);
const DRIP = parseEther('0.1');

let anvil: TestAnvil;
let interceptor: RpcInterceptor | undefined;
let proxy: Awaited<ReturnType<typeof startRpcProxy>>;
beforeAll(async () => {
  anvil = await startTestAnvil({ chainId: CHAIN_ID, blockTimeSeconds: 2 });
  proxy = await startRpcProxy(anvil.rpcUrl, (call) => interceptor?.(call) ?? Promise.resolve(undefined));
});
afterAll(async () => {
  await proxy?.close();
  await anvil?.stop();
});
afterEach(() => {
  interceptor = undefined;
});

const connect = (rpcUrl = proxy.url) => connectFaucetChain({ network, rpcUrl, privateKey: FAUCET_KEY, localDevnet: false });
const pendingNonce = () => anvil.client.getTransactionCount({ address: faucetAccount.address, blockTag: 'pending' });
const nonceOf = async (hash: Hex) => (await anvil.client.getTransaction({ hash })).nonce;

async function drip(chain: FaucetChain) {
  const to = randomAddress();
  return chain.transfer(to, DRIP, (await chain.prepareTransfer(to, DRIP)).quote);
}

/** Before the faucet's transaction reaches the node, the same key spends that nonce with a higher fee. */
const frontRun: RpcInterceptor = (call) => frontRunEveryBroadcast(anvil.client, FAUCET_KEY)(call);

describe('sender', () => {
  it('sends 50 concurrent transfers with consecutive nonces', async () => {
    const chain = await connect(anvil.rpcUrl);
    const start = await pendingNonce();
    const outcomes = await Promise.all(Array.from({ length: 50 }, () => drip(chain)));
    expect(outcomes.every((o) => o.ok)).toBe(true);
    const nonces = outcomes.map((o) => (o.ok ? o.nonce : -1)).sort((a, b) => a - b);
    expect(nonces).toEqual(Array.from({ length: 50 }, (_, i) => start + i));
    // The node agrees: every hash is its transaction at that nonce.
    for (const outcome of outcomes) if (outcome.ok) expect(await nonceOf(outcome.hash)).toBe(outcome.nonce);
    expect(await pendingNonce()).toBe(start + 50);
  });

  it('resyncs from the node after a competing transaction took its nonce', async () => {
    const chain = await connect();
    const warmup = await Promise.all([drip(chain), drip(chain)]);
    expect(warmup.every((o) => o.ok)).toBe(true);
    // Queue several sends so the sender relies on its cached nonce, and front-run the first of them.
    let competitors = 0;
    interceptor = async (call) => (call.method === 'eth_sendRawTransaction' && competitors++ === 0 ? frontRun(call) : undefined);
    const start = await pendingNonce();
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => drip(chain)));
    expect(outcomes.map((o) => o.ok)).toEqual([true, true, true, true, true]);
    const nonces = outcomes.map((o) => (o.ok ? o.nonce : -1)).sort((a, b) => a - b);
    // The competitor holds `start`; the faucet's five follow it without a gap.
    expect(nonces).toEqual([start + 1, start + 2, start + 3, start + 4, start + 5]);
    expect(await pendingNonce()).toBe(start + 6);
  });

  it('answers nonce_conflict when the nonce is taken on every bounded retry, and leaves no gap', async () => {
    const chain = await connect();
    interceptor = frontRun;
    const start = await pendingNonce();
    const outcome = await drip(chain);
    expect(outcome).toMatchObject({ ok: false, reason: 'nonce_conflict' });
    // One first attempt and three retries, each front-run.
    expect(await pendingNonce()).toBe(start + 4);
    interceptor = undefined;
    const next = await drip(chain);
    expect(next).toMatchObject({ ok: true, nonce: start + 4 });
  });

  it('answers unknown, never failed, for a broadcast that got no answer, and reuses the nonce the node never had', async () => {
    const chain = await connect();
    const start = await pendingNonce();
    interceptor = async (call) => (call.method === 'eth_sendRawTransaction' ? 'drop' : undefined);
    const lost = await drip(chain);
    expect(lost).toMatchObject({ ok: false, reason: 'unknown', nonce: start });
    // The sender still holds it: it may yet reach the node.
    expect(!lost.ok && 'hash' in lost && chain.isInFlight(lost.hash)).toBe(true);
    interceptor = undefined;
    expect(await drip(chain)).toMatchObject({ ok: true, nonce: start });
  });

  it('answers failed, and keeps the nonce, when the node refuses the broadcast', async () => {
    const chain = await connect();
    const start = await pendingNonce();
    // The node refuses any transfer while a block holds less gas than one.
    interceptor = async (call) => {
      if (call.method === 'eth_sendRawTransaction') await holdBlockGasLimit(anvil.client, 20_000n);
      return undefined;
    };
    try {
      expect(await drip(chain)).toMatchObject({ ok: false, reason: 'failed' });
    } finally {
      interceptor = undefined;
      await holdBlockGasLimit(anvil.client, 30_000_000n);
    }
    expect(await drip(chain)).toMatchObject({ ok: true, nonce: start });
  });

  it('counts a broadcast whose answer was lost as sent when the node has it', async () => {
    const chain = await connect();
    const start = await pendingNonce();
    interceptor = async (call) => (call.method === 'eth_sendRawTransaction' ? 'forward-then-drop' : undefined);
    const outcome = await drip(chain);
    expect(outcome).toMatchObject({ ok: true, nonce: start });
    if (outcome.ok) expect(await nonceOf(outcome.hash)).toBe(start);
    interceptor = undefined;
    expect(await drip(chain)).toMatchObject({ ok: true, nonce: start + 1 });
  });

  it('uses legacy gas pricing on a chain without a base fee (pre-London)', async () => {
    const berlin = await startTestAnvil({ chainId: CHAIN_ID, extraArgs: ['--hardfork', 'berlin'] });
    try {
      const chain = await connect(berlin.rpcUrl);
      const to = randomAddress();
      const quote = (await chain.prepareTransfer(to, DRIP)).quote;
      expect(quote.type).toBe('legacy');
      const outcome = await chain.transfer(to, DRIP, quote);
      if (!outcome.ok) throw new Error(`transfer failed: ${outcome.reason}`);
      expect((await berlin.client.getTransaction({ hash: outcome.hash })).type).toBe('legacy');
      // Where the chain has a base fee, EIP-1559.
      expect((await (await connect(anvil.rpcUrl)).prepareTransfer(to, DRIP)).quote.type).toBe('eip1559');
    } finally {
      await berlin.stop();
    }
  });

  it('reports a wallet the node finds unable to pay, without consuming the nonce', async () => {
    const chain = await connect(anvil.rpcUrl);
    // Emptying the wallet makes anvil evict its queued transactions: start with none queued.
    await anvil.client.mine({ blocks: 1 });
    const start = await pendingNonce();
    const to = randomAddress();
    const quote = (await chain.prepareTransfer(to, DRIP)).quote;
    const balance = await anvil.client.getBalance({ address: faucetAccount.address });
    await anvil.setBalance(faucetAccount.address, DRIP);
    expect(await chain.transfer(to, DRIP, quote)).toMatchObject({ ok: false, reason: 'insufficient_funds' });
    await anvil.setBalance(faucetAccount.address, balance);
    expect(await drip(chain)).toMatchObject({ ok: true, nonce: start });
  });
});
