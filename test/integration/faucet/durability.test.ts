import { parseEther, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pauseIntervalMining, THIRD_PARTY_KEY, randomAddress } from '../../support/anvil.ts';
import { FAUCET_ADDRESS, startHarness, type Harness } from './harness.ts';

// Nothing lost or paid twice: a broadcast whose outcome is unknown keeps its reservation and
// stays pending until the chain settles it; what a crash left between reservation and broadcast
// is settled from the chain; a transaction dropped from the mempool is sent again (or replaced),
// so its nonce never becomes a gap.

const BASE = 'base-sepolia';
const HOUR = 3_600_000;

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    chains: { [BASE]: 84532 },
    blockTimeSeconds: 1,
    // Reconciled on demand here (settled as soon as asked), with a quick mempool watch.
    runtime: { settleAfterMs: 0, reconcileIntervalMs: HOUR, chainOptions: { watchIntervalMs: 300 } },
  });
});
afterAll(async () => {
  await h?.stop();
});
afterEach(() => {
  h.intercept(BASE, undefined);
});

const anvil = () => h.chains[BASE]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it holds (at most ~20 s); returns whether it did. */
async function eventually(check: () => Promise<boolean>): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return true;
    await sleep(200);
  }
  return false;
}

/** Whether a node read of the hash succeeds: it has the transaction (pending or mined), or a receipt. */
const succeeds = (read: Promise<unknown>) =>
  read.then(
    () => true,
    () => false,
  );
const known = (hash: Hex) => succeeds(anvil().client.getTransaction({ hash }));
const mined = (hash: Hex) => succeeds(anvil().client.getTransactionReceipt({ hash }));
/** Reconciles once, then says whether the address's drip is settled as sent. */
const reconciledAsSent = async (address: string) => {
  await h.faucet.reconcile();
  return (await h.store.listDrips({ address }))[0]?.outcome === 'sent';
};
const hashIn = (message: string | undefined) => /0x[0-9a-f]{64}/.exec(message ?? '')?.[0] as Hex | undefined;

/** Makes the node unreachable for the faucet once it has taken (or been denied) the broadcast. */
function loseTheAnswerAndTheNode(forward: boolean) {
  let broadcastSeen = false;
  h.intercept(BASE, async (call) => {
    if (call.method === 'eth_sendRawTransaction') {
      broadcastSeen = true;
      return forward ? 'forward-then-drop' : 'drop';
    }
    return broadcastSeen ? 'drop' : undefined;
  });
}

describe('a broadcast whose outcome is unknown', () => {
  it('keeps the reservation and a pending record while the node took it, then settles it as sent', async () => {
    const address = randomAddress();
    loseTheAnswerAndTheNode(true);
    const answer = await h.send(BASE, address);
    expect(answer).toMatchObject({ ok: false, statusCode: 'faucet_request_failed' });
    const hash = hashIn(!answer.ok ? answer.message : undefined)!;
    expect(hash).toBeDefined();
    expect(!answer.ok && answer.message).toMatch(/may still be mined/);

    // Never released as failed: the address stays reserved and the ledger row pending.
    expect(await h.store.listDrips({ address })).toMatchObject([{ outcome: 'pending', txHash: hash }]);
    expect(await h.send(BASE, address)).toMatchObject({ ok: false, statusCode: 'rate_limit_exceeded' });
    await h.faucet.reconcile();
    expect(await h.store.listDrips({ address })).toMatchObject([{ outcome: 'pending' }]);

    // The node had it all along: once mined, reconciling settles the drip as sent and keeps the window.
    h.intercept(BASE, undefined);
    expect(await eventually(() => mined(hash))).toBe(true);
    expect(await eventually(async () => await reconciledAsSent(address))).toBe(true);
    expect(await h.send(BASE, address)).toMatchObject({ ok: false, statusCode: 'rate_limit_exceeded' });
    expect(await anvil().client.getBalance({ address })).toBe(parseEther('0.1'));
  });

  it('sends it once the node is back when it never reached the node, and pays only once', async () => {
    const address = randomAddress();
    loseTheAnswerAndTheNode(false);
    const answer = await h.send(BASE, address);
    expect(answer).toMatchObject({ ok: false, statusCode: 'faucet_request_failed' });
    const hash = hashIn(!answer.ok ? answer.message : undefined)!;
    expect(await known(hash)).toBe(false);
    // The sender still holds it, so reconciling leaves it alone rather than releasing it.
    await h.faucet.reconcile();
    expect(await h.send(BASE, address)).toMatchObject({ ok: false, statusCode: 'rate_limit_exceeded' });

    h.intercept(BASE, undefined);
    expect(await eventually(() => mined(hash))).toBe(true);
    expect(await eventually(async () => await reconciledAsSent(address))).toBe(true);
    expect(await anvil().client.getBalance({ address })).toBe(parseEther('0.1'));
  });
});

