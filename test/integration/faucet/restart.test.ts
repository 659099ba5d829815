import type { Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { randomAddress } from '../../support/anvil.ts';
import { FAUCET_ADDRESS, startHarness, type Harness } from './harness.ts';

// A restart (runtime closed, SQLite store and sender reopened on the same file and chain) loses
// no ledger row and re-drips nobody, including an address whose drip was in flight.

const NETWORK = 'optimism-sepolia';

let before: Harness;
beforeAll(async () => {
  before = await startHarness({ chains: { [NETWORK]: 11155420 } });
});
afterAll(async () => {
  await before?.stop();
});

describe('restart', () => {
  it('keeps the ledger and the limits, and the new sender continues the nonces', async () => {
    const served = Array.from({ length: 5 }, () => randomAddress());
    const results = await Promise.all(served.map((address, i) => before.send(NETWORK, address, `10.2.${i}.1`)));
    const hashes = results.map((r) => (r.ok ? r.body.transactionHash : null));
    expect(hashes).not.toContain(null);
    // A drip in flight when the process died: reserved, never confirmed.
    const inFlight = randomAddress();
    const network = before.runtime.networks.find((n) => n.id === NETWORK)!;
    const reserved = await before.store.reserveAddress({ networkId: NETWORK, address: inFlight, windowMs: network.rateWindowMs, now: new Date() });
    expect(reserved.ok).toBe(true);
    // A drip's row is settled as sent just after its answer, in the background: the ledger is read once that is done.
    await vi.waitFor(async () => expect((await before.store.listDrips({ networkId: NETWORK })).map((row) => row.outcome)).toEqual(served.map(() => 'sent')), {
      timeout: 30_000,
      interval: 50,
    });
    const ledgerBefore = await before.store.listDrips();
    await before.closeRuntime();

    const after = await startHarness({ chains: { [NETWORK]: 11155420 }, reuse: before, databasePath: before.databasePath });
    try {
      expect(await after.store.listDrips()).toEqual(ledgerBefore);
      expect((await after.store.listDrips({ networkId: NETWORK })).map((row) => row.txHash).sort()).toEqual([...hashes].sort());
      for (const address of [...served, inFlight]) {
        expect(await after.send(NETWORK, address)).toMatchObject({ ok: false, statusCode: 'rate_limit_exceeded' });
      }
      const nonces = await Promise.all(hashes.map(async (hash) => (await after.chains[NETWORK]!.client.getTransaction({ hash: hash as Hex })).nonce));
      const next = await after.send(NETWORK, randomAddress());
      if (!next.ok) throw new Error(`send after restart failed: ${next.statusCode}`);
      expect((await after.chains[NETWORK]!.client.getTransaction({ hash: next.body.transactionHash as Hex })).nonce).toBe(Math.max(...nonces) + 1);
      expect(await after.chains[NETWORK]!.client.getTransactionCount({ address: FAUCET_ADDRESS, blockTag: 'pending' })).toBe(Math.max(...nonces) + 2);
      expect(await after.store.listDrips()).toHaveLength(ledgerBefore.length + 1);
    } finally {
      await after.stop();
    }
  });
});