describe('an unknown broadcast that is later dropped and replaced', () => {
  it('is settled under its replacement: the address stays held and the drip is paid once', async () => {
    const address = randomAddress();
    await pauseIntervalMining(anvil().client);
    let original: Hex;
    try {
      loseTheAnswerAndTheNode(true);
      const answer = await h.send(BASE, address);
      original = hashIn(!answer.ok ? answer.message : undefined)!;
      // The node had it; it drops it, and fees rise above what it offers.
      await anvil().client.dropTransaction({ hash: original });
      await anvil().client.request({ method: 'anvil_setNextBlockBaseFeePerGas', params: ['0x2540be400'] } as never);
      await anvil().client.mine({ blocks: 1 });
      h.intercept(BASE, undefined);
      expect(await eventually(async () => (await h.store.replacementOf(original)) !== null)).toBe(true);
    } finally {
      await anvil().client.setIntervalMining({ interval: 1 });
    }
    const replacement = (await h.store.replacementOf(original))!;
    expect(await eventually(() => mined(replacement))).toBe(true);
    // Reconciling follows the replacement: confirmed, not released for the original's absence.
    expect(await eventually(() => reconciledAsSent(address))).toBe(true);
    expect(await h.send(BASE, address)).toMatchObject({ ok: false, statusCode: 'rate_limit_exceeded' });
    expect(await anvil().client.getBalance({ address })).toBe(parseEther('0.1'));
  });
});

describe('what a crash left between reservation and broadcast', () => {
  it('releases what never left and confirms what the chain has, on the next start', async () => {
    // A process of its own over the same chain, with its own database.
    const crashed = await startHarness({ chains: { [BASE]: 84532 }, reuse: h, runtime: { reconcileIntervalMs: HOUR } });
    const now = new Date();
    const reserve = async (address: string) => {
      const reserved = await crashed.store.reserveAddress({ networkId: BASE, address, windowMs: 24 * HOUR, now });
      if (!reserved.ok) throw new Error('not reserved');
      return reserved.reservation;
    };
    // 1. Reserved, nothing signed. 2. Signed and broadcast (a real transaction on the chain).
    // 3. Signed, recorded, never broadcast.
    const [unsigned, broadcast, neverSent] = [randomAddress(), randomAddress(), randomAddress()];
    await reserve(unsigned);
    const onChain = await anvil().client.sendTransaction({ account: privateKeyToAccount(THIRD_PARTY_KEY), chain: null, to: broadcast, value: 1n });
    await crashed.store.recordBroadcast(await reserve(broadcast), onChain);
    await crashed.store.recordBroadcast(await reserve(neverSent), `0x${'77'.repeat(32)}`);
    // The process dies here; a new one starts over the same database and chain.
    await crashed.closeRuntime();

    const restarted = await startHarness({
      chains: { [BASE]: 84532 },
      reuse: h,
      databasePath: crashed.databasePath,
      runtime: { settleAfterMs: 0, reconcileIntervalMs: HOUR },
    });
    try {
      // Reconciled at start, with nothing from this process in flight.
      expect(await eventually(async () => (await restarted.store.unsettledReservations(new Date())).length === 0)).toBe(true);
      const reservable = async (address: string) => (await restarted.store.reserveAddress({ networkId: BASE, address, windowMs: HOUR, now: new Date() })).ok;
      expect(await reservable(unsigned)).toBe(true);
      expect(await reservable(broadcast)).toBe(false);
      expect(await reservable(neverSent)).toBe(true);
    } finally {
      await restarted.stop();
      await crashed.stop();
    }
  });
});

describe('a transaction dropped from the mempool', () => {
  it('is sent again, so its nonce never becomes a gap', async () => {
    await pauseIntervalMining(anvil().client);
    try {
      const first = await h.send(BASE, randomAddress());
      const second = await h.send(BASE, randomAddress());
      if (!first.ok || !second.ok) throw new Error('drips failed');
      const dropped = first.body.transactionHash as Hex;
      await anvil().client.dropTransaction({ hash: dropped });
      expect(await known(dropped)).toBe(false);
      // The sender notices and broadcasts the very same transaction again.
      expect(await eventually(() => known(dropped))).toBe(true);
    } finally {
      await anvil().client.setIntervalMining({ interval: 1 });
    }
    await anvil().client.mine({ blocks: 1 });
    const latest = await anvil().client.getTransactionCount({ address: FAUCET_ADDRESS, blockTag: 'latest' });
    expect(await anvil().client.getTransactionCount({ address: FAUCET_ADDRESS, blockTag: 'pending' })).toBe(latest);
  });

  it('is replaced at its nonce with a higher fee when the node no longer takes it, and the status follows', async () => {
    await pauseIntervalMining(anvil().client);
    let dropped: Hex;
    try {
      const sent = await h.send(BASE, randomAddress());
      if (!sent.ok) throw new Error('drip failed');
      dropped = sent.body.transactionHash as Hex;
      await anvil().client.dropTransaction({ hash: dropped });
      // Base fees rise far above what the dropped transaction offers (1,000 gwei: above what earlier tests left).
      await anvil().client.request({ method: 'anvil_setNextBlockBaseFeePerGas', params: ['0xe8d4a51000'] } as never);
      await anvil().client.mine({ blocks: 1 });
      const replacement = await eventually(async () => (await h.store.replacementOf(dropped)) !== null);
      expect(replacement).toBe(true);
    } finally {
      await anvil().client.setIntervalMining({ interval: 1 });
    }
    const replacementHash = (await h.store.replacementOf(dropped))!;
    expect(await eventually(() => mined(replacementHash))).toBe(true);
    expect(await h.faucet.status({ faucetId: BASE, transactionHash: dropped, ip: null })).toMatchObject({
      ok: true,
      body: { status: 'success', mined: true, transactionHash: replacementHash },
    });
  });
});
